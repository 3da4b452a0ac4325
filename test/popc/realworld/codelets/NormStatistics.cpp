// popnn-style normalisation statistics: per group of `groupSize` consecutive activations, the
// mean and the inverse standard deviation 1 / sqrt(var + eps), accumulated in float through
// float2 pairs (f32v2 arithmetic) from float or half inputs.
#include <poplar/HalfFloat.hpp>
#include <poplar/VectorTypes.hpp>
#include <poplar/Vertex.hpp>

#include <cmath>

using namespace poplar;

namespace popnn {

template <typename T> class MeanInvStdDev : public Vertex {
public:
  Input<Vector<T, VectorLayout::SPAN, 8>> acts;
  Output<Vector<float>> mean;
  Output<Vector<float, VectorLayout::ONE_PTR>> invStdDev;
  unsigned groupSize; // even
  float eps;

  void compute() {
    for (unsigned g = 0; g < mean.size(); ++g) {
      const T *p = &acts[g * groupSize];
      float2 sum = {0.0f, 0.0f}, squares = {0.0f, 0.0f};
      for (unsigned i = 0; i < groupSize; i += 2) {
        float2 x = {float(p[i]), float(p[i + 1])};
        sum = sum + x;
        float2 xx = x * x;
        squares = squares + xx;
      }
      const float n = float(groupSize);
      const float m = (sum[0] + sum[1]) / n;
      const float var = (squares[0] + squares[1]) / n - m * m;
      mean[g] = m;
      invStdDev[g] = 1.0f / std::sqrt(var + eps);
    }
  }
};

template class MeanInvStdDev<float>;
template class MeanInvStdDev<half>;

} // namespace popnn
