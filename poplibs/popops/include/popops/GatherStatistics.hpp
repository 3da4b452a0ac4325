// Histograms of a tensor's values against a tensor of levels.
#ifndef popops_GatherStatistics_hpp
#define popops_GatherStatistics_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A new 1-D tensor of levels.numElements() + 1 counts: entry k counts the elements x of `input`
/// (|x| with absoluteOfInput) with levels[k-1] <= x < levels[k], the first entry having no lower
/// bound and the last no upper one (a NaN counts in the last). `input` is FLOAT or HALF and
/// `levels` 1-D of its type, in ascending order. The counts are UNSIGNED_INT, or FLOAT with the
/// option `useFloatArithmetic` = true (exact up to 2^24).
poplar::Tensor histogram(poplar::Graph &graph, const poplar::Tensor &input,
                         const poplar::Tensor &levels, bool absoluteOfInput,
                         poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {});

/// The same counts written to `output` (FLOAT or UNSIGNED_INT, levels.numElements() + 1
/// elements), or added to it with updateOutput.
void histogram(poplar::Graph &graph, const poplar::Tensor &input, poplar::Tensor &output,
               bool updateOutput, const poplar::Tensor &levels, bool absoluteOfInput,
               poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
