// popops element-wise vertices in PopLibs' MultiVertex style: work split with the
// divide-by-six trick (divideWork), BroadcastScalar1D, Select, ClampInPlace with vector bounds
// and Iota, over float, half, int and unsigned.
#include <algorithm>
#include <poplar/TileConstants.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace popops {

// floor((size + 5 - wid) / 6) elements for worker wid, computed as PopLibs does.
static inline unsigned divideWork(unsigned size, unsigned wid) {
  return ((size + CTXT_WORKERS - 1 - wid) * 0xaaab) >> 18;
}

template <typename T> class BroadcastScalar1DMultiply : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::SPAN, 8>> data;
  Input<T> B;
  Output<Vector<T, VectorLayout::ONE_PTR, 8>> out;

  void compute(unsigned wid) {
    unsigned n = divideWork(data.size(), wid);
    for (unsigned k = 0; k < n; ++k) {
      unsigned i = wid + k * CTXT_WORKERS;
      out[i] = data[i] * T(B);
    }
  }
};
template class BroadcastScalar1DMultiply<float>;
template class BroadcastScalar1DMultiply<half>;
template class BroadcastScalar1DMultiply<int>;

template <typename T> class Select : public Vertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR>> in1;
  Input<Vector<T, VectorLayout::ONE_PTR>> in2;
  Input<Vector<bool, VectorLayout::ONE_PTR>> in3;
  Output<Vector<T>> out;

  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = in3[i] ? in1[i] : in2[i];
    return true;
  }
};
template class Select<float>;
template class Select<half>;
template class Select<unsigned>;

template <typename T> class ClampInPlace : public Vertex {
public:
  InOut<Vector<T>> in1Out;
  Input<Vector<T, VectorLayout::ONE_PTR>> in2; // lower bounds
  Input<Vector<T, VectorLayout::ONE_PTR>> in3; // upper bounds

  bool compute() {
    for (unsigned i = 0; i < in1Out.size(); ++i)
      in1Out[i] = std::clamp(in1Out[i], in2[i], in3[i]);
    return true;
  }
};
template class ClampInPlace<float>;
template class ClampInPlace<int>;

template <typename T> class Iota : public Vertex {
public:
  Output<VectorList<T, VectorListLayout::DELTAN>> out;
  Input<Vector<T, VectorLayout::ONE_PTR>> offsets;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r)
      for (unsigned i = 0; i < out[r].size(); ++i)
        out[r][i] = offsets[r] + T(i);
    return true;
  }
};
template class Iota<unsigned>;
template class Iota<int>;

} // namespace popops
