// Subtracting 1 from one element of each row of a 2-D tensor, at a run-time column index per row
// (the gradient of a sparse softmax cross-entropy).
#ifndef popops_UpdateScalarInRows_hpp
#define popops_UpdateScalarInRows_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// For each row r: params[r][indices[r]] -= 1, in place. `params` is [rows, width] FLOAT or HALF,
/// `indices` [rows] UNSIGNED_INT. An index of MASKED_LABEL_CODE leaves its row alone; any other
/// index at or beyond the width sets the whole row to NaN.
void updateScalarInRows(poplar::Graph &graph, const poplar::Tensor &params,
                        const poplar::Tensor &indices, poplar::program::Sequence &program,
                        const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
