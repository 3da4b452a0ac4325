// One scalar from each row of a 2-D tensor, at a run-time column index per row.
#ifndef popops_SelectScalarFromRows_hpp
#define popops_SelectScalarFromRows_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A new 1-D tensor whose element r the program sets to params[r][indices[r]]. `params` is
/// [rows, width] FLOAT or HALF (width at least 1), `indices` [rows] UNSIGNED_INT. An index of
/// MASKED_LABEL_CODE gives 0; any other index at or beyond the width gives NaN.
poplar::Tensor selectScalarFromRows(poplar::Graph &graph, const poplar::Tensor &params,
                                    const poplar::Tensor &indices, poplar::program::Sequence &prog,
                                    const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
