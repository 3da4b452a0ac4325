// Copying runs of rows between two tensors at run-time offsets and lengths (sequenceSlice).
#ifndef popops_SequenceSlice_hpp
#define popops_SequenceSlice_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// For each entry k of the 1-D UNSIGNED_INT tensors tN, tInOffset and tOutOffset (one size):
/// tOut[tOutOffset[k] : tOutOffset[k] + tN[k]] = tIn[tInOffset[k] : tInOffset[k] + tN[k]] along
/// the outermost dimension, rows beyond either tensor not copied. tIn and tOut have rank 2 or
/// more, one element type and the same number of elements per row. With zeroUnused, the rows of
/// tOut that no entry writes become zeros. No two entries should write one row.
void sequenceSlice(poplar::Graph &graph, const poplar::Tensor &tIn, const poplar::Tensor &tOut,
                   const poplar::Tensor &tN, const poplar::Tensor &tInOffset,
                   const poplar::Tensor &tOutOffset, bool zeroUnused,
                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
