// XLA's gather as one multiSlice: the input viewed as [positions of the indexed dimensions,
// the rest] (the other dimensions first cut to their window, which always starts at 0); each index
// vector, clamped so its window fits, becomes the linear positions of its window's rows, computed
// on the device; the slices are then viewed in XLA's output order.
#include <popops/Gather.hpp>

#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>

#include "SliceArgs.hpp"
#include "SlicePlanInternal.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

const char *const api = "popops::gather";

struct GatherArgs {
  std::vector<std::size_t> batchShape; // indices' shape without indexVectorDim
  std::vector<std::size_t> outShape;
};

void checkDimList(const std::string &name, const std::vector<std::size_t> &dims, std::size_t rank,
                  const std::string &of) {
  std::vector<bool> seen(rank);
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] >= rank)
      raise<poputil::poplibs_error>(api, ": ", name, " ", shapeText(dims), " names dimension ",
                                    dims[i], " but ", of, " has rank ", rank);
    if (seen[dims[i]] || (i && dims[i] < dims[i - 1]))
      raise<poputil::poplibs_error>(api, ": ", name, " ", shapeText(dims),
                                    " must be distinct and in increasing order");
    seen[dims[i]] = true;
  }
}

GatherArgs checkGather(const Tensor &input, const Tensor &indices, std::size_t indexVectorDim,
                       const std::vector<std::size_t> &offsetDims,
                       const std::vector<std::size_t> &sliceSizes,
                       const std::vector<std::size_t> &collapsedSliceDims,
                       const std::vector<unsigned> &startIndexMap) {
  internal::checkIndexType(api, "indices", indices);
  if (indexVectorDim > indices.rank())
    raise<poputil::poplibs_error>(api, ": indexVectorDim ", indexVectorDim,
                                  " is beyond the rank of indices ", shapeText(indices.shape()));
  const std::size_t vectorSize = indexVectorDim < indices.rank() ? indices.dim(indexVectorDim) : 1;
  if (vectorSize != startIndexMap.size())
    raise<poputil::poplibs_error>(
        api, ": indices ", shapeText(indices.shape()), " hold index vectors of ", vectorSize,
        " components but startIndexMap ", shapeText(startIndexMap), " maps ", startIndexMap.size());
  const std::size_t rank = input.rank();
  if (sliceSizes.size() != rank)
    raise<poputil::poplibs_error>(api, ": sliceSizes ", shapeText(sliceSizes),
                                  " must have one entry per dimension of input ",
                                  shapeText(input.shape()));
  for (std::size_t d = 0; d < rank; ++d)
    if (sliceSizes[d] > input.dim(d))
      raise<poputil::poplibs_error>(api, ": slice size ", sliceSizes[d], " in dimension ", d,
                                    " is larger than the dimension of input ",
                                    shapeText(input.shape()));
  std::vector<std::size_t> mapDims(startIndexMap.begin(), startIndexMap.end());
  std::sort(mapDims.begin(), mapDims.end());
  if (std::adjacent_find(mapDims.begin(), mapDims.end()) != mapDims.end() ||
      (!mapDims.empty() && mapDims.back() >= rank))
    raise<poputil::poplibs_error>(api, ": startIndexMap ", shapeText(startIndexMap),
                                  " must name distinct dimensions of input ",
                                  shapeText(input.shape()));
  checkDimList("collapsedSliceDims", collapsedSliceDims, rank, "input");
  for (auto d : collapsedSliceDims)
    if (sliceSizes[d] != 1)
      raise<poputil::poplibs_error>(api, ": collapsed dimension ", d, " has slice size ",
                                    sliceSizes[d], " but must have slice size 1");
  GatherArgs a;
  for (std::size_t d = 0; d < indices.rank(); ++d)
    if (d != indexVectorDim)
      a.batchShape.push_back(indices.dim(d));
  const std::size_t offsetCount = rank - collapsedSliceDims.size();
  const std::size_t outRank = a.batchShape.size() + offsetCount;
  if (offsetDims.size() != offsetCount)
    raise<poputil::poplibs_error>(api, ": offsetDims ", shapeText(offsetDims), " has ",
                                  offsetDims.size(), " entries but the windows keep ", offsetCount,
                                  " dimensions");
  checkDimList("offsetDims", offsetDims, outRank, "the output");
  std::vector<std::size_t> windowShape;
  for (std::size_t d = 0; d < rank; ++d)
    if (!std::count(collapsedSliceDims.begin(), collapsedSliceDims.end(), d))
      windowShape.push_back(sliceSizes[d]);
  for (std::size_t i = 0, b = 0, o = 0; i < outRank; ++i)
    a.outShape.push_back(o < offsetDims.size() && offsetDims[o] == i ? windowShape[o++]
                                                                     : a.batchShape[b++]);
  return a;
}

Tensor constant(Graph &graph, const std::vector<unsigned> &values, const DebugContext &dc) {
  Tensor c = graph.addConstant(UNSIGNED_INT, {values.size()}, ArrayRef<unsigned>(values), dc);
  graph.setTileMapping(c, 0);
  return c;
}

} // namespace

Tensor createGatherInput(Graph &graph, const Type &type, const std::vector<std::size_t> &inputShape,
                         const std::vector<std::size_t> &sliceSizes,
                         std::vector<unsigned> startIndexMap, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(type, inputShape, sliceSizes, startIndexMap));
  std::vector<std::size_t> dims(startIndexMap.begin(), startIndexMap.end()), sizes;
  if (sliceSizes.size() != inputShape.size())
    raise<poputil::poplibs_error>("popops::createGatherInput: sliceSizes ", shapeText(sliceSizes),
                                  " must have one entry per dimension of ", shapeText(inputShape));
  for (auto d : dims)
    sizes.push_back(d < sliceSizes.size() ? sliceSizes[d] : 0);
  Tensor t = createSliceableTensor(graph, type, inputShape, dims, sizes, 0, {di});
  di.addOutput(t);
  return t;
}

Tensor gather(Graph &graph, const Tensor &input, const Tensor &indices, std::size_t indexVectorDim,
              const std::vector<std::size_t> &offsetDims,
              const std::vector<std::size_t> &sliceSizes,
              const std::vector<std::size_t> &collapsedSliceDims,
              const std::vector<unsigned> &startIndexMap, Sequence &prog,
              const DebugContext &debugContext, const OptionFlags &optionFlags) {
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(input, indices, indexVectorDim, offsetDims, sliceSizes,
                                         collapsedSliceDims, startIndexMap, optionFlags));
  internal::parseSliceOptions(api, optionFlags); // named here, not by the multiSlice below
  const auto a = checkGather(input, indices, indexVectorDim, offsetDims, sliceSizes,
                             collapsedSliceDims, startIndexMap);
  const std::size_t rank = input.rank(), K = startIndexMap.size();
  std::size_t outElements = 1;
  for (auto d : a.outShape)
    outElements *= d;
  if (outElements == 0) {
    Tensor out = graph.addVariable(input.elementType(), a.outShape, {di, "empty"});
    di.addOutput(out);
    return out;
  }
  // The input as [indexed positions, rest]: indexed dimensions first (in startIndexMap order),
  // the others after, cut to their windows.
  std::vector<unsigned> order(startIndexMap.begin(), startIndexMap.end());
  Tensor view = input;
  for (unsigned d = 0; d < rank; ++d)
    if (!std::count(order.begin(), order.end(), d)) {
      order.push_back(d);
      view = view.slice(0, sliceSizes[d], d);
    }
  view = view.dimShuffle(order);
  std::size_t positions = 1;
  for (std::size_t k = 0; k < K; ++k)
    positions *= view.dim(k);
  std::vector<std::size_t> rows{positions};
  for (std::size_t d = K; d < rank; ++d)
    rows.push_back(view.dim(d));
  view = view.reshape(rows);

  // Host tables: each indexed dimension's stride in the positions, its largest start, and the
  // linear offsets of a window's rows from its start.
  std::vector<unsigned> strides(K), limits(K), windowOffsets{0};
  for (std::size_t k = K; k-- > 0;) {
    const unsigned dim = startIndexMap[k];
    strides[k] = k + 1 == K ? 1 : strides[k + 1] * unsigned(input.dim(startIndexMap[k + 1]));
    limits[k] = unsigned(input.dim(dim) - sliceSizes[dim]);
  }
  for (std::size_t k = 0; k < K; ++k) {
    std::vector<unsigned> next;
    for (unsigned base : windowOffsets)
      for (unsigned w = 0; w < sliceSizes[startIndexMap[k]]; ++w)
        next.push_back(base + w * strides[k]);
    windowOffsets = next;
  }
  std::size_t batch = 1;
  for (auto d : a.batchShape)
    batch *= d;
  const std::size_t window = windowOffsets.size();

  // Device: starts clamped into [0, limit], folded into one position per index vector, plus
  // each row of the window.
  Tensor starts;
  if (K == 0) {
    starts = graph.addConstant(UNSIGNED_INT, {batch, 1}, 0u, {di, "starts"});
    graph.setTileMapping(starts, 0);
  } else {
    Tensor vectors = indexVectorDim < indices.rank()
                         ? indices.dimRoll(indexVectorDim, indices.rank() - 1)
                         : indices.expand({indices.rank()});
    vectors = vectors.reshape({batch, K});
    if (vectors.elementType() == INT)
      vectors = map(graph, expr::Cast(expr::Max(expr::_1, expr::Const(0)), UNSIGNED_INT), {vectors},
                    prog, {di, "nonNegative"});
    Tensor scaled = map(graph, expr::Mul(expr::Min(expr::_1, expr::_2), expr::_3),
                        {vectors, constant(graph, limits, {di, "limits"}).expand({0}),
                         constant(graph, strides, {di, "strides"}).expand({0})},
                        prog, {di, "clamp"});
    starts = reduce(graph, scaled, UNSIGNED_INT, {1}, {Operation::ADD}, prog, {di, "starts"})
                 .expand({1});
  }
  Tensor offsets = add(graph, starts, constant(graph, windowOffsets, {di, "window"}).expand({0}),
                       prog, {di, "offsets"});
  Tensor slices = multiSlice(graph, view, offsets.reshape({batch * window, 1}), {0}, {1}, prog,
                             SlicePlan(), optionFlags, {di});

  // [batch, window dims (startIndexMap order), other dims] -> dims in input order, collapsed ones
  // dropped -> [batch shape, window shape] -> XLA's order.
  std::vector<std::size_t> shape{batch};
  for (unsigned d : order)
    shape.push_back(sliceSizes[d]);
  Tensor out = slices.reshape(shape);
  std::vector<unsigned> toInput{0};
  for (unsigned d = 0; d < rank; ++d)
    toInput.push_back(1 + unsigned(std::find(order.begin(), order.end(), d) - order.begin()));
  out = out.dimShuffle(toInput);
  std::vector<std::size_t> squeezed;
  for (auto d : collapsedSliceDims)
    squeezed.push_back(d + 1);
  out = out.squeeze(squeezed);
  std::vector<std::size_t> split = a.batchShape;
  for (std::size_t d = 1; d < out.rank(); ++d)
    split.push_back(out.dim(d));
  out = out.reshape(split);
  const std::size_t batchRank = a.batchShape.size();
  std::vector<unsigned> perm;
  for (std::size_t i = 0, b = 0, o = 0; i < a.outShape.size(); ++i)
    perm.push_back(o < offsetDims.size() && offsetDims[o] == i ? unsigned(batchRank + o++)
                                                               : unsigned(b++));
  out = out.dimShuffle(perm);
  di.addOutput(out);
  return out;
}

} // namespace popops
