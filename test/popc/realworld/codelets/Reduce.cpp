// ReduceMax / ReduceMin with std::numeric_limits<T> identities over float, half and int:
// the shape of popops' reduction vertices (one output per input region).
#include <algorithm>
#include <limits>
#include <poplar/Vertex.hpp>

using namespace poplar;

struct ReduceMax {
  template <typename T> static T identity() { return std::numeric_limits<T>::lowest(); }
  template <typename T> static T apply(T a, T b) { return std::max(a, b); }
};
struct ReduceMin {
  template <typename T> static T identity() { return std::numeric_limits<T>::max(); }
  template <typename T> static T apply(T a, T b) { return std::min(a, b); }
};

template <typename Op, typename T> class Reduce : public Vertex {
public:
  Input<VectorList<T, VectorListLayout::DELTANELEMENTS>> partials;
  Output<Vector<T>> out;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r) {
      T acc = Op::template identity<T>();
      for (T x : partials[r])
        acc = Op::apply(acc, x);
      out[r] = acc;
    }
    return true;
  }
};

template class Reduce<ReduceMax, float>;
template class Reduce<ReduceMax, half>;
template class Reduce<ReduceMax, int>;
template class Reduce<ReduceMin, float>;
template class Reduce<ReduceMin, half>;
template class Reduce<ReduceMin, unsigned>;
