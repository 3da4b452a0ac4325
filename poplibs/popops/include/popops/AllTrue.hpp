// The logical AND of every element of a BOOL tensor.
#ifndef popops_AllTrue_hpp
#define popops_AllTrue_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A new BOOL scalar that the program sets to whether every element of `A` (BOOL) is true (true
/// for an empty A). Throws poputil::poplibs_error if A is not BOOL.
poplar::Tensor allTrue(poplar::Graph &graph, poplar::Tensor A, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
