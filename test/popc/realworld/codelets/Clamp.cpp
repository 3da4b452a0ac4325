// popops-style Clamp: std::min/std::max over float, half and int, one MultiVertex split over
// the workers as popops splits 1-D work (worker w takes elements w, w+6, ...).
#include <algorithm>
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace popops {

template <typename T> class Clamp : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in;
  Input<T> lo;
  Input<T> hi;
  Output<Vector<T, VectorLayout::SPAN, 8>> out;

  void compute(unsigned wid) {
    for (unsigned i = wid; i < out.size(); i += numWorkers())
      out[i] = std::min(std::max(in[i], T(lo)), T(hi));
  }
};

template class Clamp<float>;
template class Clamp<half>;
template class Clamp<int>;

} // namespace popops
