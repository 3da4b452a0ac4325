// The poprand API: argument checks, each distribution's vertex parameters, then generate().
#include <poprand/RandomGen.hpp>

#include "Generate.hpp"
#include "TileState.hpp"

#include <poplar/HalfFloat.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/Broadcast.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>

namespace poprand {

using namespace poplar;
using internal::Generation;
using popsdk::support::raise;

namespace {

void checkType(const char *api, const Type &type, std::initializer_list<Type> allowed) {
  std::string names;
  for (const Type &t : allowed) {
    if (t == type)
      return;
    names += (names.empty() ? "" : ", ") + t.toString();
  }
  raise<poputil::poplibs_error>(api, ": type ", type.toString(), " is not supported (", names, ")");
}

void checkProbability(const char *api, const char *name, double p) {
  if (!(p >= 0 && p <= 1))
    raise<poputil::poplibs_error>(api, ": ", name, " ", p, " is outside [0, 1]");
}

/// A probability in the vertices' units, 2^-24: a draw of 24 bits below it has probability p.
unsigned threshold(double p) { return unsigned(std::llround(p * 16777216.0)); }

/// The integer range [ceil(minVal), floor(maxVal)], checked to hold an int and be non-empty.
std::pair<double, double> intRange(const char *api, double minVal, double maxVal) {
  double lo = std::ceil(minVal), hi = std::floor(maxVal);
  if (lo < std::numeric_limits<int>::min() || hi > std::numeric_limits<int>::max())
    raise<poputil::poplibs_error>(api, ": the range [", minVal, ", ", maxVal,
                                  "] does not fit in int");
  if (lo > hi)
    raise<poputil::poplibs_error>(api, ": the range [", minVal, ", ", maxVal, "] holds no integer");
  return {lo, hi};
}

/// The smallest value of `type` >= x (up = true) or the largest <= x, for x >= 1.
double representable(const Type &type, double x, bool up) {
  if (type == INT)
    return up ? std::ceil(x) : std::floor(x);
  float f = float(x);
  if (type == HALF)
    f = halfToFloat(floatToHalf(f));
  if (up ? f >= x : f <= x)
    return f;
  if (type == FLOAT)
    return std::nextafter(f, up ? INFINITY : 0.0f);
  // Halves of one sign are ordered like their bit patterns.
  std::uint16_t h = floatToHalf(f);
  return halfToFloat(std::uint16_t(up ? h + 1 : h - 1));
}

Tensor cloneOf(Graph &graph, const Type &type, const Tensor &like, const DebugContext &dc) {
  return graph.clone(type, like, {dc, "out"});
}

} // namespace

Tensor uniform(Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &reference,
               const Type &outType, double minVal, double maxVal, program::Sequence &prog,
               const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(seed, seedModifier, reference, outType, minVal, maxVal), "uniform");
  const char *api = "poprand::uniform";
  checkType(api, outType, {FLOAT, HALF, INT});
  if (!(minVal <= maxVal))
    raise<poputil::poplibs_error>(api, ": minVal ", minVal, " is greater than maxVal ", maxVal);
  std::function<void(Graph &, VertexRef)> params;
  if (outType == INT) {
    auto [lo, hi] = intRange(api, minVal, maxVal);
    // The count of values, 2^32 for the whole int range, which the vertex encodes as 0.
    double count = hi - lo + 1;
    unsigned scale = count >= 4294967296.0 ? 0u : unsigned(count);
    params = [lo = int(lo), scale](Graph &g, VertexRef v) {
      g.setInitialValue(v["offset"], lo);
      g.setInitialValue(v["scale"], scale);
    };
  } else {
    params = [minVal, maxVal](Graph &g, VertexRef v) {
      g.setInitialValue(v["offset"], float(minVal));
      g.setInitialValue(v["scale"], float(maxVal - minVal));
    };
  }
  Tensor out = cloneOf(graph, outType, reference, {di});
  internal::generate(
      graph,
      Generation{api, "Uniform", outType, seed, seedModifier, reference, out, nullptr, params},
      prog, {di});
  di.addOutput(out);
  return out;
}

Tensor logUniform(Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &reference,
                  const Type &outType, double minVal, double maxVal, program::Sequence &prog,
                  double base, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(seed, seedModifier, reference, outType, minVal, maxVal, base),
      "logUniform");
  const char *api = "poprand::logUniform";
  checkType(api, outType, {FLOAT, HALF, INT});
  if (!(base > 0 && base != 1 && std::isfinite(base)))
    raise<poputil::poplibs_error>(api, ": base ", base, " is not a positive number other than 1");
  if (!(minVal >= 1))
    raise<poputil::poplibs_error>(api, ": minVal ", minVal, " is less than 1");
  if (!(maxVal > minVal))
    raise<poputil::poplibs_error>(api, ": maxVal ", maxVal, " is not greater than minVal ", minVal);
  if (outType == INT)
    intRange(api, minVal, maxVal);
  double lo = representable(outType, minVal, true), hi = representable(outType, maxVal, false);
  if (!(lo < hi))
    raise<poputil::poplibs_error>(api, ": [", minVal, ", ", maxVal, "] holds fewer than two ",
                                  outType.toString(), " values");
  // A log-uniform value's distribution is the same in every base: the base only names the
  // exponent's range. For int, each integer k takes the log-uniform mass of [k - 1/2, k + 1/2].
  double logLo = std::log(outType == INT ? lo - 0.5 : lo);
  double logHi = std::log(outType == INT ? hi + 0.5 : hi);
  auto params = [=](Graph &g, VertexRef v) {
    g.setInitialValue(v["logMin"], float(logLo));
    g.setInitialValue(v["logRange"], float(logHi - logLo));
    g.setInitialValue(v["minVal"], float(lo));
    g.setInitialValue(v["maxVal"], float(hi));
  };
  Tensor out = cloneOf(graph, outType, reference, {di});
  internal::generate(
      graph,
      Generation{api, "LogUniform", outType, seed, seedModifier, reference, out, nullptr, params},
      prog, {di});
  di.addOutput(out);
  return out;
}

Tensor bernoulli(Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &reference,
                 const Type &outType, double prob, program::Sequence &prog,
                 const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(seed, seedModifier, reference, outType, prob), "bernoulli");
  const char *api = "poprand::bernoulli";
  checkType(api, outType, {FLOAT, HALF, INT});
  checkProbability(api, "prob", prob);
  auto params = [t = threshold(prob)](Graph &g, VertexRef v) {
    g.setInitialValue(v["threshold"], t);
  };
  Tensor out = cloneOf(graph, outType, reference, {di});
  internal::generate(
      graph,
      Generation{api, "Bernoulli", outType, seed, seedModifier, reference, out, nullptr, params},
      prog, {di});
  di.addOutput(out);
  return out;
}

Tensor normal(Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &reference,
              const Type &outType, double mean, double stdDev, program::Sequence &prog,
              const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(seed, seedModifier, reference, outType, mean, stdDev), "normal");
  const char *api = "poprand::normal";
  checkType(api, outType, {FLOAT, HALF});
  auto params = [=](Graph &g, VertexRef v) {
    g.setInitialValue(v["mean"], float(mean));
    g.setInitialValue(v["stdDev"], float(stdDev));
  };
  Tensor out = cloneOf(graph, outType, reference, {di});
  internal::generate(
      graph,
      Generation{api, "Normal", outType, seed, seedModifier, reference, out, nullptr, params}, prog,
      {di});
  di.addOutput(out);
  return out;
}

Tensor truncatedNormal(Graph &graph, const Tensor *seed, uint32_t seedModifier,
                       const Tensor &reference, const Type &outType, double mean, double stdDev,
                       double alpha, program::Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(seed, seedModifier, reference, outType, mean, stdDev, alpha),
      "truncatedNormal");
  const char *api = "poprand::truncatedNormal";
  checkType(api, outType, {FLOAT, HALF});
  if (!(alpha > 0))
    raise<poputil::poplibs_error>(api, ": alpha ", alpha, " is not positive");
  // Enough redraws that a value is still outside [-alpha, alpha] after them with probability
  // below 1e-6 (it then becomes uniform in the range), at most 1000.
  double reject = std::erfc(alpha / std::sqrt(2.0));
  unsigned iterations = 1;
  if (reject > 1e-6)
    iterations = unsigned(std::min(1000.0, std::ceil(std::log(1e-6) / std::log(reject))));
  auto params = [=](Graph &g, VertexRef v) {
    g.setInitialValue(v["mean"], float(mean));
    g.setInitialValue(v["stdDev"], float(stdDev));
    g.setInitialValue(v["alpha"], float(alpha));
    g.setInitialValue(v["iterations"], iterations);
  };
  Tensor out = cloneOf(graph, outType, reference, {di});
  internal::generate(graph,
                     Generation{api, "TruncatedNormal", outType, seed, seedModifier, reference, out,
                                nullptr, params},
                     prog, {di});
  di.addOutput(out);
  return out;
}

Tensor dropout(Graph &graph, const Tensor *seed, const uint32_t seedModifier, const Tensor &input,
               const Tensor &reference, double keepProbability, double scale, bool outputClonesRef,
               program::Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(
      debugContext,
      DI_ARGS(seed, seedModifier, input, reference, keepProbability, scale, outputClonesRef),
      "dropout");
  const char *api = "poprand::dropout";
  checkType(api, input.elementType(), {FLOAT, HALF});
  if (input.shape() != reference.shape())
    raise<poputil::poplibs_error>(api, ": input ", input.shapeToString(), " and reference ",
                                  reference.shapeToString(), " differ in shape");
  checkProbability(api, "keepProbability", keepProbability);
  auto params = [t = threshold(keepProbability), scale](Graph &g, VertexRef v) {
    g.setInitialValue(v["threshold"], t);
    g.setInitialValue(v["scale"], float(scale));
  };
  if (!outputClonesRef)
    internal::completeMapping(graph, input, api, "input");
  Tensor out = cloneOf(graph, input.elementType(), outputClonesRef ? reference : input, {di});
  internal::generate(graph,
                     Generation{api, "Dropout", input.elementType(), seed, seedModifier, reference,
                                out, &input, params},
                     prog, {di});
  di.addOutput(out);
  return out;
}

Tensor dropout(Graph &graph, const Tensor *seed, const uint32_t seedModifier, const Tensor &input,
               const Tensor &reference, double keepProbability, double scale,
               program::Sequence &prog, const DebugContext &debugContext) {
  return dropout(graph, seed, seedModifier, input, reference, keepProbability, scale, true, prog,
                 debugContext);
}

Tensor shapedDropout(Graph &graph, const Tensor *seed, const uint32_t seedModifier,
                     const Tensor &input, const Tensor &reference, double keepProbability,
                     double scale, program::Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(seed, seedModifier, input, reference, keepProbability, scale),
      "shapedDropout");
  const char *api = "poprand::shapedDropout";
  const Type type = input.elementType();
  checkType(api, type, {FLOAT, HALF});
  Tensor broadcast = reference;
  bool broadcastable = reference.rank() <= input.rank();
  if (broadcastable) {
    try {
      poputil::broadcastToMatch(broadcast, input.shape());
    } catch (const poputil::poplibs_error &) {
      broadcastable = false;
    }
  }
  if (!broadcastable)
    raise<poputil::poplibs_error>(api, ": reference ", reference.shapeToString(),
                                  " does not broadcast to input ", input.shapeToString());
  checkProbability(api, "keepProbability", keepProbability);
  // The mask, `scale` where kept and 0 elsewhere, laid out as the reference: dropout of ones.
  Tensor ones = graph.addConstant(type, reference.shape(), 1.0f, {di, "ones"});
  graph.setTileMapping(ones, internal::completeMapping(graph, reference, api, "reference"));
  Tensor mask = dropout(graph, seed, seedModifier, ones, reference, keepProbability, scale, true,
                        prog, {di, "mask"});
  Tensor out = popops::mul(graph, input, mask, prog, {di, "apply"});
  di.addOutput(out);
  return out;
}

void setSeed(Graph &graph, const Tensor &masterSeed, uint32_t seedModifier, program::Sequence &prog,
             const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(masterSeed, seedModifier), "setSeed");
  internal::checkSeed(masterSeed, "poprand::setSeed");
  std::vector<unsigned> tiles(graph.getTarget().getNumTiles());
  for (unsigned t = 0; t < tiles.size(); ++t)
    tiles[t] = t;
  internal::addSetSeed(graph, internal::tileState(graph), tiles, masterSeed, seedModifier, prog,
                       {di});
}

} // namespace poprand
