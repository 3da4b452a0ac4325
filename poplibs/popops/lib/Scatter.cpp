// scatter: one dynamicUpdate per scatter index (the windows in index order), its offset tensor
// assembled from that index's components and zeros; with an update computation, the current
// window is read with dynamicSlice first.
#include <popops/Scatter.hpp>

#include <popops/DynamicSlice.hpp>

#include "SliceArgs.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

namespace popops {

using namespace poplar;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

const char *const api = "popops::scatter";

template <class T> bool contains(const std::vector<T> &v, std::size_t x) {
  return std::find(v.begin(), v.end(), T(x)) != v.end();
}

void scatterImpl(Graph &graph, const Tensor &operand, const Tensor &indices, const Tensor &updates,
                 std::size_t indexVectorDim, const std::vector<unsigned> &updateWindowDims,
                 const std::vector<std::size_t> &insertWindowDims,
                 const std::vector<unsigned> &scatterDimsToOperandDims,
                 UpdateComputationFunc *combine, program::Sequence &prog, const DebugContext &dc) {
  internal::checkIndexType(api, "indices", indices);
  if (updates.elementType() != operand.elementType())
    raise<poputil::poplibs_error>(api, ": updates have type ", updates.elementType(),
                                  " but the operand is ", operand.elementType());
  const std::size_t rank = operand.rank();
  if (indexVectorDim > indices.rank())
    raise<poputil::poplibs_error>(api, ": indexVectorDim ", indexVectorDim,
                                  " is beyond the indices' rank (", indices.rank(), ")");
  // The indices as [numScatter, components].
  Tensor idx = indexVectorDim == indices.rank() ? indices.expand({indices.rank()}) : indices;
  const std::size_t components = idx.dim(indexVectorDim);
  idx = idx.dimRoll(indexVectorDim, idx.rank() - 1);
  std::vector<std::size_t> batchShape = idx.shape();
  batchShape.pop_back();
  std::size_t numScatter = 1;
  for (auto d : batchShape)
    numScatter *= d;
  idx = idx.reshape({numScatter, components});
  if (scatterDimsToOperandDims.size() != components)
    raise<poputil::poplibs_error>(api, ": scatterDimsToOperandDims ",
                                  shapeText(scatterDimsToOperandDims), " has ",
                                  scatterDimsToOperandDims.size(), " entries but the indices have ",
                                  components, " components");
  for (unsigned d : scatterDimsToOperandDims)
    if (d >= rank ||
        std::count(scatterDimsToOperandDims.begin(), scatterDimsToOperandDims.end(), d) != 1)
      raise<poputil::poplibs_error>(
          api, ": scatterDimsToOperandDims ", shapeText(scatterDimsToOperandDims),
          " must name distinct dimensions of the operand ", shapeText(operand.shape()));
  if (updateWindowDims.size() + insertWindowDims.size() != rank)
    raise<poputil::poplibs_error>(api, ": ", updateWindowDims.size(), " update window dims and ",
                                  insertWindowDims.size(), " inserted window dims do not make ",
                                  "the operand's rank ", rank);
  for (auto d : insertWindowDims)
    if (d >= rank)
      raise<poputil::poplibs_error>(api, ": inserted window dimension ", d,
                                    " is not a dimension of the operand ",
                                    shapeText(operand.shape()));
  // updates as [scatter dims..., window dims...]; the scatter dims must match the indices' batch.
  std::vector<unsigned> perm, windowDims(updateWindowDims.begin(), updateWindowDims.end());
  for (unsigned d = 0; d < updates.rank(); ++d)
    if (!contains(updateWindowDims, d))
      perm.push_back(d);
  std::vector<std::size_t> scatterShape;
  for (unsigned d : perm)
    scatterShape.push_back(updates.dim(d));
  for (unsigned d : windowDims)
    if (d >= updates.rank())
      raise<poputil::poplibs_error>(api, ": update window dimension ", d,
                                    " is not a dimension of updates ", shapeText(updates.shape()));
  if (scatterShape != batchShape)
    raise<poputil::poplibs_error>(api, ": updates ", shapeText(updates.shape()),
                                  " have scatter dimensions ", shapeText(scatterShape),
                                  " but the indices' batch shape is ", shapeText(batchShape));
  perm.insert(perm.end(), windowDims.begin(), windowDims.end());
  // The window in the operand's rank: size 1 at the inserted dims.
  std::vector<std::size_t> window;
  for (std::size_t d = 0, w = 0; d < rank; ++d)
    window.push_back(contains(insertWindowDims, d) ? 1 : updates.dim(windowDims[w++]));
  for (std::size_t d = 0; d < rank; ++d)
    if (window[d] > operand.dim(d))
      raise<poputil::poplibs_error>(api, ": the window ", shapeText(window),
                                    " is larger than the operand ", shapeText(operand.shape()));
  Tensor windows = updates.dimShuffle(perm).reshape([&] {
    std::vector<std::size_t> s{numScatter};
    s.insert(s.end(), window.begin(), window.end());
    return s;
  }());
  // Slice only where the window is narrower than the operand or an index lands.
  std::vector<std::size_t> dims, sizes;
  for (std::size_t d = 0; d < rank; ++d)
    if (window[d] < operand.dim(d) || contains(scatterDimsToOperandDims, d)) {
      dims.push_back(d);
      sizes.push_back(window[d]);
    }
  if (numScatter == 0 || operand.numElements() == 0 || dims.empty())
    return;
  Tensor zero = graph.addConstant(indices.elementType(), {1}, 0, {dc, "zero"});
  graph.setTileMapping(zero, 0);
  for (std::size_t i = 0; i < numScatter; ++i) {
    std::vector<Tensor> offset;
    for (auto d : dims) {
      auto k = std::find(scatterDimsToOperandDims.begin(), scatterDimsToOperandDims.end(), d) -
               scatterDimsToOperandDims.begin();
      offset.push_back(k < std::ptrdiff_t(components) ? idx[i].slice(k, k + 1) : zero);
    }
    Tensor off = concat(offset);
    Tensor update = windows[i];
    if (combine) {
      Tensor current = dynamicSlice(graph, operand, off, dims, sizes, prog, {dc, "current"});
      update = (*combine)(graph, current, update, prog);
      if (update.shape() != window || update.elementType() != operand.elementType())
        raise<poputil::poplibs_error>(api, ": the update computation returned ",
                                      update.elementType(), shapeText(update.shape()), " for a ",
                                      operand.elementType(), shapeText(window), " window");
    }
    dynamicUpdate(graph, operand, update, off, dims, sizes, prog, {dc, "update"});
  }
}

} // namespace

void scatter(Graph &graph, const Tensor &operand, const Tensor &indices, const Tensor &updates,
             std::size_t indexVectorDim, std::vector<unsigned> updateWindowDims,
             std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims, program::Sequence &prog,
             const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(operand, indices, updates, indexVectorDim,
                                                       updateWindowDims, insertWindowDims,
                                                       scatterDimsToOperandDims));
  scatterImpl(graph, operand, indices, updates, indexVectorDim, updateWindowDims, insertWindowDims,
              scatterDimsToOperandDims, nullptr, prog, {di});
}

void scatter(Graph &graph, const Tensor &operand, const Tensor &indices, const Tensor &updates,
             std::size_t indexVectorDim, std::vector<unsigned> updateWindowDims,
             std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims,
             UpdateComputationFunc &updateComputation, program::Sequence &prog,
             const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(operand, indices, updates, indexVectorDim,
                                                       updateWindowDims, insertWindowDims,
                                                       scatterDimsToOperandDims));
  scatterImpl(graph, operand, indices, updates, indexVectorDim, updateWindowDims, insertWindowDims,
              scatterDimsToOperandDims, &updateComputation, prog, {di});
}

} // namespace popops
