// popops::scaledAddTo and scaledSubtractFrom: one ScaledAdd1D/2D form, A = a.A + b.B, with the
// scales as one-element tensors of the compute type (constants, or the caller's tensors).
#include <popops/ScaledAdd.hpp>

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>

#include "TileRegions.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include "support/OptionSpec.hpp"
#include "support/Raise.hpp"

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

/// The type the vertex computes in (and its scales have): float for half.
Type computeType(const Type &t) { return t == HALF ? FLOAT : t; }

void checkOptions(const OptionFlags &flags, const std::string &api) {
  bool optimizeForSpeed = false;
  double tolerance = 1e-6;
  using H = popsdk::support::OptionHandler;
  popsdk::support::OptionSpec{
      {"optimizeForSpeed", H::boolean(optimizeForSpeed)},
      {"scaleFloatToHalfTolerance", H::number(tolerance, 0)},
  }
      .parse(api, flags);
}

/// A scale tensor as the vertex reads it: one element of the compute type.
Tensor scaleTensor(Graph &graph, const Tensor &scale, const Type &type, Sequence &prog,
                   const DebugContext &dc, const std::string &api) {
  if (scale.numElements() != 1)
    raise<poputil::poplibs_error>(api, ": a scale must have one element, not ", scale.numElements(),
                                  " (shape ", shapeText(scale.shape()), ")");
  Tensor s = scale.flatten();
  if (s.elementType() != type)
    s = cast(graph, s, type, prog, {dc, "scale"});
  return s;
}

Tensor constantScale(Graph &graph, double value, const Type &type, const DebugContext &dc) {
  Tensor k = graph.addConstant(type, {1}, value, {dc, "scale"});
  graph.setTileMapping(k, 0);
  return k;
}

/// A = scaleA * A + scaleB * B, the scales already one-element tensors of A's compute type.
void scaledArithmetic(Graph &graph, const Tensor &A, const Tensor &scaleA, const Tensor &B,
                      const Tensor &scaleB, Sequence &prog, const DebugContext &dc,
                      const std::string &api) {
  if (A.shape() != B.shape())
    raise<poputil::poplibs_error>(api, ": A ", shapeText(A.shape()), " and B ",
                                  shapeText(B.shape()), " have different shapes");
  if (A.elementType() != B.elementType())
    raise<poputil::poplibs_error>(api, ": A is ", A.elementType().toString(), " but B is ",
                                  B.elementType().toString());
  if (A.containsAliases())
    raise<poputil::poplibs_error>(api, ": A ", shapeText(A.shape()),
                                  " has elements that alias each other");
  Type type = A.elementType();
  if (type != FLOAT && type != HALF && type != INT && type != UNSIGNED_INT)
    raise<poputil::poplibs_error>(api, ": not defined for ", type.toString(),
                                  " (defined for float, half, int, unsigned int)");
  ComputeSet cs = graph.addComputeSet({dc, api});
  internal::addElementwiseVertices(graph, cs, A, api,
                                   poputil::templateVertex("popops::ScaledAdd1D", type),
                                   poputil::templateVertex("popops::ScaledAdd2D", type),
                                   {{"A", A.flatten()}, {"B", B.flatten()}}, [&](VertexRef v) {
                                     graph.connect(v["scaleA"], scaleA);
                                     graph.connect(v["scaleB"], scaleB);
                                   });
  prog.add(Execute(cs, {dc}));
}

/// The common path of every overload: scales given as constants or tensors, with a sign on b
/// (subtract) and X_MINUS_AX_PLUS_BY turning a into 1 - a.
struct Scale {
  bool isTensor;
  float value;
  Tensor tensor;
};

void scaled(Graph &graph, const Tensor &A, Scale a, const Tensor &B, Scale b, bool subtract,
            ScaledAddSpecialisation speciality, Sequence &prog, const DebugContext &debugContext,
            const OptionFlags &options, const std::string &api) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(A, B, options), api);
  checkOptions(options, api);
  Type type = computeType(A.elementType());
  auto materialise = [&](const Scale &s, bool negate, bool oneMinus) {
    if (!s.isTensor)
      return constantScale(graph,
                           oneMinus ? 1.0 - s.value
                           : negate ? -s.value
                                    : s.value,
                           type, {di});
    Tensor t = scaleTensor(graph, s.tensor, type, prog, {di}, api);
    if (negate)
      t = neg(graph, t, prog, {di, "negate"});
    if (oneMinus)
      t = map(graph, expr::Const(1) - expr::_1, {t}, prog, {di, "oneMinus"});
    return t;
  };
  Tensor sa = materialise(a, false, speciality == ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY);
  Tensor sb = materialise(b, subtract, false);
  scaledArithmetic(graph, A, sa, B, sb, prog, {di}, api);
}

Scale constant(float v) { return {false, v, Tensor()}; }
Scale tensor(const Tensor &t) { return {true, 0, t}; }

} // namespace

void scaledAddTo(Graph &graph, Tensor A, Tensor B, float scaleB, Sequence &prog,
                 const DebugContext &dc, const OptionFlags &options) {
  scaled(graph, A, constant(1), B, constant(scaleB), false, ScaledAddSpecialisation::DEFAULT, prog,
         dc, options, "popops::scaledAddTo");
}
void scaledAddTo(Graph &graph, Tensor A, Tensor B, Tensor scaleB, Sequence &prog,
                 const DebugContext &dc, const OptionFlags &options) {
  scaled(graph, A, constant(1), B, tensor(scaleB), false, ScaledAddSpecialisation::DEFAULT, prog,
         dc, options, "popops::scaledAddTo");
}
void scaledSubtractFrom(Graph &graph, Tensor A, Tensor B, float scaleB, Sequence &prog,
                        const DebugContext &dc, const OptionFlags &options) {
  scaled(graph, A, constant(1), B, constant(scaleB), true, ScaledAddSpecialisation::DEFAULT, prog,
         dc, options, "popops::scaledSubtractFrom");
}
void scaledSubtractFrom(Graph &graph, Tensor A, Tensor B, Tensor scaleB, Sequence &prog,
                        const DebugContext &dc, const OptionFlags &options) {
  scaled(graph, A, constant(1), B, tensor(scaleB), true, ScaledAddSpecialisation::DEFAULT, prog, dc,
         options, "popops::scaledSubtractFrom");
}
void scaledAddTo(Graph &graph, Tensor A, float scaleA, Tensor B, float scaleB, Sequence &prog,
                 const DebugContext &dc, const OptionFlags &options) {
  scaled(graph, A, constant(scaleA), B, constant(scaleB), false, ScaledAddSpecialisation::DEFAULT,
         prog, dc, options, "popops::scaledAddTo");
}
void scaledAddTo(Graph &graph, Tensor A, Tensor scaleA, Tensor B, Tensor scaleB, Sequence &prog,
                 const DebugContext &dc, const OptionFlags &options) {
  scaled(graph, A, tensor(scaleA), B, tensor(scaleB), false, ScaledAddSpecialisation::DEFAULT, prog,
         dc, options, "popops::scaledAddTo");
}
void scaledAddTo(Graph &graph, Tensor A, float scaleA, Tensor B, float scaleB, Sequence &prog,
                 ScaledAddSpecialisation speciality, const DebugContext &dc,
                 const OptionFlags &options) {
  scaled(graph, A, constant(scaleA), B, constant(scaleB), false, speciality, prog, dc, options,
         "popops::scaledAddTo");
}
void scaledAddTo(Graph &graph, Tensor A, Tensor scaleA, Tensor B, Tensor scaleB, Sequence &prog,
                 ScaledAddSpecialisation speciality, const DebugContext &dc,
                 const OptionFlags &options) {
  scaled(graph, A, tensor(scaleA), B, tensor(scaleB), false, speciality, prog, dc, options,
         "popops::scaledAddTo");
}
void scaledSubtractFrom(Graph &graph, Tensor A, float scaleA, Tensor B, float scaleB,
                        Sequence &prog, const DebugContext &dc, const OptionFlags &options) {
  scaled(graph, A, constant(scaleA), B, constant(scaleB), true, ScaledAddSpecialisation::DEFAULT,
         prog, dc, options, "popops::scaledSubtractFrom");
}
void scaledSubtractFrom(Graph &graph, Tensor A, Tensor scaleA, Tensor B, Tensor scaleB,
                        Sequence &prog, const DebugContext &dc, const OptionFlags &options) {
  scaled(graph, A, tensor(scaleA), B, tensor(scaleB), true, ScaledAddSpecialisation::DEFAULT, prog,
         dc, options, "popops::scaledSubtractFrom");
}

} // namespace popops
