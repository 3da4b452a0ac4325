// What each non-linearity and its gradient compute on the tile, in float (half values are
// widened on load and rounded on store): the NonLinearity vertices call these.
#pragma once

#include <popnn/NonLinearityDef.hpp>

#include <math.h>

namespace popnn::device {

#define POPNN_INLINE __attribute__((always_inline)) inline

constexpr float kGeluAlpha = 0.7978845608f; // sqrt(2 / pi)
constexpr float kGeluBeta = 0.044715f;
constexpr float kInvSqrt2 = 0.70710678118f;
constexpr float kInvSqrt2Pi = 0.39894228040f;

POPNN_INLINE float sigmoid(float x) { return 1.0f / (1.0f + __builtin_expf(-x)); }

template <NonLinearityType nl> POPNN_INLINE float forward(float x) {
  using N = NonLinearityType;
  if constexpr (nl == N::SIGMOID)
    return sigmoid(x);
  else if constexpr (nl == N::HARD_SIGMOID)
    return __builtin_fminf(1.0f, __builtin_fmaxf(0.0f, 0.2f * x + 0.5f));
  else if constexpr (nl == N::RELU)
    return x > 0.0f ? x : 0.0f;
  else if constexpr (nl == N::TANH)
    return __builtin_tanhf(x);
  else if constexpr (nl == N::GELU)
    return 0.5f * x * (1.0f + __builtin_tanhf(kGeluAlpha * x * (1.0f + kGeluBeta * x * x)));
  else if constexpr (nl == N::GELU_ERF)
    return 0.5f * x * (1.0f + ::erff(x * kInvSqrt2));
  else
    return x * sigmoid(x); // SWISH
}

/// The input gradient from the output gradient g and `act`: the forward output for SIGMOID,
/// RELU and TANH, the forward input for the others (their derivative needs the input).
template <NonLinearityType nl> POPNN_INLINE float gradient(float act, float g) {
  using N = NonLinearityType;
  if constexpr (nl == N::SIGMOID)
    return g * act * (1.0f - act);
  else if constexpr (nl == N::HARD_SIGMOID)
    return __builtin_fabsf(act) < 2.5f ? 0.2f * g : 0.0f;
  else if constexpr (nl == N::RELU)
    return act > 0.0f ? g : 0.0f;
  else if constexpr (nl == N::TANH)
    return g * (1.0f - act * act);
  else if constexpr (nl == N::GELU) {
    float x2 = act * act;
    float t = __builtin_tanhf(kGeluAlpha * act * (1.0f + kGeluBeta * x2));
    float dInner = kGeluAlpha * (1.0f + 3.0f * kGeluBeta * x2);
    return g * (0.5f * (1.0f + t) + 0.5f * act * (1.0f - t * t) * dInner);
  } else if constexpr (nl == N::GELU_ERF) {
    float cdf = 0.5f * (1.0f + ::erff(act * kInvSqrt2));
    return g * (cdf + act * kInvSqrt2Pi * __builtin_expf(-0.5f * act * act));
  } else { // SWISH
    float s = sigmoid(act);
    return g * s * (1.0f + act * (1.0f - s));
  }
}

#undef POPNN_INLINE

} // namespace popnn::device
