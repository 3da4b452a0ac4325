// The layout pass: the Poplar tensors of the source tensors (no op makes them), created in
// the layout their consumers read them best before any op is lowered.
#pragma once

#include "OpTable.hpp"

namespace popxl::internal {

/// Sets tensors[t] for every variable and constant of the Ir and every input of a graph the main
/// graph reaches through calls, except an inlined graph's (isInlined: the caller's tensors are
/// bound to those when the call is lowered, and take their consumers' layout here). Each takes the
/// layout of its first consumer (in its graph's schedule) whose op table row has a preference for
/// that input (matmul operands, conv input and weights); views (reshape, transpose, print_tensor)
/// pass their output's preference on, and calls their graph input's (the caller's tensor a clone of
/// it, or for an inlined graph the preferred tensor itself); without any, a linear mapping.
void createSourceTensors(const Ir &ir, poplar::Graph &graph, poplin::PlanningCache &planCache,
                         std::vector<poplar::Tensor> &tensors);

} // namespace popxl::internal
