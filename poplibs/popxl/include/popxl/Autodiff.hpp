// popxl::autodiff: the gradient graph of a graph, built from each op's gradient rule.
#ifndef popxl_Autodiff_hpp
#define popxl_Autodiff_hpp

#include <popxl/Ir.hpp>

#include <vector>

namespace popxl {

/// An input of a gradient graph: the value of forward tensor `fwd` (Fwd), or the gradient of it
/// (FwdGrad).
struct ExpectedConnection {
  TensorId fwd;
  bool isGrad;
};

struct GradGraphInfo {
  GraphId graph;
  GraphId forward;
  /// The gradient graph's inputs, in order: the gradients provided, then the forward values
  /// its rules need (made outputs of the forward graph when they were intermediates).
  std::vector<ExpectedConnection> expectedInputs;
  /// Its outputs: the gradients of the forward tensors required, in order.
  std::vector<ExpectedConnection> expectedOutputs;
};

/// Differentiates `forward` (not the main graph): `gradsProvided` are forward outputs whose
/// gradients the caller gives (all outputs when empty), `gradsRequired` the forward inputs
/// whose gradients the new graph returns (all inputs when empty).
GradGraphInfo autodiff(Ir &ir, GraphId forward, std::vector<TensorId> gradsProvided = {},
                       std::vector<TensorId> gradsRequired = {});

} // namespace popxl

#endif
