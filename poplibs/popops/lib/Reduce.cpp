// popops::reduce, reduceWithOutput and reduceMany: argument checks, options, the output, and the
// compute sets of the plan (ReduceStages.cpp) run from a program.
#include <popops/Reduce.hpp>

#include "ReducePlan.hpp"
#include "support/OptionSpec.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <sstream>

#include "popops/ReduceOps.hpp"

namespace popops {

using namespace poplar;
using popsdk::support::raise;
using popsdk::support::shapeText;

// Found by argument-dependent lookup from DI_ARGS.
static ProfileValue toProfileValue(const ReduceParams &p) {
  std::ostringstream os;
  os << "{op: " << p.op << ", update: " << (p.update ? "true" : "false");
  if (p.useScale)
    os << ", scale: " << poputil::toProfileValue(p.scale).asString();
  return ProfileValue(os.str() + "}");
}

static ProfileValue toProfileValue(const SingleReduceOp &r) {
  return ProfileValue("{in: " + poputil::toProfileValue(r.in).asString() +
                      ", dims: " + poputil::toProfileValue(r.dims).asString() +
                      ", params: " + toProfileValue(r.params).asString() + "}");
}

namespace {

using internal::ReduceSpec;

/// One row of the op table per (op, partials type, output type) a vertex exists for.
struct TypePair {
  Operation op;
  Type in, out;
  bool scaleAndUpdate;
};

const std::vector<TypePair> &typePairs() {
  static const std::vector<TypePair> pairs = [] {
    std::vector<TypePair> v;
#define POPOPS_TYPE_float FLOAT
#define POPOPS_TYPE_half HALF
#define POPOPS_TYPE_int INT
#define POPOPS_TYPE_unsigned UNSIGNED_INT
#define POPOPS_TYPE_bool BOOL
#define POPOPS_PAIR(op, su, P, O)                                                                  \
  v.push_back({Operation::op, POPOPS_TYPE_##P, POPOPS_TYPE_##O, su});
#define POPOPS_ROW(unused, op, reduceOp, pairs, su) POPOPS_REDUCE_PAIRS_##pairs(POPOPS_PAIR, op, su)
    POPOPS_REDUCE_OPS(POPOPS_ROW, unused)
#undef POPOPS_ROW
#undef POPOPS_PAIR
    return v;
  }();
  return pairs;
}

bool isFloating(const Type &t) { return t == FLOAT || t == HALF; }

bool accumulates(Operation op) {
  return op == Operation::ADD || op == Operation::SQUARE_ADD || op == Operation::MUL ||
         op == Operation::LOG_ADD;
}

/// Checks the arguments of one reduction and decides its types.
ReduceSpec makeSpec(const std::string &api, const Tensor &in, const Type &outType,
                    const std::vector<std::size_t> &dims, const ReduceParams &params,
                    const OptionFlags &options) {
  if (!in.valid())
    raise<poputil::poplibs_error>(api, ": the input tensor is not valid");
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] >= in.rank())
      raise<poputil::poplibs_error>(api, ": dims ", shapeText(dims), " name dimension ", dims[i],
                                    ", but the input ", shapeText(in.shape()), " has rank ",
                                    in.rank());
    if (std::find(dims.begin(), dims.begin() + i, dims[i]) != dims.begin() + i)
      raise<poputil::poplibs_error>(api, ": dims ", shapeText(dims), " name dimension ", dims[i],
                                    " twice");
  }
  ReduceSpec spec;
  spec.api = api;
  spec.op = params.op;
  spec.update = params.update;
  spec.useScale = params.useScale;
  spec.inType = in.elementType();
  spec.outType = outType;

  const auto &pairs = typePairs();
  auto pair = std::find_if(pairs.begin(), pairs.end(), [&](const TypePair &p) {
    return p.op == params.op && p.in == spec.inType && p.out == outType;
  });
  if (pair == pairs.end()) {
    std::string supported;
    for (const auto &p : pairs)
      if (p.op == params.op)
        supported += (supported.empty() ? "" : ", ") + p.in.toString() + "->" + p.out.toString();
    raise<poputil::poplibs_error>(api, ": ", params.op, " does not reduce ", spec.inType,
                                  " (input ", shapeText(in.shape()), ") to ", outType,
                                  "; it reduces ", supported);
  }
  if ((params.update || params.useScale) && !pair->scaleAndUpdate)
    raise<poputil::poplibs_error>(api, ": ", params.op, " takes no ",
                                  params.useScale ? "scale" : "update",
                                  "; only ADD, SQUARE_ADD and LOG_ADD do");
  if (params.useScale) {
    const Tensor &k = params.scale;
    if (!k.valid())
      raise<poputil::poplibs_error>(api, ": the scale tensor is not valid");
    if (k.elementType() != FLOAT || k.numElements() != 1)
      raise<poputil::poplibs_error>(api, ": the scale must be a scalar float tensor, not ",
                                    k.elementType(), shapeText(k.shape()));
    spec.scale = k.flatten();
  }

  std::optional<Type> interTile, inVertex;
  const std::map<std::string, std::optional<Type>> accumTypes{{"float", FLOAT}, {"half", HALF}};
  using H = popsdk::support::OptionHandler;
  popsdk::support::OptionSpec{
      {"accumType.interTile", H::enumeration(interTile, accumTypes)},
      {"accumType.inVertex", H::enumeration(inVertex, accumTypes)},
  }
      .parse(api, options);
  // Partial results of float and half sums and products are float unless asked otherwise;
  // other ops keep the output type. Vertices accumulate half in float whatever inVertex says.
  spec.accumType = outType;
  if (accumulates(params.op) && isFloating(spec.inType) && isFloating(outType))
    spec.accumType = interTile ? *interTile : FLOAT;
  return spec;
}

std::vector<std::size_t> reducedShape(const Tensor &in, const std::vector<std::size_t> &dims) {
  std::vector<std::size_t> shape;
  for (std::size_t d = 0; d < in.rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      shape.push_back(in.dim(d));
  return shape;
}

Tensor reduceImpl(Graph &graph, const std::string &api, const Tensor &in, std::optional<Tensor> out,
                  const Type &outType, const std::vector<std::size_t> &dims,
                  const ReduceParams &params, std::vector<ComputeSet> &css, const DebugContext &dc,
                  const OptionFlags &options) {
  if (out && !out->valid())
    raise<poputil::poplibs_error>(api, ": the output tensor is not valid");
  ReduceSpec spec = makeSpec(api, in, out ? out->elementType() : outType, dims, params, options);
  const auto shape = reducedShape(in, dims);
  bool mapOut = false;
  if (out) {
    if (out->shape() != shape)
      raise<poputil::poplibs_error>(api, ": the output has shape ", shapeText(out->shape()),
                                    " but reducing ", shapeText(in.shape()), " over dims ",
                                    shapeText(dims), " gives ", shapeText(shape));
    bool complete = false;
    graph.getTileMapping(*out, &complete);
    mapOut = !complete;
  }
  std::size_t numOut = 1;
  for (auto s : shape)
    numOut *= s;
  if (numOut == 0)
    return out ? *out : graph.addVariable(spec.outType, shape, {dc, "out"});
  if (in.numElements() == 0) {
    if (!out) {
      out = graph.addVariable(spec.outType, shape, {dc, "out"});
      mapOut = true;
    }
    if (mapOut)
      poputil::mapTensorLinearly(graph, *out);
    internal::reduceNothing(graph, *out, spec, css, dc);
    return *out;
  }
  bool inMapped = false;
  graph.getTileMapping(in, &inMapped);
  if (!inMapped)
    raise<poputil::poplibs_error>(api, ": the input ", shapeText(in.shape()),
                                  " is not completely mapped to tiles");
  return internal::planReduction(graph, in, out, mapOut, dims, spec, css, dc);
}

void addToProgram(const std::vector<ComputeSet> &css, program::Sequence &prog,
                  const DebugContext &dc) {
  for (const auto &cs : css)
    prog.add(program::Execute(cs, dc));
}

} // namespace

Tensor reduce(Graph &graph, const Tensor &in, const Type &outType,
              const std::vector<std::size_t> &dims, ReduceParams params,
              std::vector<ComputeSet> &css, const DebugContext &debugContext,
              const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, outType, dims, params, options),
                                 "reduce");
  Tensor out =
      reduceImpl(graph, "reduce", in, std::nullopt, outType, dims, params, css, {di}, options);
  di.addOutput(out);
  return out;
}

Tensor reduce(Graph &graph, const Tensor &in, const std::vector<std::size_t> &dims,
              ReduceParams params, std::vector<ComputeSet> &css, const DebugContext &debugContext,
              const OptionFlags &options) {
  if (!in.valid())
    raise<poputil::poplibs_error>("reduce: the input tensor is not valid");
  return reduce(graph, in, in.elementType(), dims, params, css, debugContext, options);
}

void reduceWithOutput(Graph &graph, const Tensor &in, const Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      std::vector<ComputeSet> &css, const DebugContext &debugContext,
                      const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, out, dims, params, options),
                                 "reduceWithOutput");
  reduceImpl(graph, "reduceWithOutput", in, out, out.valid() ? out.elementType() : FLOAT, dims,
             params, css, {di}, options);
}

Tensor reduce(Graph &graph, const Tensor &in, const Type &outType,
              const std::vector<std::size_t> &dims, ReduceParams params, program::Sequence &prog,
              const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, outType, dims, params, options),
                                 "reduce");
  std::vector<ComputeSet> css;
  Tensor out =
      reduceImpl(graph, "reduce", in, std::nullopt, outType, dims, params, css, {di}, options);
  addToProgram(css, prog, {di});
  di.addOutput(out);
  return out;
}

Tensor reduce(Graph &graph, const Tensor &in, const std::vector<std::size_t> &dims,
              ReduceParams params, program::Sequence &prog, const DebugContext &debugContext,
              const OptionFlags &options) {
  if (!in.valid())
    raise<poputil::poplibs_error>("reduce: the input tensor is not valid");
  return reduce(graph, in, in.elementType(), dims, params, prog, debugContext, options);
}

void reduceWithOutput(Graph &graph, const Tensor &in, const Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      program::Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, out, dims, params, options),
                                 "reduceWithOutput");
  std::vector<ComputeSet> css;
  reduceImpl(graph, "reduceWithOutput", in, out, out.valid() ? out.elementType() : FLOAT, dims,
             params, css, {di}, options);
  addToProgram(css, prog, {di});
}

void reduceMany(Graph &graph, const std::vector<SingleReduceOp> &reductions,
                std::vector<Tensor> &outputs, program::Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(reductions, outputs, options), "reduceMany");
  const bool given = !outputs.empty();
  if (given && outputs.size() != reductions.size())
    raise<poputil::poplibs_error>("reduceMany: ", reductions.size(), " reductions but ",
                                  outputs.size(), " outputs");
  // Every reduction adds its stage i to the same compute set i, so they run side by side.
  std::vector<ComputeSet> css;
  std::vector<Tensor> results;
  for (std::size_t i = 0; i < reductions.size(); ++i) {
    const auto &r = reductions[i];
    const std::string api = "reduceMany: reduction " + std::to_string(i);
    if (!given && r.params.update)
      raise<poputil::poplibs_error>(api, " is an update, which needs its output in `outputs`");
    DebugContext dc(di, r.debugName);
    if (given) {
      reduceImpl(graph, api, r.in, outputs[i],
                 outputs[i].valid() ? outputs[i].elementType() : FLOAT, r.dims, r.params, css, dc,
                 options);
    } else {
      if (!r.in.valid())
        raise<poputil::poplibs_error>(api, ": the input tensor is not valid");
      results.push_back(reduceImpl(graph, api, r.in, std::nullopt,
                                   r.useOutType ? r.outType : r.in.elementType(), r.dims, r.params,
                                   css, dc, options));
    }
  }
  addToProgram(css, prog, {di});
  if (!given)
    outputs = std::move(results);
}

} // namespace popops
