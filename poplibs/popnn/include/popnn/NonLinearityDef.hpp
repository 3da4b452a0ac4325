// popnn::NonLinearityType: the activation functions popnn applies. Device code (the NonLinearity
// vertices' template argument) reads this header too, so it includes nothing.
#ifndef popnn_NonLinearityDef_hpp
#define popnn_NonLinearityDef_hpp

namespace popnn {

/// SIGMOID 1/(1+e^-x); HARD_SIGMOID max(0, min(1, 0.2x + 0.5)); RELU max(0, x); TANH; GELU the
/// tanh approximation 0.5x(1 + tanh(0.7978845608 x (1 + 0.044715 x^2))); GELU_ERF the exact
/// 0.5x(1 + erf(x / sqrt 2)); SWISH x sigmoid(x); the softmaxes over the innermost dimension:
/// SOFTMAX plain, SOFTMAX_STABLE with the row maximum subtracted first, SOFTMAX_SCALED stable and
/// multiplied by SOFTMAX_SCALING.
enum class NonLinearityType {
  SIGMOID,
  HARD_SIGMOID,
  RELU,
  TANH,
  GELU,
  GELU_ERF,
  SWISH,
  SOFTMAX,
  SOFTMAX_STABLE,
  SOFTMAX_SCALED
};

} // namespace popnn

/// The factor SOFTMAX_SCALED multiplies its outputs by, so that small probabilities keep their
/// precision in half.
#define SOFTMAX_SCALING 62000

#endif // popnn_NonLinearityDef_hpp
