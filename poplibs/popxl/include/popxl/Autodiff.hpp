// popxl::autodiff: the gradient graph of a graph, built from each op's gradient rule.
#ifndef popxl_Autodiff_hpp
#define popxl_Autodiff_hpp

#include <popxl/Ir.hpp>

#include <map>
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

/// Gradient graphs by the forward graph they differentiate.
using GradGraphInfos = std::map<GraphId, GradGraphInfo>;

/// Differentiates `forward` (not the main graph): `gradsProvided` are forward outputs whose
/// gradients the caller gives (all outputs when empty), `gradsRequired` the forward inputs
/// whose gradients the new graph returns (all inputs when empty). A graph it calls is
/// differentiated too, once (for all its floating-point inputs and outputs, a gradient of zero
/// given for an output that has none at a call site), and its gradient graph called from the
/// new one; `calledGraphsGradInfo` gives gradient graphs to use instead for some called graphs.
GradGraphInfo autodiff(Ir &ir, GraphId forward, std::vector<TensorId> gradsProvided = {},
                       std::vector<TensorId> gradsRequired = {},
                       const GradGraphInfos &calledGraphsGradInfo = {});

/// As autodiff, returning every gradient graph it made or used: `forward`'s and those of the
/// graphs it calls, directly or not.
GradGraphInfos autodiffAll(Ir &ir, GraphId forward, std::vector<TensorId> gradsProvided = {},
                           std::vector<TensorId> gradsRequired = {},
                           const GradGraphInfos &calledGraphsGradInfo = {});

} // namespace popxl

#endif
