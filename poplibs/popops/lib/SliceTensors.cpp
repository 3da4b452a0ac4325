// The slice-tensor creators beyond the ungrouped ones (DynamicSlice.cpp): the grouped creators,
// which stack one ungrouped layout per group, a sliceable tensor built from clones of a slice, and
// the mapping of a slice.
#include <popops/DynamicSlice.hpp>

#include "SliceArgs.hpp"
#include "SliceLayout.hpp"
#include "SlicePlanInternal.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

namespace popops {

using namespace poplar;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

/// The group size a grouped creator was asked for agrees with a planned plan.
void checkGroupSize(const std::string &api, const SlicePlan &plan, std::size_t groupSize) {
  const auto &p = plan.getImpl();
  if (p.planned && p.groupSize != groupSize)
    raise<poputil::poplibs_error>(api, ": the plan is for a group size of ", p.groupSize,
                                  " but groupSize is ", groupSize);
}

/// `make(g)` for each group, stacked in a new first dimension.
template <class F> Tensor stackGroups(std::size_t groupSize, F make) {
  std::vector<Tensor> groups;
  for (std::size_t g = 0; g < groupSize; ++g)
    groups.push_back(make(g).expand({0}));
  return concat(groups);
}

} // namespace

Tensor createGroupedSliceableTensor(Graph &graph, const Type &type, const std::size_t groupSize,
                                    const std::vector<std::size_t> &shape,
                                    const std::vector<std::size_t> &dims,
                                    const std::vector<std::size_t> &sizes, const SlicePlan &plan,
                                    const OptionFlags &options, const DebugContext &debugContext) {
  const std::string api = "popops::createGroupedSliceableTensor";
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(type, groupSize, shape, dims, sizes, options));
  internal::parseSliceOptions(api, options);
  internal::checkShapeDimsAndSizes(api, shape, dims, sizes);
  internal::checkPlan(api, plan, type, shape, dims);
  checkGroupSize(api, plan, groupSize);
  if (groupSize == 0) {
    std::vector<std::size_t> full{0};
    full.insert(full.end(), shape.begin(), shape.end());
    return graph.addVariable(type, full, {di, "empty"});
  }
  Tensor t = stackGroups(groupSize, [&](std::size_t) {
    return internal::createSliceable(graph, type, shape, dims, 0, {di});
  });
  di.addOutput(t);
  return t;
}

Tensor createGroupedSliceTensor(Graph &graph, const Type &type, const std::size_t groupSize,
                                const std::vector<std::size_t> &shape,
                                const std::vector<std::size_t> &dims,
                                const std::vector<std::size_t> &sizes, const std::size_t numIndices,
                                const SlicePlan &plan, const OptionFlags &options,
                                const DebugContext &debugContext) {
  const std::string api = "popops::createGroupedSliceTensor";
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(type, groupSize, shape, dims, sizes, numIndices, options));
  checkGroupSize(api, plan, groupSize);
  if (groupSize == 0) {
    internal::checkShapeDimsAndSizes(api, shape, dims, sizes);
    std::vector<std::size_t> full{0, numIndices};
    for (unsigned d = 0; d < shape.size(); ++d) {
      auto it = std::find(dims.begin(), dims.end(), d);
      full.push_back(it == dims.end() ? shape[d] : sizes[it - dims.begin()]);
    }
    return graph.addVariable(type, full, {di, "empty"});
  }
  // Each group's slices laid out as the ungrouped creator lays them (its own checks name it).
  SlicePlan groupPlan;
  if (plan.getImpl().planned) {
    groupPlan = plan;
    groupPlan.getImpl().groupSize = 1;
  }
  Tensor s = stackGroups(groupSize, [&](std::size_t) {
    return createSliceTensor(graph, type, shape, dims, sizes, numIndices, groupPlan, options, {di});
  });
  di.addOutput(s);
  return s;
}

Tensor createGroupedIndicesTensor(Graph &graph, const std::size_t groupSize,
                                  const std::vector<std::size_t> &dims,
                                  const std::size_t numIndices, const SlicePlan &plan,
                                  const OptionFlags &options, const DebugContext &debugContext) {
  const std::string api = "popops::createGroupedIndicesTensor";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(groupSize, dims, numIndices, options));
  internal::parseSliceOptions(api, options);
  checkGroupSize(api, plan, groupSize);
  Tensor indices =
      graph.addVariable(UNSIGNED_INT, {groupSize, numIndices, dims.size()}, {di, "indices"});
  // As for createIndicesTensor: the tiles that slice read all of a group's indices.
  graph.setTileMapping(indices, 0);
  di.addOutput(indices);
  return indices;
}

Tensor createSliceableTensorFromSlice(Graph &graph, const Tensor &s,
                                      const std::vector<std::size_t> &dims,
                                      const std::vector<std::size_t> &numSlices,
                                      const DebugContext &debugContext) {
  const std::string api = "popops::createSliceableTensorFromSlice";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(s, dims, numSlices));
  internal::checkShapeDimsAndSizes(api, s.shape(), dims, std::vector<std::size_t>(dims.size(), 0));
  if (numSlices.size() != dims.size())
    raise<poputil::poplibs_error>(api, ": numSlices ", shapeText(numSlices), " and dims ",
                                  shapeText(dims), " must have the same length");
  for (auto n : numSlices)
    if (n == 0)
      raise<poputil::poplibs_error>(api, ": numSlices ", shapeText(numSlices),
                                    " must be at least 1 in each dimension");
  // Clones of the slice laid side by side in each sliced dimension: every position of the
  // sliced dimensions holds its elements where the slice holds them.
  Tensor t = graph.clone(s, {di, "sliceable"});
  for (std::size_t i = 0; i < dims.size(); ++i) {
    std::vector<Tensor> copies{t};
    for (std::size_t k = 1; k < numSlices[i]; ++k)
      copies.push_back(graph.clone(t, {di, "sliceable"}));
    t = concat(copies, unsigned(dims[i]));
  }
  di.addOutput(t);
  return t;
}

std::vector<std::vector<Interval>> getSliceMapping(Graph &graph, const Tensor &t,
                                                   const std::vector<std::size_t> &dims,
                                                   const std::vector<std::size_t> &sizes) {
  internal::checkDimsAndSizes("popops::getSliceMapping", t, dims, sizes);
  // A slice is laid out where the columns it comes from are (SliceLayout.hpp): like the slice of
  // t at offset 0.
  Tensor slice = t;
  for (std::size_t i = 0; i < dims.size(); ++i)
    slice = slice.slice(0, sizes[i], unsigned(dims[i]));
  return graph.getTileMapping(slice);
}

} // namespace popops
