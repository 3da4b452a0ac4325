// popops Fill / Fill2d: the value is a plain state member (`T in;`, set by setInitialValue),
// including half; the 2-D form writes a vector of output regions with std::fill.
#include <algorithm>
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace popops {

template <typename T> class Fill : public Vertex {
public:
  T in;
  Output<Vector<T, VectorLayout::SPAN, 8>> out;

  bool compute() {
    std::fill(out.begin(), out.end(), in);
    return true;
  }
};

template <typename T> class Fill2d : public Vertex {
public:
  T in;
  Vector<Output<Vector<T, VectorLayout::SPAN, 8>>> out;

  bool compute() {
    for (auto &region : out)
      std::fill(region.begin(), region.end(), in);
    return true;
  }
};

template class Fill<float>;
template class Fill<half>;
template class Fill<int>;
template class Fill<unsigned char>;
template class Fill2d<half>;
template class Fill2d<unsigned>;

} // namespace popops
