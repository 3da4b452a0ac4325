// Loss transform vertices: per element of a piece of the model outputs, the delta and the
// term that calcLoss sums into each sample's loss. One worker per vertex; the host gives each
// worker its own piece.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>
#include <popops/EncodingConstants.hpp>

#include <math.h>

using namespace poplar;

namespace popnn {

/// deltas = probs - expected; transformed = 0.5 deltas^2 (expected is the one-hot row).
template <class FP> class LossSumSquaredTransform : public Vertex {
public:
  Input<Vector<FP, VectorLayout::ONE_PTR, 4>> probs;
  Input<Vector<FP, VectorLayout::ONE_PTR, 4>> expected;
  Output<Vector<FP, VectorLayout::ONE_PTR, 4>> deltas;
  Output<Vector<FP, VectorLayout::ONE_PTR, 4>> transformed;
  const unsigned short size;

  bool compute() {
    for (unsigned i = 0; i < size; ++i) {
      float d = float(probs[i]) - float(expected[i]);
      deltas[i] = FP(d);
      transformed[i] = FP(0.5f * d * d);
    }
    return true;
  }
};

/// deltas = (deltasScale / modelOutputScaling)(probs - expected modelOutputScaling);
/// transformed = -expected (log(probs + eps) - log(modelOutputScaling)). eps keeps log finite
/// at 0 (the smallest normal float, or the smallest half).
template <class FP> class LossCrossEntropyTransform : public Vertex {
public:
  Input<Vector<FP, VectorLayout::ONE_PTR, 4>> probs;
  Input<Vector<FP, VectorLayout::ONE_PTR, 4>> expected;
  Output<Vector<FP, VectorLayout::ONE_PTR, 4>> deltas;
  Output<Vector<FP, VectorLayout::ONE_PTR, 4>> transformed;
  const unsigned short size;
  Input<FP> deltasScale;
  Input<FP> modelOutputScaling;

  bool compute() {
    constexpr float eps = __is_same(FP, float) ? EPS_LOG_N_FLOAT : EPS_LOG_N_HALF;
    float outScale = float(*modelOutputScaling);
    float scale = float(*deltasScale) / outScale;
    float logOutScale = __builtin_logf(outScale);
    for (unsigned i = 0; i < size; ++i) {
      float expect = float(expected[i]);
      float actual = float(probs[i]);
      deltas[i] = FP(scale * (actual - expect * outScale));
      transformed[i] = FP(-expect * (__builtin_logf(actual + eps) - logOutScale));
    }
    return true;
  }
};

} // namespace popnn

#define POPNN_FAMILY_Loss
#include "Instantiate.hpp"
