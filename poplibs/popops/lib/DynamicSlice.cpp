// dynamicSlice / dynamicUpdate (one run-time offset per sliced dimension) and the slice-tensor
// creators. Each sliced dimension is one compute set: the tensor is viewed as [rows, columns]
// (SliceLayout.hpp) and every tile copies the rows the offset selects for its columns with a
// DynamicSlice1D (one column interval) or DynamicSlice2D (several) vertex.
#include <popops/DynamicSlice.hpp>

#include "SliceArgs.hpp"
#include "SliceCycles.hpp"
#include "SliceLayout.hpp"
#include "SlicePlanInternal.hpp"
#include "popops/SliceIndex.hpp"
#include "support/Raise.hpp"

#include <poplar/Program.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <numeric>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

/// Which of the dimensions to slice first: the one that keeps the smallest fraction of the
/// tensor, so later slices move less data.
std::vector<std::size_t> bestSliceOrder(const std::vector<std::size_t> &shape,
                                        const std::vector<std::size_t> &dims,
                                        const std::vector<std::size_t> &sizes) {
  std::vector<std::size_t> order(dims.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return sizes[a] * shape[dims[b]] < sizes[b] * shape[dims[a]];
  });
  return order;
}

void setEstimate(Graph &graph, VertexRef v, internal::CycleEstimator estimator, const Type &type,
                 std::vector<unsigned> regions, unsigned slices) {
  internal::VertexCost cost{graph.getTarget(), -1, type, type, std::move(regions), slices};
  graph.setPerfEstimate(v, estimator(cost));
}

/// The vertices of one dynamic slice (update = false) or update of one dimension: `base2d`
/// [numBase, columns] and `sub2d` [numSub, columns], rows (offset + k) mod numBase of base
/// corresponding to rows k of sub.
void addSliceVertices(Graph &graph, ComputeSet cs, const Tensor &offset, const Tensor &base2d,
                      const Tensor &sub2d, const std::vector<internal::ColumnGroup> &groups,
                      unsigned flags, bool update) {
  const Type type = base2d.elementType();
  const unsigned numBase = base2d.dim(0), numSub = sub2d.dim(0);
  const std::string prefix = update ? "popops::DynamicUpdateSlice" : "popops::DynamicSlice";
  const std::string baseField = "baseT", subField = "subT";
  for (const auto &g : groups) {
    const auto columns = internal::workerSplitColumns(graph.getTarget(), g.columns, type);
    if (columns.size() == 1) {
      const auto &c = columns[0];
      auto v = graph.addVertex(cs, poputil::templateVertex(prefix + "1D", type),
                               {{"offset", offset},
                                {baseField, internal::rowsOf(base2d, c)},
                                {subField, internal::rowsOf(sub2d, c)}});
      graph.setInitialValue(v["numBaseElements"], numBase | flags);
      graph.setInitialValue(v["numSubElements"], numSub);
      graph.setInitialValue(v["regionSize"], unsigned(c.size()));
      graph.setTileMapping(v, g.tile);
      setEstimate(graph, v,
                  update ? internal::dynamicUpdateSlice1DCycles : internal::dynamicSlice1DCycles,
                  type, {unsigned(c.size())}, numSub);
      continue;
    }
    // Several intervals: up to one single-worker vertex per worker context.
    unsigned grain = std::max(1u, graph.getTarget().getVectorWidth(type));
    for (const auto &part :
         poputil::splitRegionsBetweenWorkers(graph.getTarget(), columns, grain, 2 * grain)) {
      std::vector<Tensor> base, sub;
      std::vector<unsigned> sizes;
      for (const auto &c : part) {
        for (unsigned r = 0; r < numBase; ++r)
          base.push_back(base2d[r].slice(c.begin(), c.end()));
        for (unsigned k = 0; k < numSub; ++k)
          sub.push_back(sub2d[k].slice(c.begin(), c.end()));
        sizes.push_back(c.size());
      }
      auto v = graph.addVertex(cs, poputil::templateVertex(prefix + "2D", type));
      graph.connect(v["offset"], offset);
      graph.connect(v[baseField], base);
      graph.connect(v[subField], sub);
      graph.setInitialValue(v["numBaseElements"], numBase | flags);
      graph.setInitialValue(v["numSubElements"], numSub);
      graph.setInitialValue(v["numRegions"], unsigned(part.size()));
      graph.setTileMapping(v, g.tile);
      setEstimate(graph, v,
                  update ? internal::dynamicUpdateSlice2DCycles : internal::dynamicSlice2DCycles,
                  type, std::move(sizes), numSub);
    }
  }
}

/// `t` sliced at `offset` (a scalar) in `dim` to `size` elements, into `out` if it is valid
/// (else into a new tensor laid out by t's column groups, which is returned).
Tensor sliceDim(Graph &graph, const Tensor &t, const Tensor &offset, unsigned dim, std::size_t size,
                Tensor out, Sequence &prog, unsigned flags, const DebugContext &dc) {
  Tensor t2d = internal::as2D(t, dim);
  auto groups = internal::sliceColumns(graph, t2d);
  auto shape = t.shape();
  shape[dim] = size;
  Tensor s2d;
  if (out.valid()) {
    s2d = internal::as2D(out, dim);
  } else {
    s2d =
        internal::createByColumns(graph, t.elementType(), size, t2d.dim(1), groups, {dc, "slice"});
    out = internal::from2D(s2d, shape, dim);
  }
  auto cs = graph.addComputeSet({dc, "dynamicSlice/d" + std::to_string(dim)});
  addSliceVertices(graph, cs, offset, t2d, s2d, groups, flags, false);
  prog.add(Execute(cs));
  return out;
}

void updateDim(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offset, unsigned dim,
               Sequence &prog, unsigned flags, const DebugContext &dc) {
  Tensor t2d = internal::as2D(t, dim);
  auto groups = internal::sliceColumns(graph, t2d);
  auto cs = graph.addComputeSet({dc, "dynamicUpdate/d" + std::to_string(dim)});
  addSliceVertices(graph, cs, offset, t2d, internal::as2D(s, dim), groups, flags, true);
  prog.add(Execute(cs));
}

std::vector<std::size_t> slicedShape(const Tensor &t, const std::vector<std::size_t> &dims,
                                     const std::vector<std::size_t> &sizes) {
  auto shape = t.shape();
  for (std::size_t i = 0; i < dims.size(); ++i)
    shape[dims[i]] = sizes[i];
  return shape;
}

bool isEmpty(const std::vector<std::size_t> &shape) {
  return std::find(shape.begin(), shape.end(), 0u) != shape.end();
}

/// dynamicSlice into `out` (invalid: a new tensor), checked by the caller.
Tensor dynamicSliceImpl(Graph &graph, Tensor out, const Tensor &t, const Tensor &offset,
                        const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                        Sequence &prog, const internal::SliceOptions &opts,
                        const DebugContext &dc) {
  auto shape = slicedShape(t, dims, sizes);
  if (isEmpty(shape))
    return out.valid() ? out : graph.addVariable(t.elementType(), shape, {dc, "empty"});
  if (dims.empty()) {
    if (!out.valid())
      return t;
    prog.add(Copy(t, out));
    return out;
  }
  Tensor offsets = internal::unsignedIndices(graph, offset, prog, dc);
  auto order = bestSliceOrder(t.shape(), dims, sizes);
  Tensor cur = t;
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::size_t k = order[i];
    bool last = i + 1 == order.size();
    cur = sliceDim(graph, cur, offsets[k], dims[k], sizes[k], last ? out : Tensor(), prog,
                   opts.indexFlags(), dc);
  }
  return cur;
}

} // namespace

Tensor dynamicSlice(Graph &graph, const Tensor &t, const Tensor &offset,
                    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                    Sequence &prog, const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, offset, dims, sizes, options));
  auto opts = internal::parseSliceOptions("popops::dynamicSlice", options);
  internal::checkDynamicSliceArgs("popops::dynamicSlice", t, offset, dims, sizes);
  Tensor out = dynamicSliceImpl(graph, Tensor(), t, offset, dims, sizes, prog, opts, {di});
  di.addOutput(out);
  return out;
}

void dynamicSliceWithOutput(Graph &graph, const Tensor &output, const Tensor &t,
                            const Tensor &offset, const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes, Sequence &prog,
                            const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(output, t, offset, dims, sizes, options));
  auto opts = internal::parseSliceOptions("popops::dynamicSliceWithOutput", options);
  internal::checkDynamicSliceArgs("popops::dynamicSliceWithOutput", t, offset, dims, sizes);
  internal::checkShapeAndType("popops::dynamicSliceWithOutput", "output", output, t.elementType(),
                              slicedShape(t, dims, sizes));
  dynamicSliceImpl(graph, output, t, offset, dims, sizes, prog, opts, {di});
}

void dynamicUpdate(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offset,
                   const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                   Sequence &prog, const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offset, dims, sizes, options));
  auto opts = internal::parseSliceOptions("popops::dynamicUpdate", options);
  internal::checkDynamicSliceArgs("popops::dynamicUpdate", t, offset, dims, sizes);
  internal::checkShapeAndType("popops::dynamicUpdate", "s", s, t.elementType(),
                              slicedShape(t, dims, sizes));
  if (isEmpty(s.shape()))
    return;
  if (dims.empty()) {
    prog.add(Copy(s, t));
    return;
  }
  Tensor offsets = internal::unsignedIndices(graph, offset, prog, {di});
  // Slice down every dimension but the last in order, update the last with s, then write each
  // partial slice back into the one it came from.
  auto order = bestSliceOrder(t.shape(), dims, sizes);
  std::vector<Tensor> reduced{t};
  for (std::size_t i = 0; i + 1 < order.size(); ++i) {
    std::size_t k = order[i];
    reduced.push_back(sliceDim(graph, reduced.back(), offsets[k], dims[k], sizes[k], Tensor(), prog,
                               opts.indexFlags(), {di}));
  }
  reduced.push_back(s);
  for (std::size_t i = order.size(); i-- > 0;) {
    std::size_t k = order[i];
    updateDim(graph, reduced[i], reduced[i + 1], offsets[k], dims[k], prog, opts.indexFlags(),
              {di});
  }
}

Tensor createSliceableTensor(Graph &graph, const Type &type, const std::vector<size_t> &shape,
                             const std::vector<size_t> &dims, const std::vector<size_t> &sizes,
                             std::size_t minGrainSize, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, dims, sizes, minGrainSize));
  internal::checkShapeDimsAndSizes("popops::createSliceableTensor", shape, dims, sizes);
  Tensor t = internal::createSliceable(graph, type, shape, dims, minGrainSize, {di});
  di.addOutput(t);
  return t;
}

Tensor createSliceableTensor(Graph &graph, const Type &type, const std::vector<size_t> &shape,
                             const std::vector<size_t> &dims, const std::vector<size_t> &sizes,
                             const SlicePlan &plan, const OptionFlags &options,
                             const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, dims, sizes, options));
  internal::parseSliceOptions("popops::createSliceableTensor", options);
  internal::checkShapeDimsAndSizes("popops::createSliceableTensor", shape, dims, sizes);
  internal::checkPlan("popops::createSliceableTensor", plan, type, shape, dims);
  Tensor t = internal::createSliceable(graph, type, shape, dims, 0, {di});
  di.addOutput(t);
  return t;
}

Tensor createSliceTensor(Graph &graph, const Tensor &t, const std::vector<size_t> &dims,
                         const std::vector<size_t> &sizes, std::size_t numIndices,
                         const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, dims, sizes, numIndices));
  internal::checkDimsAndSizes("popops::createSliceTensor", t, dims, sizes);
  Tensor s = internal::createSlices(graph, t, dims, sizes, numIndices, {di});
  di.addOutput(s);
  return s;
}

Tensor createSliceTensor(Graph &graph, const Type &type, const std::vector<std::size_t> &shape,
                         const std::vector<std::size_t> &dims,
                         const std::vector<std::size_t> &sizes, std::size_t numIndices,
                         const SlicePlan &plan, const OptionFlags &options,
                         const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(type, shape, dims, sizes, numIndices, options));
  internal::parseSliceOptions("popops::createSliceTensor", options);
  internal::checkShapeDimsAndSizes("popops::createSliceTensor", shape, dims, sizes);
  internal::checkPlan("popops::createSliceTensor", plan, type, shape, dims);
  // The slices of a tensor createSliceableTensor would make: lay them out by its column groups.
  std::size_t columns = 1;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      columns *= shape[d];
  Tensor s = internal::createSlicesByColumns(graph, type, shape, dims, sizes, numIndices,
                                             internal::balancedColumns(graph, columns, type), {di});
  di.addOutput(s);
  return s;
}

Tensor createIndicesTensor(Graph &graph, const std::vector<std::size_t> &dims,
                           std::size_t numIndices, const SlicePlan &plan,
                           const OptionFlags &options, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(dims, numIndices, options));
  (void)plan;
  internal::parseSliceOptions("popops::createIndicesTensor", options);
  Tensor indices = graph.addVariable(UNSIGNED_INT, {numIndices, dims.size()}, {di, "indices"});
  // Every tile that slices reads all the indices; keep them together on tile 0.
  graph.setTileMapping(indices, 0);
  di.addOutput(indices);
  return indices;
}

} // namespace popops
