// Vector types from poplar/VectorTypes.hpp as PopLibs' C++ paths use them: a float2 axpy over
// 64-bit aligned data, half4 arithmetic with element access and swizzles, int2 / short2 math
// and conversions between vector types, and ipu:: math on float2 and half4.
#include <ipu_vector_math>
#include <poplar/VectorTypes.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

class AxpyFloat2 : public Vertex {
public:
  Input<Vector<float, VectorLayout::SPAN, 8>> x;
  InOut<Vector<float, VectorLayout::ONE_PTR, 8>> y;
  float a;

  bool compute() {
    const float2 *x2 = reinterpret_cast<const float2 *>(&x[0]);
    float2 *y2 = reinterpret_cast<float2 *>(&y[0]);
    const float2 av = {a, a};
    for (unsigned i = 0; i < x.size() / 2; ++i)
      y2[i] = av * x2[i] + y2[i];
    if (x.size() % 2) // the odd element, scalar
      y[x.size() - 1] += a * x[x.size() - 1];
    return true;
  }
};

class Half4Ops : public Vertex {
public:
  InOut<Vector<half, VectorLayout::SPAN, 8>> v;

  bool compute() {
    half4 *p = reinterpret_cast<half4 *>(&v[0]);
    const half4 offset = {1.0f, 2.0f, 3.0f, 4.0f};
    for (unsigned i = 0; i < v.size() / 4; ++i) {
      half4 t = p[i];
      half4 r = t * t + offset; // each lane computed in float, rounded to half
      r.x = t.w;                // element access
      r.yz = t.zy;              // swizzles
      p[i] = r;
    }
    return true;
  }
};

class Int2Short2 : public Vertex {
public:
  Input<Vector<int, VectorLayout::SPAN, 8>> in; // pairs
  Output<Vector<int, VectorLayout::ONE_PTR, 8>> out;

  bool compute() {
    const int2 *p = reinterpret_cast<const int2 *>(&in[0]);
    int2 *q = reinterpret_cast<int2 *>(&out[0]);
    for (unsigned i = 0; i < in.size() / 2; ++i) {
      int2 a = p[i];
      short2 s = __builtin_convertvector(a, short2); // truncates each lane to 16 bits
      int2 back = __builtin_convertvector(s, int2);
      float2 f = __builtin_convertvector(a, float2) * 0.5f;
      q[i] = (a * 3 - back) + __builtin_convertvector(f, int2);
    }
    return true;
  }
};

// popnn-style non-linearity on 64-bit vectors: ipu::sigmoid / ipu::fmax lane by lane.
template <typename V, typename T, unsigned N> class VectorSigmoidRelu : public Vertex {
public:
  InOut<Vector<T, VectorLayout::SPAN, 8>> data;

  bool compute() {
    V *p = reinterpret_cast<V *>(&data[0]);
    const V zero = {};
    for (unsigned i = 0; i < data.size() / N; ++i)
      p[i] = ipu::fmax(ipu::sigmoid(p[i]) - V(0.5f), zero);
    return true;
  }
};
template class VectorSigmoidRelu<float2, float, 2>;
template class VectorSigmoidRelu<half4, half, 4>;
