// Whether a float or half tensor holds a NaN (hasNaN), or a NaN or an infinity (hasNaNOrInf).
#ifndef popops_NaN_hpp
#define popops_NaN_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A new BOOL scalar that the program sets to whether any element of `src` (FLOAT or HALF, any
/// shape) is a NaN; false for an empty src.
poplar::Tensor hasNaN(poplar::Graph &graph, const poplar::Tensor &src,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});

/// The same for a NaN or an infinity of either sign.
poplar::Tensor hasNaNOrInf(poplar::Graph &graph, const poplar::Tensor &src,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
