// The vector kernels of VectorKernels.hpp as vertices, on 8-byte aligned data (so popc keeps
// the vectors whole: ld64 / st64 and f32v2 / f16v4 arithmetic).
#include "VectorKernels.hpp"

#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> class Arithmetic : public Vertex {
public:
  Input<Vector<T, VectorLayout::SPAN, 8>> a;
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> b, c;
  Output<Vector<T, VectorLayout::ONE_PTR, 8>> out;

  void compute() {
    if constexpr (sizeof(T) == 4)
      vectork::float2Arithmetic(&a[0], &b[0], &c[0], &out[0], a.size());
    else
      vectork::half4Arithmetic(&a[0], &b[0], &c[0], &out[0], a.size());
  }
};
template class Arithmetic<float>;
template class Arithmetic<half>;

class Dots : public Vertex {
public:
  Input<Vector<float, VectorLayout::SPAN, 8>> a;
  Input<Vector<float, VectorLayout::ONE_PTR, 8>> b;
  Input<Vector<half, VectorLayout::ONE_PTR, 8>> ha, hb;
  Output<Vector<float, VectorLayout::ONE_PTR, 8>> out;

  void compute() { vectork::dots(&a[0], &b[0], &ha[0], &hb[0], &out[0], a.size()); }
};

class Conversions : public Vertex {
public:
  Input<Vector<half, VectorLayout::SPAN, 8>> h;
  Input<Vector<float, VectorLayout::ONE_PTR, 8>> f;
  Output<Vector<float, VectorLayout::ONE_PTR, 8>> wide;
  Output<Vector<half, VectorLayout::ONE_PTR, 8>> narrow;

  void compute() { vectork::conversions(&h[0], &f[0], &wide[0], &narrow[0], h.size()); }
};

class Lanes : public Vertex {
public:
  InOut<Vector<float, VectorLayout::SPAN, 8>> f;
  InOut<Vector<half, VectorLayout::ONE_PTR, 8>> h;
  Input<Vector<short, VectorLayout::ONE_PTR, 8>> s;
  Output<Vector<int, VectorLayout::ONE_PTR, 8>> sums;
  float value;
  unsigned k;

  void compute() { vectork::lanes(&f[0], &h[0], &s[0], &sums[0], value, k, f.size()); }
};

class ManyAccumulators : public Vertex {
public:
  Input<Vector<float, VectorLayout::SPAN, 8>> a;
  Output<Vector<float, VectorLayout::ONE_PTR, 8>> out;

  void compute() { vectork::manyAccumulators(&a[0], &out[0], a.size()); }
};
