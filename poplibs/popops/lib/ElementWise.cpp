// popops::map: type-checks an expression, broadcasts its tensors, and runs it as one of popops'
// element-wise vertices (a single op), as a codelet generated for the whole expression, or op by
// op (enableGenerateCodelet = false).
#include <popops/ElementWise.hpp>

#include "ExprOps.hpp"
#include "ExprTypes.hpp"
#include "GenerateCodelet.hpp"
#include "TileRegions.hpp"

#include <poputil/Broadcast.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include "support/CodeletObject.hpp"
#include "support/Logging.hpp"
#include "support/OptionSpec.hpp"
#include "support/Raise.hpp"

#include <filesystem>
#include <sstream>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using namespace popops::expr;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

struct MapOptions {
  bool enableGenerateCodelet = true;
  bool enableExpressionOptimizations = true;
  bool enableVectorBroadcastOptimisations = true;
  bool forceGenerateCodelet = false;
};

MapOptions parseOptions(const OptionFlags &flags, const std::string &api) {
  MapOptions o;
  using H = popsdk::support::OptionHandler;
  popsdk::support::OptionSpec{
      {"enableGenerateCodelet", H::boolean(o.enableGenerateCodelet)},
      {"enableExpressionOptimizations", H::boolean(o.enableExpressionOptimizations)},
      {"enableVectorBroadcastOptimisations", H::boolean(o.enableVectorBroadcastOptimisations)},
      {"forceGenerateCodelet", H::boolean(o.forceGenerateCodelet)},
  }
      .parse(api, flags);
  return o;
}

/// The popc flags a generated codelet needs to find popops' device headers: beside the
/// installed library (<prefix>/include), else in the source tree this library was built from.
std::string deviceIncludeFlags() {
  namespace fs = std::filesystem;
  fs::path lib = popsdk::support::codeletObjectPath(
      "popops", reinterpret_cast<const void *>(&createOutputForElementWiseOp));
  fs::path installed = lib.parent_path().parent_path() / "include";
  if (fs::exists(installed / "popops" / "ElementwiseDevice.hpp"))
    return "-I " + installed.string();
  return std::string("-I ") + POPOPS_SOURCE_DEVICE_INCLUDE_DIR + " -I " + POPOPS_SOURCE_HEADER_DIR;
}

/// One op application: a compute set of vertices over `out`'s tile regions.
class ElementwiseBuilder {
public:
  ElementwiseBuilder(Graph &graph, Sequence &prog, const DebugContext &dc, std::string api)
      : graph_(graph), prog_(prog), dc_(dc), api_(std::move(api)) {}

  /// Runs `expr` over the (broadcast, same-shape) tensors `ins`, writing `out` (or ins[0] in
  /// place when `out` is invalid).
  void run(const Expr &expr, const std::vector<Tensor> &ins, const Tensor &out,
           const MapOptions &options) {
    std::vector<Type> types;
    for (const auto &t : ins)
      types.push_back(t.elementType());
    bool inPlace = !out.valid();
    const Tensor &work = inPlace ? ins[0] : out;
    if (work.numElements() == 0)
      return;
    auto &log = popsdk::support::poplibsLogger("POPOPS");
    if (!options.forceGenerateCodelet && runSingleOp(expr, ins, out, inPlace)) {
      log.debug("{}: {} on popops' element-wise vertices", api_, expr.name());
    } else if (options.enableGenerateCodelet || options.forceGenerateCodelet) {
      runGenerated(expr, ins, types, work, inPlace);
    } else {
      log.debug("{}: {} op by op", api_, expr.name());
      runOpByOp(expr, ins, work, options);
    }
  }

private:
  ComputeSet computeSet() { return graph_.addComputeSet({dc_, api_}); }

  std::vector<internal::FieldTensor> flat(const std::vector<std::pair<std::string, Tensor>> &f) {
    std::vector<internal::FieldTensor> out;
    for (const auto &[name, t] : f)
      out.emplace_back(name, t.flatten());
    return out;
  }

  static const PlaceHolder *placeholder(const Expr &e) { return e.getAs<PlaceHolder>(); }

  /// A single op over placeholders runs on popops' precompiled vertices.
  bool runSingleOp(const Expr &expr, const std::vector<Tensor> &ins, const Tensor &out,
                   bool inPlace) {
    const Tensor &work = inPlace ? ins[0] : out;
    ComputeSet cs;
    if (auto *u = expr.getAs<UnaryOp>()) {
      auto *a = placeholder(u->getArg());
      if (!a || (inPlace && a->getIndex() != 1))
        return false;
      Tensor in = ins[a->getIndex() - 1];
      std::string op = internal::opArgument(u->getOpType());
      std::string type = in.elementType().toString();
      cs = computeSet();
      if (inPlace)
        internal::addElementwiseVertices(
            graph_, cs, work, api_, poputil::templateVertex("popops::UnaryOp1DInPlace", op, type),
            poputil::templateVertex("popops::UnaryOp2DInPlace", op, type), flat({{"inOut", work}}));
      else
        internal::addElementwiseVertices(graph_, cs, work, api_,
                                         poputil::templateVertex("popops::UnaryOp1D", op, type),
                                         poputil::templateVertex("popops::UnaryOp2D", op, type),
                                         flat({{"in", in}, {"out", out}}));
    } else if (auto *b = expr.getAs<BinaryOp>()) {
      auto *l = placeholder(b->getLHS());
      auto *r = placeholder(b->getRHS());
      if (!l || !r || (inPlace && l->getIndex() != 1))
        return false;
      Tensor in1 = ins[l->getIndex() - 1], in2 = ins[r->getIndex() - 1];
      std::string op = internal::opArgument(b->getOpType());
      std::string type = in1.elementType().toString();
      cs = computeSet();
      if (inPlace)
        internal::addElementwiseVertices(
            graph_, cs, work, api_, poputil::templateVertex("popops::BinaryOp1DInPlace", op, type),
            poputil::templateVertex("popops::BinaryOp2DInPlace", op, type),
            flat({{"in1Out", work}, {"in2", in2}}));
      else
        internal::addElementwiseVertices(graph_, cs, work, api_,
                                         poputil::templateVertex("popops::BinaryOp1D", op, type),
                                         poputil::templateVertex("popops::BinaryOp2D", op, type),
                                         flat({{"in1", in1}, {"in2", in2}, {"out", out}}));
    } else if (auto *t = expr.getAs<TernaryOp>()) {
      auto *a = placeholder(t->getArg0());
      auto *b = placeholder(t->getArg1());
      auto *c = placeholder(t->getArg2());
      if (!a || !b || !c || inPlace)
        return false;
      std::string name =
          t->getOpType() == TernaryOpType::SELECT ? "popops::Select1D" : "popops::Clamp1D";
      cs = computeSet();
      internal::addElementwiseVertices(graph_, cs, work, api_,
                                       poputil::templateVertex(name, out.elementType()), "",
                                       flat({{"in1", ins[a->getIndex() - 1]},
                                             {"in2", ins[b->getIndex() - 1]},
                                             {"in3", ins[c->getIndex() - 1]},
                                             {"out", out}}));
    } else {
      return false;
    }
    prog_.add(Execute(cs, {dc_, api_}));
    return true;
  }

  void runGenerated(const Expr &expr, const std::vector<Tensor> &ins,
                    const std::vector<Type> &types, const Tensor &work, bool inPlace) {
    auto codelet = internal::generateCodelet(expr, types, work.elementType(), inPlace);
    popsdk::support::poplibsLogger("POPOPS").debug("{}: {} as generated vertex {}", api_,
                                                   expr.name(), codelet.vertexName);
    if (!graph_.hasCodelet(codelet.vertexName)) {
      popsdk::support::poplibsLogger("POPOPS").info("{}: compiling generated codelet {} for {}",
                                                    api_, codelet.vertexName, expr.name());
      std::stringstream source(codelet.source);
      graph_.addCodelets(source, "-O2 " + deviceIncludeFlags());
    }
    std::vector<std::pair<std::string, Tensor>> fields;
    for (unsigned p : codelet.placeholders)
      fields.emplace_back("in" + std::to_string(p), ins[p - 1]);
    if (!inPlace)
      fields.emplace_back("out", work);
    ComputeSet cs = computeSet();
    internal::addElementwiseVertices(graph_, cs, work, api_, codelet.vertexName, "", flat(fields));
    prog_.add(Execute(cs, {dc_, api_}));
  }

  /// Evaluates each op into a temporary; constants become broadcast graph constants.
  Tensor evaluate(const Expr &e, const std::vector<Tensor> &ins, const Tensor &like,
                  const Type &context, const MapOptions &options) {
    std::vector<Type> types;
    for (const auto &t : ins)
      types.push_back(t.elementType());
    if (auto *p = e.getAs<PlaceHolder>())
      return ins[p->getIndex() - 1];
    Type type = internal::exprType(e, types, api_, context);
    if (auto *c = e.getAs<Const>()) {
      Tensor k = graph_.addConstant(type, {}, c->getValue(), {dc_, "constant"});
      graph_.setTileMapping(k, 0);
      Tensor b = k;
      poputil::broadcastToMatch(b, like.shape());
      return b;
    }
    Tensor out = createOutputForElementWiseOp(graph_, {like}, type, {dc_, api_});
    std::vector<Tensor> args;
    std::unique_ptr<Expr> single;
    if (auto *c = e.getAs<Cast>()) {
      args = {evaluate(c->getLHS(), ins, like, Type(), options)};
      single.reset(new Cast(_1, c->getRHSType()));
    } else if (auto *u = e.getAs<UnaryOp>()) {
      args = {evaluate(u->getArg(), ins, like, internal::operandContext(e, context), options)};
      single.reset(new UnaryOp(u->getOpType(), _1));
    } else if (auto *b = e.getAs<BinaryOp>()) {
      Type t = internal::operandType({&b->getLHS(), &b->getRHS()}, types, api_,
                                     internal::operandContext(e, context));
      args = {evaluate(b->getLHS(), ins, like, t, options),
              evaluate(b->getRHS(), ins, like, t, options)};
      single.reset(new BinaryOp(b->getOpType(), _1, _2));
    } else {
      auto &t = *e.getAs<TernaryOp>();
      std::vector<const Expr *> values = {&t.getArg0(), &t.getArg1()};
      if (t.getOpType() == TernaryOpType::CLAMP)
        values.push_back(&t.getArg2());
      Type vt = internal::operandType(values, types, api_, context);
      args = {evaluate(t.getArg0(), ins, like, vt, options),
              evaluate(t.getArg1(), ins, like, vt, options),
              evaluate(t.getArg2(), ins, like, t.getOpType() == TernaryOpType::SELECT ? BOOL : vt,
                       options)};
      single.reset(new TernaryOp(t.getOpType(), _1, _2, _3));
    }
    MapOptions generated = options;
    generated.enableGenerateCodelet = true; // a single op with no constant never generates
    run(*single, args, out, generated);
    return out;
  }

  void runOpByOp(const Expr &expr, const std::vector<Tensor> &ins, const Tensor &work,
                 const MapOptions &options) {
    Tensor result = evaluate(expr, ins, work, Type(), options);
    prog_.add(Copy(result, work, false, {dc_, api_}));
  }

  Graph &graph_;
  Sequence &prog_;
  DebugContext dc_;
  std::string api_;
};

/// The tensors of ts that expr uses, broadcast to their common shape (unused ones unchanged).
std::vector<Tensor> broadcastInputs(const Expr &expr, std::vector<Tensor> ts,
                                    const std::string &api, std::vector<std::size_t> *shapeOut) {
  auto used = internal::placeholdersOf(expr);
  for (unsigned p : used)
    if (p > ts.size())
      raise<poputil::poplibs_error>(api, ": the expression ", expr.name(), " uses placeholder _", p,
                                    " but ", ts.size(), " tensor(s) were given");
  // The common shape, as a broadcast view of the tensors seen so far (poputil's rules).
  Tensor common;
  for (unsigned p : used) {
    const Tensor &t = ts[p - 1];
    if (!t.valid())
      raise<poputil::poplibs_error>(api, ": tensor ", p, " is not valid");
    Tensor next = t;
    if (!common.valid()) {
      common = next;
      continue;
    }
    if (!poputil::canBroadcastToMatch(common, next))
      raise<poputil::poplibs_error>(api, ": tensor _", p, " of shape ", shapeText(t.shape()),
                                    " does not broadcast with the others (shape so far ",
                                    shapeText(common.shape()), ") in ", expr.name());
    poputil::broadcastToMatch(common, next);
  }
  std::vector<std::size_t> shape = common.valid() ? common.shape() : std::vector<std::size_t>{};
  for (unsigned p : used)
    poputil::broadcastToMatch(ts[p - 1], shape);
  *shapeOut = shape;
  return ts;
}

std::vector<Type> typesOf(const std::vector<Tensor> &ts) {
  std::vector<Type> types;
  for (const auto &t : ts)
    types.push_back(t.valid() ? t.elementType() : Type());
  return types;
}

} // namespace

Tensor createOutputForElementWiseOp(Graph &graph, const std::vector<Tensor> &inputs,
                                    const Type &outType, const DebugContext &debugContext) {
  if (inputs.empty())
    raise<poputil::poplibs_error>("createOutputForElementWiseOp: no inputs");
  const Tensor *best = nullptr;
  std::size_t bestTiles = 0;
  for (const auto &t : inputs) {
    if (t.shape() != inputs[0].shape())
      raise<poputil::poplibs_error>("createOutputForElementWiseOp: inputs have different shapes ",
                                    shapeText(inputs[0].shape()), " and ", shapeText(t.shape()));
    bool complete = true;
    auto mapping = graph.getTileMapping(t, &complete);
    if (!complete || t.containsAliases())
      continue;
    std::size_t tiles = 0;
    for (const auto &m : mapping)
      tiles += !m.empty();
    if (!best || tiles > bestTiles) {
      best = &t;
      bestTiles = tiles;
    }
  }
  if (best)
    return graph.clone(outType, *best, debugContext);
  Tensor out = graph.addVariable(outType, inputs[0].shape(), debugContext);
  poputil::mapTensorLinearly(graph, out);
  return out;
}

Tensor map(Graph &graph, const Expr &expr, const std::vector<Tensor> &ts, Sequence &prog,
           const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(ts, options), "map");
  const std::string api = "popops::map";
  MapOptions o = parseOptions(options, api);
  std::vector<std::size_t> shape;
  auto ins = broadcastInputs(expr, ts, api, &shape);
  Type outType = internal::exprType(expr, typesOf(ins), api);
  std::vector<Tensor> candidates;
  for (unsigned p : internal::placeholdersOf(expr))
    candidates.push_back(ins[p - 1]);
  Tensor out;
  if (candidates.empty()) {
    out = graph.addVariable(outType, shape, {di, "out"});
    poputil::mapTensorLinearly(graph, out);
  } else {
    out = createOutputForElementWiseOp(graph, candidates, outType, {di, "out"});
  }
  ElementwiseBuilder(graph, prog, {di}, api).run(expr, ins, out, o);
  di.addOutput(out);
  return out;
}

void mapInPlace(Graph &graph, const Expr &expr, const std::vector<Tensor> &ts, Sequence &prog,
                const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(ts, options), "mapInPlace");
  const std::string api = "popops::mapInPlace";
  MapOptions o = parseOptions(options, api);
  if (ts.empty())
    raise<poputil::poplibs_error>(api, ": no tensors given");
  std::vector<std::size_t> shape;
  auto ins = broadcastInputs(expr, ts, api, &shape);
  Type outType = internal::exprType(expr, typesOf(ins), api);
  const Tensor &target = ts[0];
  if (target.shape() != shape)
    raise<poputil::poplibs_error>(api, ": the result has shape ", shapeText(shape),
                                  " but the in-place tensor has shape ", shapeText(target.shape()));
  if (target.elementType() != outType)
    raise<poputil::poplibs_error>(api, ": the result of ", expr.name(), " is ", outType.toString(),
                                  " but the in-place tensor is ", target.elementType().toString());
  if (target.containsAliases())
    raise<poputil::poplibs_error>(api, ": the in-place tensor ", shapeText(target.shape()),
                                  " has elements that alias each other (a broadcast view)");
  ins[0] = target;
  // A placeholder other than _1 that reads what _1 writes would see partly updated data.
  for (unsigned p : internal::placeholdersOf(expr))
    if (p != 1 && ins[p - 1].intersectsWith(target) && ts[p - 1] != target)
      raise<poputil::poplibs_error>(api, ": tensor _", p, " overlaps the in-place tensor _1");
  ElementwiseBuilder(graph, prog, {di}, api).run(expr, ins, Tensor(), o);
}

void mapWithOutput(Graph &graph, const Expr &expr, const std::vector<Tensor> &ts, const Tensor &out,
                   Sequence &prog, const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(ts, out, options), "mapWithOutput");
  const std::string api = "popops::mapWithOutput";
  MapOptions o = parseOptions(options, api);
  std::vector<std::size_t> shape;
  auto ins = broadcastInputs(expr, ts, api, &shape);
  Type outType = internal::exprType(expr, typesOf(ins), api);
  if (out.shape() != shape)
    raise<poputil::poplibs_error>(api, ": the result of ", expr.name(), " has shape ",
                                  shapeText(shape), " but the output has shape ",
                                  shapeText(out.shape()));
  if (out.elementType() != outType)
    raise<poputil::poplibs_error>(api, ": the result of ", expr.name(), " is ", outType.toString(),
                                  " but the output is ", out.elementType().toString());
  if (out.containsAliases())
    raise<poputil::poplibs_error>(api, ": the output ", shapeText(out.shape()),
                                  " has elements that alias each other");
  ElementwiseBuilder(graph, prog, {di}, api).run(expr, ins, out, o);
}

} // namespace popops
