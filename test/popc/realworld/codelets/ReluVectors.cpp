// Nonlinearities on whole vectors: ReLU and leaky ReLU of half4 and float2 data through
// ipu::fmax and __builtin_ipu_max (element by element), a scale by a vector splat (f16v4mul /
// f32v2mul) and a scalar tail for sizes that are not a multiple of the width.
#include <ipu_builtins.h>
#include <ipu_vector_math>
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace popnn {

template <typename T, typename V, unsigned width> class LeakyRelu : public Vertex {
public:
  InOut<Vector<T, VectorLayout::SPAN, 8>> data;
  float alpha; // in [0, 1]

  void compute() {
    const T a = T(alpha);
    V av;
    for (unsigned k = 0; k < width; ++k)
      av[k] = a;
    V *v = reinterpret_cast<V *>(&data[0]);
    const unsigned n = data.size() / width;
    for (unsigned i = 0; i < n; ++i) {
      V x = v[i];
      V scaled = x * av;
      v[i] = ipu::fmax(x, scaled); // max(x, alpha x)
    }
    for (unsigned i = n * width; i < data.size(); ++i)
      data[i] = T(__builtin_ipu_max(float(data[i]), float(data[i]) * alpha));
  }
};

template class LeakyRelu<float, float2, 2>;
template class LeakyRelu<half, half4, 4>;

} // namespace popnn
