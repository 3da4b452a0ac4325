// multiSlice and the multi-updates, and their grouped forms: a list of run-time indices into one
// dimension. The tensor is viewed as [entries, columns] (SliceLayout.hpp); on each tile one
// MultiVertex per column interval it holds applies every index to those columns (MultiSlice,
// MultiUpdate, MultiUpdateAdd, MultiUpdateMax, MultiUpdateMul in codelets/popops/DynamicSlice.cpp),
// so no index needs exchanging between tiles. A grouped op is the same for each group (the first
// dimension of t, s and the offsets), all groups' vertices in one compute set.
#include <popops/DynamicSlice.hpp>

#include "SliceArgs.hpp"
#include "SliceCycles.hpp"
#include "SliceLayout.hpp"
#include "SlicePlanInternal.hpp"
#include "support/Raise.hpp"
#include "support/WorkerSplit.hpp"

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

enum class Kind { Slice, Update, Add, Max, Mul };

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
  static const KindInfo mul{
      "popops::MultiUpdateMul", internal::multiUpdateMulCycles, {FLOAT, HALF, INT, UNSIGNED_INT}};
  switch (k) {
  case Kind::Slice:
    return slice;
  case Kind::Update:
    return update;
  case Kind::Add:
    return add;
  case Kind::Max:
    return max;
  default:
    return mul;
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
    for (const auto &c : internal::workerSplitColumns(target, g.columns, type)) {
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
        // never write one word) and no more than they split exactly (the codelet splits indices
        // as 8-byte grains of one each); else they split the columns.
        unsigned rowBytes = c.size() * target.getTypeSize(type);
        bool enoughIndices = numIndices >= target.getNumWorkerContexts();
        bool splittable = numIndices <= popsdk::support::maxWorkerSplitElements(8);
        graph.setInitialValue(v["splitOffsets"], enoughIndices && splittable && rowBytes % 4 == 0);
      }
      graph.setTileMapping(v, g.tile);
      internal::VertexCost cost{target, -1, type, type, {unsigned(c.size())}, numIndices};
      graph.setPerfEstimate(v, info(kind).estimator(cost));
    }
}

/// The groups of a grouped op: t, s (when given) and offsets with one first dimension, offsets
/// [groupSize, numIndices, 1]. Returns the group size.
std::size_t checkGroups(const std::string &api, const Tensor &t, const Tensor *s,
                        const Tensor &offsets, const SlicePlan &plan) {
  if (t.rank() < 2)
    raise<poputil::poplibs_error>(api, ": t has shape ", shapeText(t.shape()),
                                  " but needs a group dimension and a dimension to slice");
  const std::size_t groups = t.dim(0);
  if (offsets.rank() != 3 || offsets.dim(0) != groups || offsets.dim(2) != 1)
    raise<poputil::poplibs_error>(api, ": offsets has shape ", shapeText(offsets.shape()),
                                  " but must be [groupSize, numIndices, 1] with groupSize ", groups,
                                  " (the first dimension of t ", shapeText(t.shape()), ")");
  if (s && (s->rank() == 0 || s->dim(0) != groups))
    raise<poputil::poplibs_error>(api, ": s has shape ", shapeText(s->shape()),
                                  " but its first dimension must be the group size ", groups);
  const auto &p = plan.getImpl();
  if (p.planned && p.groupSize != groups)
    raise<poputil::poplibs_error>(api, ": the plan is for a group size of ", p.groupSize, " but t ",
                                  shapeText(t.shape()), " has ", groups, " groups");
  return groups;
}

/// The update forms, one group or (grouped) each of t's first dimension: t[offsets[i]] (op)=
/// s[i].
void multiUpdateImpl(Graph &graph, Kind kind, const std::string &api, bool grouped, const Tensor &t,
                     const Tensor &s, const Tensor &offsets, const Tensor &scale,
                     const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                     Sequence &prog, const SlicePlan &plan, const OptionFlags &options,
                     const DebugContext &dc) {
  auto opts = internal::parseSliceOptions(api, options);
  std::vector<Tensor> ts{t}, ss{s}, os{offsets};
  if (grouped) {
    const std::size_t groups = checkGroups(api, t, &s, offsets, plan);
    ts.clear(), ss.clear(), os.clear();
    for (std::size_t g = 0; g < groups; ++g) {
      ts.push_back(t[g]);
      ss.push_back(s[g]);
      os.push_back(offsets[g]);
    }
  }
  if (ts.empty())
    return;
  internal::checkMultiSliceArgs(api, ts[0], os[0], dims, sizes);
  internal::checkPlan(api, plan, t.elementType(), ts[0].shape(), dims);
  checkDataType(api, kind, t);
  const std::size_t dim = dims[0];
  const auto sliceShape = slicesShape(ts[0], dim, os[0].dim(0));
  for (const auto &sg : ss)
    internal::checkShapeAndType(api, "s", sg, t.elementType(), sliceShape);
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
  Tensor idx = internal::unsignedIndices(graph, offsets, prog, dc);
  auto cs = graph.addComputeSet({dc, api});
  for (std::size_t g = 0; g < ts.size(); ++g) {
    Tensor t2d = internal::as2D(ts[g], dim);
    auto groups = internal::sliceColumns(graph, t2d);
    addMultiVertices(graph, cs, kind, grouped ? idx[g].flatten() : idx.flatten(), t2d,
                     slices2D(ss[g], dim), groups, opts.indexFlags(), scale);
  }
  prog.add(Execute(cs));
}

/// multiSlice of one group, or (grouped) of each of t's first dimension.
Tensor multiSliceImpl(Graph &graph, const std::string &api, bool grouped, const Tensor &t,
                      const Tensor &offsets, const std::vector<std::size_t> &dims,
                      const std::vector<std::size_t> &sizes, Sequence &prog, const SlicePlan &plan,
                      const OptionFlags &options, const DebugContext &dc) {
  auto opts = internal::parseSliceOptions(api, options);
  std::vector<Tensor> ts{t}, os{offsets};
  if (grouped) {
    const std::size_t groups = checkGroups(api, t, nullptr, offsets, plan);
    ts.clear(), os.clear();
    for (std::size_t g = 0; g < groups; ++g) {
      ts.push_back(t[g]);
      os.push_back(offsets[g]);
    }
    if (groups == 0) {
      internal::checkIndexType(api, "offsets", offsets);
      std::vector<std::size_t> shape{0, offsets.dim(1)};
      for (std::size_t d = 1; d < t.rank(); ++d)
        shape.push_back(dims.size() == 1 && d == dims[0] + 1 ? 1 : t.dim(d));
      return graph.addVariable(t.elementType(), shape, {dc, "slices"});
    }
  }
  internal::checkMultiSliceArgs(api, ts[0], os[0], dims, sizes);
  internal::checkPlan(api, plan, t.elementType(), ts[0].shape(), dims);
  checkDataType(api, Kind::Slice, t);
  const std::size_t dim = dims[0], numIndices = os[0].dim(0);
  auto shape = slicesShape(ts[0], dim, numIndices);
  if (ts[0].dim(dim) == 0 && std::count(shape.begin(), shape.end(), 0u) == 0)
    raise<poputil::poplibs_error>(api, ": dimension ", dim, " of t ", shapeText(ts[0].shape()),
                                  " is empty, so no index can select a slice");
  std::vector<Tensor> outs;
  std::vector<std::pair<Tensor, std::vector<internal::ColumnGroup>>> work;
  for (const auto &tg : ts) {
    Tensor t2d = internal::as2D(tg, dim);
    std::vector<internal::ColumnGroup> groups;
    if (tg.numElements() != 0)
      groups = internal::sliceColumns(graph, t2d);
    outs.push_back(internal::createSlicesByColumns(graph, t.elementType(), tg.shape(), {dim}, {1},
                                                   numIndices, groups, {dc, "slices"}));
    work.emplace_back(t2d, std::move(groups));
  }
  if (outs[0].numElements() != 0) {
    Tensor idx = internal::unsignedIndices(graph, offsets, prog, dc);
    auto cs = graph.addComputeSet({dc, api});
    for (std::size_t g = 0; g < outs.size(); ++g)
      addMultiVertices(graph, cs, Kind::Slice, grouped ? idx[g].flatten() : idx.flatten(),
                       work[g].first, slices2D(outs[g], dim), work[g].second, opts.indexFlags(),
                       Tensor());
    prog.add(Execute(cs));
  }
  if (!grouped)
    return outs[0];
  for (auto &o : outs)
    o = o.expand({0});
  return concat(outs);
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
  Tensor out = multiSliceImpl(graph, "popops::multiSlice", false, t, offsets, dims, sizes, prog,
                              plan, options, {di});
  di.addOutput(out);
  return out;
}

Tensor groupedMultiSlice(Graph &graph, const Tensor &t, const Tensor &offsets,
                         const std::vector<std::size_t> &dims,
                         const std::vector<std::size_t> &sizes, Sequence &prog,
                         const SlicePlan &plan, const OptionFlags &options,
                         const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, offsets, dims, sizes, options));
  Tensor out = multiSliceImpl(graph, "popops::groupedMultiSlice", true, t, offsets, dims, sizes,
                              prog, plan, options, {di});
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
  multiUpdateImpl(graph, Kind::Update, "popops::multiUpdate", false, t, s, offsets, Tensor(), dims,
                  sizes, prog, plan, options, {di});
}

void multiUpdateAdd(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                    const Tensor &scale, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes, Sequence &prog, const SlicePlan &plan,
                    const OptionFlags &options, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, scale, dims, sizes, options));
  multiUpdateImpl(graph, Kind::Add, "popops::multiUpdateAdd", false, t, s, offsets, scale, dims,
                  sizes, prog, plan, options, {di});
}

void multiUpdateAdd(Graph &graph, const Tensor &t, const Tensor &s, ArrayRef<unsigned> offsets,
                    const Tensor &scale, std::size_t dim, Sequence &prog,
                    const DebugContext &debugContext, const OptionFlags &optionFlags) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, scale, dim, optionFlags));
  if (dim >= t.rank())
    raise<poputil::poplibs_error>("popops::multiUpdateAdd: dimension ", dim,
                                  " is not a dimension of t ", shapeText(t.shape()));
  multiUpdateImpl(graph, Kind::Add, "popops::multiUpdateAdd", false, t, s,
                  constantIndices(graph, offsets, {di}), scale, {dim}, {1}, prog, SlicePlan(),
                  optionFlags, {di});
}

void multiUpdateMax(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                    Sequence &prog, const SlicePlan &plan, const OptionFlags &options,
                    const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, dims, sizes, options));
  multiUpdateImpl(graph, Kind::Max, "popops::multiUpdateMax", false, t, s, offsets, Tensor(), dims,
                  sizes, prog, plan, options, {di});
}

void multiUpdateMul(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                    Sequence &prog, const SlicePlan &plan, const OptionFlags &options,
                    const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, dims, sizes, options));
  multiUpdateImpl(graph, Kind::Mul, "popops::multiUpdateMul", false, t, s, offsets, Tensor(), dims,
                  sizes, prog, plan, options, {di});
}

void groupedMultiUpdate(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                        const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                        Sequence &prog, const SlicePlan &plan, const OptionFlags &options,
                        const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, dims, sizes, options));
  multiUpdateImpl(graph, Kind::Update, "popops::groupedMultiUpdate", true, t, s, offsets, Tensor(),
                  dims, sizes, prog, plan, options, {di});
}

void groupedMultiUpdateAdd(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                           const Tensor &scale, const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes, Sequence &prog,
                           const SlicePlan &plan, const OptionFlags &options,
                           const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, scale, dims, sizes, options));
  multiUpdateImpl(graph, Kind::Add, "popops::groupedMultiUpdateAdd", true, t, s, offsets, scale,
                  dims, sizes, prog, plan, options, {di});
}

void groupedMultiUpdateMax(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                           const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes, Sequence &prog,
                           const SlicePlan &plan, const OptionFlags &options,
                           const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, dims, sizes, options));
  multiUpdateImpl(graph, Kind::Max, "popops::groupedMultiUpdateMax", true, t, s, offsets, Tensor(),
                  dims, sizes, prog, plan, options, {di});
}

void groupedMultiUpdateMul(Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                           const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes, Sequence &prog,
                           const SlicePlan &plan, const OptionFlags &options,
                           const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, dims, sizes, options));
  multiUpdateImpl(graph, Kind::Mul, "popops::groupedMultiUpdateMul", true, t, s, offsets, Tensor(),
                  dims, sizes, prog, plan, options, {di});
}

} // namespace popops
