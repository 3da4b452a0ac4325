// multiSlice and the multi-updates: a list of run-time indices into one dimension. The tensor is
// viewed as [entries, columns] (SliceLayout.hpp); on each tile one MultiVertex per column interval
// it holds applies every index to those columns (MultiSlice, MultiUpdate, MultiUpdateAdd,
// MultiUpdateMax in codelets/popops/DynamicSlice.cpp), so no index needs exchanging between tiles.
#include <popops/DynamicSlice.hpp>

#include "SliceArgs.hpp"
#include "SliceCycles.hpp"
#include "SliceLayout.hpp"
#include "SlicePlanInternal.hpp"
#include "support/Raise.hpp"

#include <poplar/Program.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

enum class Kind { Slice, Update, Add, Max };

struct KindInfo {
  const char *vertex;
  internal::CycleEstimator estimator;
  std::vector<Type> types;
};

const KindInfo &info(Kind k) {
  static const KindInfo slice{
      "popops::MultiSlice", internal::multiSliceCycles, {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}};
  static const KindInfo update{
      "popops::MultiUpdate", internal::multiUpdateCycles, {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}};
  static const KindInfo add{
      "popops::MultiUpdateAdd", internal::multiUpdateAddCycles, {FLOAT, HALF, INT, UNSIGNED_INT}};
  static const KindInfo max{
      "popops::MultiUpdateMax", internal::multiUpdateMaxCycles, {FLOAT, HALF, INT, UNSIGNED_INT}};
  switch (k) {
  case Kind::Slice:
    return slice;
  case Kind::Update:
    return update;
  case Kind::Add:
    return add;
  default:
    return max;
  }
}

void checkDataType(const std::string &api, Kind kind, const Tensor &t) {
  const auto &types = info(kind).types;
  if (std::find(types.begin(), types.end(), t.elementType()) == types.end())
    raise<poputil::poplibs_error>(api, ": element type ", t.elementType(), " is not supported");
}

/// The shape of the slices of `t` at `numIndices` indices into `dim`.
std::vector<std::size_t> slicesShape(const Tensor &t, std::size_t dim, std::size_t numIndices) {
  std::vector<std::size_t> shape{numIndices};
  for (unsigned d = 0; d < t.rank(); ++d)
    shape.push_back(d == dim ? 1 : t.dim(d));
  return shape;
}

/// Slices [numIndices, ..1 at dim + 1..] as [numIndices, columns], columns in t's as2D order.
Tensor slices2D(const Tensor &s, std::size_t dim) {
  Tensor rolled = s.dimRoll(dim + 1, 1);
  return rolled.reshape({s.dim(0), s.numElements() / std::max<std::size_t>(1, s.dim(0))});
}

/// One vertex of `kind` per column interval of each group.
void addMultiVertices(Graph &graph, ComputeSet cs, Kind kind, const Tensor &offsets,
                      const Tensor &t2d, const Tensor &s2d,
                      const std::vector<internal::ColumnGroup> &groups, unsigned flags,
                      const Tensor &scale) {
  const Type type = t2d.elementType();
  const auto &target = graph.getTarget();
  const unsigned numIndices = offsets.numElements();
  std::string name = kind == Kind::Add
                         ? poputil::templateVertex(info(kind).vertex, type, scale.elementType())
                         : poputil::templateVertex(info(kind).vertex, type);
  for (const auto &g : groups)
    for (const auto &c : g.columns) {
      auto v = graph.addVertex(cs, name,
                               {{"offsets", offsets},
                                {"baseT", internal::rowsOf(t2d, c)},
                                {"subT", internal::rowsOf(s2d, c)}});
      if (kind == Kind::Add)
        graph.connect(v["scale"], scale.flatten());
      graph.setInitialValue(v["baseOffset"], 0u);
      graph.setInitialValue(v["numBaseElements"], unsigned(t2d.dim(0)) | flags);
      graph.setInitialValue(v["regionSize"], unsigned(c.size()));
      if (kind == Kind::Slice) {
        // The workers take whole rows of their share of the indices (as PopLibs' MultiSlice
        // does) when there are enough indices and rows are whole 32-bit words (so two workers
        // never write one word); else they split the columns.
        unsigned rowBytes = c.size() * target.getTypeSize(type);
        bool enoughIndices = numIndices >= target.getNumWorkerContexts();
        graph.setInitialValue(v["splitOffsets"], enoughIndices && rowBytes % 4 == 0);
      }
      graph.setTileMapping(v, g.tile);
      internal::VertexCost cost{target, -1, type, type, {unsigned(c.size())}, numIndices};
      graph.setPerfEstimate(v, info(kind).estimator(cost));
    }
}

/// The update forms: t[offsets[i]] (op)= s[i].
void multiUpdateImpl(Graph &graph, Kind kind, const std::string &api, const Tensor &t,
                     const Tensor &s, const Tensor &offsets, const Tensor &scale,
                     const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                     Sequence &prog, const SlicePlan &plan, const OptionFlags &options,
                     const DebugContext &dc) {
  auto opts = internal::parseSliceOptions(api, options);
  internal::checkMultiSliceArgs(api, t, offsets, dims, sizes);
  internal::checkPlan(api, plan, t.elementType(), t.shape(), dims);
  checkDataType(api, kind, t);
  const std::size_t dim = dims[0];
  internal::checkShapeAndType(api, "s", s, t.elementType(), slicesShape(t, dim, offsets.dim(0)));
  if (kind == Kind::Add) {
    if (scale.numElements() != 1)
      raise<poputil::poplibs_error>(api, ": scale has shape ", shapeText(scale.shape()),
                                    " but must have one element");
    bool halfWithFloat = t.elementType() == HALF && scale.elementType() == FLOAT;
    if (scale.elementType() != t.elementType() && !halfWithFloat)
      raise<poputil::poplibs_error>(api, ": scale has type ", scale.elementType(),
                                    " but the data is ", t.elementType());
  }
  if (s.numElements() == 0 || t.numElements() == 0)
    return;
  Tensor t2d = internal::as2D(t, dim);
  auto groups = internal::sliceColumns(graph, t2d);
  Tensor idx = internal::unsignedIndices(graph, offsets, prog, dc).flatten();
  auto cs = graph.addComputeSet({dc, api});
  addMultiVertices(graph, cs, kind, idx, t2d, slices2D(s, dim), groups, opts.indexFlags(), scale);
  prog.add(Execute(cs));
}

Tensor constantIndices(Graph &graph, ArrayRef<unsigned> offsets, const DebugContext &dc) {
  std::vector<unsigned> values(offsets.data(), offsets.data() + offsets.size());
  Tensor c = graph.addConstant(UNSIGNED_INT, {values.size(), std::size_t(1)},
                               ArrayRef<unsigned>(values), {dc, "offsets"});
  graph.setTileMapping(c, 0);
  return c;
}

} // namespace

Tensor multiSlice(Graph &graph, const Tensor &t, const Tensor &offsets,
                  const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                  Sequence &prog, const SlicePlan &plan, const OptionFlags &options,
                  const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, offsets, dims, sizes, options));
  auto opts = internal::parseSliceOptions("popops::multiSlice", options);
  internal::checkMultiSliceArgs("popops::multiSlice", t, offsets, dims, sizes);
  internal::checkPlan("popops::multiSlice", plan, t.elementType(), t.shape(), dims);
  checkDataType("popops::multiSlice", Kind::Slice, t);
  const std::size_t dim = dims[0], numIndices = offsets.dim(0);
  auto shape = slicesShape(t, dim, numIndices);
  if (t.dim(dim) == 0 && std::count(shape.begin(), shape.end(), 0u) == 0)
    raise<poputil::poplibs_error>("popops::multiSlice: dimension ", dim, " of t ",
                                  shapeText(t.shape()),
                                  " is empty, so no index can select a slice");
  Tensor t2d = internal::as2D(t, dim);
  std::vector<internal::ColumnGroup> groups;
  if (t.numElements() != 0)
    groups = internal::sliceColumns(graph, t2d);
  Tensor out = internal::createSlicesByColumns(graph, t.elementType(), t.shape(), {dim}, {1},
                                               numIndices, groups, {di, "slices"});
  if (out.numElements() != 0) {
    Tensor idx = internal::unsignedIndices(graph, offsets, prog, {di}).flatten();
    auto cs = graph.addComputeSet({di, "multiSlice"});
    addMultiVertices(graph, cs, Kind::Slice, idx, t2d, slices2D(out, dim), groups,
                     opts.indexFlags(), Tensor());
    prog.add(Execute(cs));
  }
  di.addOutput(out);
  return out;
}

Tensor multiSlice(Graph &graph, const Tensor &t, ArrayRef<unsigned> offsets, std::size_t dim,
                  Sequence &prog, const DebugContext &debugContext,
                  const OptionFlags &optionFlags) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, dim, optionFlags));
  if (dim >= t.rank())
    raise<poputil::poplibs_error>("popops::multiSlice: dimension ", dim,
                                  " is not a dimension of t ", shapeText(t.shape()));
  Tensor out = multiSlice(graph, t, constantIndices(graph, offsets, {di}), {dim}, {1}, prog,
                          SlicePlan(), optionFlags, {di});
  di.addOutput(out);
  return out;
}

void multiUpdate(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                 const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                 Sequence &prog, const SlicePlan &plan, const OptionFlags &options,
                 const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, dims, sizes, options));
  multiUpdateImpl(graph, Kind::Update, "popops::multiUpdate", t, s, offsets, Tensor(), dims, sizes,
                  prog, plan, options, {di});
}

void multiUpdateAdd(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                    const Tensor &scale, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes, Sequence &prog, const SlicePlan &plan,
                    const OptionFlags &options, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, scale, dims, sizes, options));
  multiUpdateImpl(graph, Kind::Add, "popops::multiUpdateAdd", t, s, offsets, scale, dims, sizes,
                  prog, plan, options, {di});
}

void multiUpdateAdd(Graph &graph, const Tensor &t, const Tensor &s, ArrayRef<unsigned> offsets,
                    const Tensor &scale, std::size_t dim, Sequence &prog,
                    const DebugContext &debugContext, const OptionFlags &optionFlags) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, scale, dim, optionFlags));
  if (dim >= t.rank())
    raise<poputil::poplibs_error>("popops::multiUpdateAdd: dimension ", dim,
                                  " is not a dimension of t ", shapeText(t.shape()));
  multiUpdateImpl(graph, Kind::Add, "popops::multiUpdateAdd", t, s,
                  constantIndices(graph, offsets, {di}), scale, {dim}, {1}, prog, SlicePlan(),
                  optionFlags, {di});
}

void multiUpdateMax(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                    Sequence &prog, const SlicePlan &plan, const OptionFlags &options,
                    const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, dims, sizes, options));
  multiUpdateImpl(graph, Kind::Max, "popops::multiUpdateMax", t, s, offsets, Tensor(), dims, sizes,
                  prog, plan, options, {di});
}

} // namespace popops
