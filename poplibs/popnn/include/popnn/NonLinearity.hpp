// popnn non-linearities: element-wise activations and softmax over the innermost dimension,
// forward (in place or into a new tensor) and the input gradient.
#ifndef popnn_NonLinearity_hpp
#define popnn_NonLinearity_hpp

#include <popnn/NonLinearityDef.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popnn {

/// Applies `nonLinearityType` to `t` in place. Floating-point `t` (float or half) only.
void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {});

/// The same as vertices added to `cs`; the softmaxes need several steps and throw here.
void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         poplar::ComputeSet &cs, const poplar::DebugContext &debugContext = {});

/// The same, setting `nonLinearityScaling` to the factor the outputs carry (SOFTMAX_SCALING for
/// SOFTMAX_SCALED, 1 otherwise).
void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         float &nonLinearityScaling, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {});

void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         float &nonLinearityScaling, poplar::ComputeSet &cs,
                         const poplar::DebugContext &debugContext = {});

/// `nonLinearityType` of `t` in a new tensor laid out like `t`.
poplar::Tensor nonLinearity(poplar::Graph &graph, NonLinearityType nonLinearityType,
                            poplar::Tensor t, poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {});

poplar::Tensor nonLinearity(poplar::Graph &graph, NonLinearityType nonLinearityType,
                            poplar::Tensor t, float &nonLinearityScaling,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {});

// The shorthands: sigmoid(graph, t, prog), sigmoidInPlace(graph, t, prog), ...
#define DEF_NONLINEARITY_INPLACE(fn, nlType)                                                       \
  inline void fn##InPlace(poplar::Graph &graph, poplar::Tensor t, poplar::program::Sequence &prog, \
                          const poplar::DebugContext &debugContext = {}) {                         \
    nonLinearityInPlace(graph, nlType, t, prog, debugContext);                                     \
  }                                                                                                \
  inline void fn##InPlace(poplar::Graph &graph, poplar::Tensor t, float &nonLinearityScaling,      \
                          poplar::program::Sequence &prog,                                         \
                          const poplar::DebugContext &debugContext = {}) {                         \
    nonLinearityInPlace(graph, nlType, t, nonLinearityScaling, prog, debugContext);                \
  }

#define DEF_NONLINEARITY_(fn, nlType)                                                              \
  inline poplar::Tensor fn(poplar::Graph &graph, poplar::Tensor t,                                 \
                           poplar::program::Sequence &prog,                                        \
                           const poplar::DebugContext &debugContext = {}) {                        \
    return nonLinearity(graph, nlType, t, prog, debugContext);                                     \
  }                                                                                                \
  inline poplar::Tensor fn(poplar::Graph &graph, poplar::Tensor t, float &nonLinearityScaling,     \
                           poplar::program::Sequence &prog,                                        \
                           const poplar::DebugContext &debugContext = {}) {                        \
    return nonLinearity(graph, nlType, t, nonLinearityScaling, prog, debugContext);                \
  }

#define DEF_NONLINEARITY(fn, nlType)                                                               \
  DEF_NONLINEARITY_INPLACE(fn, nlType)                                                             \
  DEF_NONLINEARITY_(fn, nlType)

DEF_NONLINEARITY(sigmoid, NonLinearityType::SIGMOID)
DEF_NONLINEARITY(relu, NonLinearityType::RELU)
DEF_NONLINEARITY(tanh, NonLinearityType::TANH)
DEF_NONLINEARITY(gelu, NonLinearityType::GELU)
DEF_NONLINEARITY(softmax, NonLinearityType::SOFTMAX)
DEF_NONLINEARITY(softmaxStable, NonLinearityType::SOFTMAX_STABLE)
DEF_NONLINEARITY(scaledSoftmaxStable, NonLinearityType::SOFTMAX_SCALED)

/// The gradient at the non-linearity's input, given `outGradient` at its output. `act` is the
/// forward output for SIGMOID, RELU, TANH and the softmaxes, and the forward input for GELU,
/// GELU_ERF, SWISH and HARD_SIGMOID (whose gradients are not functions of the output).
poplar::Tensor nonLinearityInputGradient(poplar::Graph &graph, NonLinearityType nonLinearityType,
                                         poplar::Tensor act, poplar::Tensor outGradient,
                                         poplar::ComputeSet &cs,
                                         const poplar::DebugContext &debugContext = {});

poplar::Tensor nonLinearityInputGradient(poplar::Graph &graph, NonLinearityType nonLinearityType,
                                         poplar::Tensor act, poplar::Tensor outGradient,
                                         poplar::program::Sequence &prog,
                                         const poplar::DebugContext &debugContext = {});

} // namespace popnn

#endif // popnn_NonLinearity_hpp
