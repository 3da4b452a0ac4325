// gather along one axis: a multiSlice of the axis at the flattened indices, the slices then
// viewed in gather's output shape.
#include <popops/Gather.hpp>

#include <popops/DynamicSlice.hpp>

#include "SliceArgs.hpp"
#include "SlicePlanInternal.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;
using popsdk::support::raise;
using popsdk::support::shapeText;

Tensor createGatherInput(Graph &graph, const Type &type,
                         const std::vector<std::size_t> &operandShape, unsigned axis,
                         GatherParams params, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, operandShape, axis));
  (void)params;
  if (axis >= operandShape.size())
    raise<poputil::poplibs_error>("popops::createGatherInput: axis ", axis,
                                  " is not a dimension of shape ", shapeText(operandShape));
  Tensor t = createSliceableTensor(graph, type, operandShape, {axis}, {1}, 0, {di});
  di.addOutput(t);
  return t;
}

Tensor gather(Graph &graph, const Tensor &input, const Tensor &indices, unsigned axis,
              program::Sequence &prog, GatherParams params, const DebugContext &debugContext,
              const OptionFlags &optionFlags) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, indices, axis, optionFlags));
  (void)params;
  if (axis >= input.rank())
    raise<poputil::poplibs_error>("popops::gather: axis ", axis, " is not a dimension of input ",
                                  shapeText(input.shape()));
  internal::checkIndexType("popops::gather", "indices", indices);
  internal::parseSliceOptions("popops::gather", optionFlags); // named here, not by multiSlice
  // [M, input with axis of size 1] -> [M, input without axis] -> [indices..., input w/o axis].
  Tensor slices = multiSlice(graph, input, indices.flatten().expand({1}), {axis}, {1}, prog,
                             SlicePlan(), optionFlags, {di});
  std::vector<std::size_t> shape = indices.shape();
  for (unsigned d = 0; d < input.rank(); ++d)
    if (d != axis)
      shape.push_back(input.dim(d));
  Tensor out = slices.squeeze({axis + 1}).reshape(shape);
  // Move the dimensions of input before the axis in front of the index dimensions.
  const unsigned r = indices.rank();
  std::vector<unsigned> perm;
  for (unsigned d = 0; d < axis; ++d)
    perm.push_back(r + d);
  for (unsigned d = 0; d < r; ++d)
    perm.push_back(d);
  for (unsigned d = r + axis; d < out.rank(); ++d)
    perm.push_back(d);
  out = out.dimShuffle(perm);
  di.addOutput(out);
  return out;
}

} // namespace popops
