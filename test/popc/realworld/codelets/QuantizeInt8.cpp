// Symmetric int8 quantisation and back: q = clamp(rint(x / scale), -128, 127) (round half to
// even, as lrintf does), x' = q * scale; float and half inputs, signed char codes.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

#include <algorithm>
#include <cmath>

using namespace poplar;

template <typename T> class QuantizeInt8 : public Vertex {
public:
  Input<Vector<T>> in;
  Output<Vector<signed char, VectorLayout::ONE_PTR>> codes;
  Output<Vector<T, VectorLayout::ONE_PTR>> restored;
  float scale;

  void compute() {
    const float inverse = 1.0f / scale;
    for (unsigned i = 0; i < in.size(); ++i) {
      long q = std::lrint(float(in[i]) * inverse);
      q = std::clamp(q, -128L, 127L);
      codes[i] = static_cast<signed char>(q);
      restored[i] = T(float(codes[i]) * scale);
    }
  }
};

template class QuantizeInt8<float>;
template class QuantizeInt8<half>;
