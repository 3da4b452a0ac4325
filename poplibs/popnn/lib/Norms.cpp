// The normalisations' shared implementation: statistics as popops reductions over the 4-D view
// of the activations, whitening, the affine step and the gradients as fused popops maps with the
// statistics and parameters broadcast.
#include "Norms.hpp"

#include "Checks.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <poputil/exceptions.hpp>

#include "support/OptionSpec.hpp"
#include "support/Raise.hpp"

namespace popnn::internal {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;
namespace pe = popops::expr;

namespace {

std::size_t channelsOf(const Tensor &acts) { return acts.dim(1); }

void checkActs(const std::string &api, const std::string &name, const Tensor &acts) {
  checkFloatingPoint(api, name, acts);
  checkMinRank(api, name, acts, 2);
}

/// P and Q of the view [batch, P, Q, field].
std::pair<std::size_t, std::size_t> channelSplit(const NormGrouping &g, std::size_t channels) {
  if (g.perChannel)
    return {1, channels};
  return g.strided ? std::make_pair(channels / g.numGroups, std::size_t(g.numGroups))
                   : std::make_pair(std::size_t(g.numGroups), channels / g.numGroups);
}

/// acts [batch, channels, field...] as [batch, P, Q, field].
Tensor view4(const NormGrouping &g, const Tensor &acts) {
  auto [p, q] = channelSplit(g, channelsOf(acts));
  std::size_t field = acts.numElements() / (acts.dim(0) * channelsOf(acts));
  return acts.reshape({acts.dim(0), p, q, field});
}

/// The view dimensions each statistic sums over.
std::vector<std::size_t> statisticDims(const NormGrouping &g) {
  if (g.perChannel)
    return {0, 1, 3};
  return g.strided ? std::vector<std::size_t>{1, 3} : std::vector<std::size_t>{2, 3};
}

/// The view's shape with the statistic dimensions kept as 1, for broadcasting.
std::vector<std::size_t> statisticShape(const NormGrouping &g, const Tensor &view) {
  auto shape = view.shape();
  for (auto d : statisticDims(g))
    shape[d] = 1;
  return shape;
}

std::size_t elementsPerStatistic(const NormGrouping &g, const Tensor &view) {
  std::size_t n = 1;
  for (auto d : statisticDims(g))
    n *= view.dim(d);
  return n;
}

/// A statistic tensor (mean or invStdDev) checked against acts and shaped to broadcast.
Tensor statisticView(const std::string &api, const std::string &name, const NormGrouping &g,
                     const Tensor &view, const Tensor &stat, const Type &type) {
  auto shape = statisticShape(g, view);
  std::size_t n = 1;
  for (auto s : shape)
    n *= s;
  if (stat.numElements() != n)
    raise<poputil::poplibs_error>(api, ": ", name, " has shape ", shapeText(stat.shape()), " (",
                                  stat.numElements(), " elements) but the activations need ", n);
  checkType(api, name, stat, type);
  return stat.reshape(shape);
}

/// gamma, beta, ... [channels] shaped [1, P, Q, 1] to broadcast against the view.
Tensor channelView(const std::string &api, const std::string &name, const Tensor &view,
                   const Tensor &param) {
  checkShape(api, name, param, {view.dim(1) * view.dim(2)});
  return param.reshape({1, view.dim(1), view.dim(2), 1});
}

pe::Cast as(unsigned placeholder, const Type &type) {
  return pe::Cast(pe::PlaceHolder(placeholder), type);
}

} // namespace

NormGrouping groupNormGrouping(const std::string &api, const Tensor &acts, unsigned numGroups,
                               const OptionFlags &options) {
  checkActs(api, "acts", acts);
  if (numGroups == 0 || channelsOf(acts) % numGroups != 0)
    raise<poputil::poplibs_error>(api, ": numGroups = ", numGroups, " does not divide the ",
                                  channelsOf(acts), " channels of acts ", shapeText(acts.shape()));
  NormGrouping g;
  g.numGroups = numGroups;
  popsdk::support::OptionSpec{
      {"groupNormStridedChannelGrouping", popsdk::support::OptionHandler::boolean(g.strided)}}
      .parse(api, options);
  return g;
}

unsigned groupsOfStatistics(const std::string &api, const Tensor &acts, const Tensor &statistics) {
  checkActs(api, "acts", acts);
  std::size_t batch = acts.dim(0);
  if (batch == 0 || statistics.numElements() % batch != 0)
    raise<poputil::poplibs_error>(api, ": the statistics have ", statistics.numElements(),
                                  " elements, not a multiple of the batch size ", batch);
  return unsigned(statistics.numElements() / batch);
}

void checkNormOptions(const std::string &api, const OptionFlags &options) {
  bool ignored;
  popsdk::support::OptionSpec{
      {"groupNormStridedChannelGrouping", popsdk::support::OptionHandler::boolean(ignored)}}
      .parse(api, options);
}

std::pair<Tensor, Tensor> normStatistics(Graph &graph, const std::string &api,
                                         const NormGrouping &g, const Tensor &acts, float eps,
                                         Sequence &prog, bool unbiasedVarEstimate, bool stableAlgo,
                                         const Type &partialsType, const DebugContext &dc) {
  checkActs(api, "acts", acts);
  if (partialsType != FLOAT && partialsType != HALF)
    raise<poputil::poplibs_error>(api, ": partialsType is ", partialsType,
                                  " but must be float or half");
  Tensor x = view4(g, acts);
  auto dims = statisticDims(g);
  std::size_t n = elementsPerStatistic(g, x);
  if (n == 0 || (unbiasedVarEstimate && n == 1))
    raise<poputil::poplibs_error>(api, ": each statistic of acts ", shapeText(acts.shape()),
                                  " covers ", n, " elements; an",
                                  unbiasedVarEstimate ? " unbiased" : "", " estimate needs more");
  const Type type = acts.elementType();
  const float invN = 1.0f / float(n);
  const float varScale = unbiasedVarEstimate ? float(n) / float(n - 1) : 1.0f;
  Tensor sum =
      popops::reduce(graph, x, partialsType, dims, {popops::Operation::ADD}, prog, {dc, "sum"});
  Tensor mean = popops::map(graph, pe::Mul(pe::_1, pe::Const(invN)), {sum}, prog, {dc, "mean"});
  Tensor variance;
  if (stableAlgo) {
    // Squares of the centred values: no cancellation between two large sums.
    Tensor centred = popops::map(graph, pe::Sub(as(1, partialsType), pe::_2),
                                 {x, mean.reshape(statisticShape(g, x))}, prog, {dc, "centred"});
    Tensor squares = popops::reduce(graph, centred, partialsType, dims,
                                    {popops::Operation::SQUARE_ADD}, prog, {dc, "sumSquares"});
    variance = popops::map(graph, pe::Mul(pe::_1, pe::Const(invN * varScale)), {squares}, prog,
                           {dc, "variance"});
  } else {
    Tensor squares = popops::reduce(graph, x, partialsType, dims, {popops::Operation::SQUARE_ADD},
                                    prog, {dc, "sumSquares"});
    // E[x^2] - E[x]^2, clamped at 0 where rounding makes it negative.
    variance =
        popops::map(graph,
                    pe::Mul(pe::Max(pe::Sub(pe::Mul(pe::_2, pe::Const(invN)), pe::Square(pe::_1)),
                                    pe::Const(0.0f)),
                            pe::Const(varScale)),
                    {mean, squares}, prog, {dc, "variance"});
  }
  Tensor invStdDev = popops::map(
      graph, pe::Cast(pe::Divide(pe::Const(1.0f), pe::Sqrt(pe::Add(pe::_1, pe::Const(eps)))), type),
      {variance}, prog, {dc, "invStdDev"});
  Tensor meanOut = popops::map(graph, as(1, type), {mean}, prog, {dc, "meanOut"});
  return {meanOut.flatten(), invStdDev.flatten()};
}

Tensor normWhiten(Graph &graph, const std::string &api, const NormGrouping &g, const Tensor &acts,
                  const Tensor &mean, const Tensor &invStdDev, Sequence &prog,
                  const DebugContext &dc) {
  checkActs(api, "acts", acts);
  Tensor x = view4(g, acts);
  Tensor m = statisticView(api, "mean", g, x, mean, acts.elementType());
  Tensor s = statisticView(api, "invStdDev", g, x, invStdDev, acts.elementType());
  Tensor out =
      popops::map(graph, pe::Mul(pe::Sub(pe::_1, pe::_2), pe::_3), {x, m, s}, prog, {dc, "whiten"});
  return out.reshape(acts.shape());
}

Tensor normAffine(Graph &graph, const std::string &api, const Tensor &acts,
                  const Tensor &multiplicand, const Tensor &addend, Sequence &prog,
                  const DebugContext &dc) {
  checkActs(api, "acts", acts);
  Tensor x = view4(NormGrouping{true}, acts);
  checkType(api, "gamma", multiplicand, acts.elementType());
  checkType(api, "beta", addend, acts.elementType());
  Tensor out = popops::map(
      graph, pe::Add(pe::Mul(pe::_1, pe::_2), pe::_3),
      {x, channelView(api, "gamma", x, multiplicand), channelView(api, "beta", x, addend)}, prog,
      {dc, "affine"});
  return out.reshape(acts.shape());
}

std::pair<Tensor, Tensor> normParamGradients(Graph &graph, const std::string &api,
                                             const Tensor &actsWhitened, const Tensor &gradsIn,
                                             Sequence &prog, const Type &partialsType,
                                             const DebugContext &dc) {
  checkActs(api, "actsWhitened", actsWhitened);
  checkShape(api, "gradsIn", gradsIn, actsWhitened.shape());
  checkType(api, "gradsIn", gradsIn, actsWhitened.elementType());
  const Type type = actsWhitened.elementType();
  NormGrouping perChannel{true};
  Tensor x = view4(perChannel, actsWhitened), d = view4(perChannel, gradsIn);
  Tensor products = popops::map(graph, pe::Mul(as(1, partialsType), as(2, partialsType)), {x, d},
                                prog, {dc, "gradsTimesWhitened"});
  std::vector<Tensor> outs;
  popops::reduceMany(graph,
                     {popops::SingleReduceOp(products, {0, 1, 3}, {popops::Operation::ADD}, type),
                      popops::SingleReduceOp(d, {0, 1, 3}, {popops::Operation::ADD}, type)},
                     outs, prog, {dc, "paramGradients"});
  return {outs[0], outs[1]};
}

Tensor normGradients(Graph &graph, const std::string &api, const NormGrouping &g,
                     const Tensor &actsWhitened, const Tensor &gradsIn, const Tensor &invStdDev,
                     const Tensor &gamma, Sequence &prog, const Type &partialsType,
                     const DebugContext &dc) {
  checkActs(api, "actsWhitened", actsWhitened);
  checkShape(api, "gradsIn", gradsIn, actsWhitened.shape());
  checkType(api, "gradsIn", gradsIn, actsWhitened.elementType());
  checkType(api, "gamma", gamma, actsWhitened.elementType());
  const Type type = actsWhitened.elementType();
  Tensor x = view4(g, actsWhitened), d = view4(g, gradsIn);
  Tensor s = statisticView(api, "invStdDev", g, x, invStdDev, type);
  Tensor gam = channelView(api, "gamma", x, gamma);
  auto dims = statisticDims(g);
  const float invN = 1.0f / float(elementsPerStatistic(g, x));
  // dWhitened = gradsIn * gamma; the two means over each statistic's set.
  Tensor dx = popops::map(graph, pe::Mul(as(1, partialsType), as(2, partialsType)), {d, gam}, prog,
                          {dc, "dWhitened"});
  Tensor dxx = popops::map(graph, pe::Mul(pe::_1, as(2, partialsType)), {dx, x}, prog,
                           {dc, "dWhitenedTimesWhitened"});
  std::vector<Tensor> sums;
  popops::reduceMany(graph,
                     {popops::SingleReduceOp(dx, dims, {popops::Operation::ADD}, partialsType),
                      popops::SingleReduceOp(dxx, dims, {popops::Operation::ADD}, partialsType)},
                     sums, prog, {dc, "sums"});
  auto shape = statisticShape(g, x);
  auto grad = pe::Mul(as(5, partialsType),
                      pe::Sub(pe::Sub(pe::_1, pe::Mul(pe::_3, pe::Const(invN))),
                              pe::Mul(as(2, partialsType), pe::Mul(pe::_4, pe::Const(invN)))));
  Tensor out = popops::map(graph, pe::Cast(grad, type),
                           {dx, x, sums[0].reshape(shape), sums[1].reshape(shape), s}, prog,
                           {dc, "gradients"});
  return out.reshape(actsWhitened.shape());
}

void normParamUpdate(Graph &graph, const std::string &api, const Tensor &gammaDelta,
                     const Tensor &betaDelta, const Tensor *scaleTensor, float scale,
                     const Tensor &gamma, const Tensor &beta, Sequence &prog,
                     const DebugContext &dc) {
  checkShape(api, "gammaDelta", gammaDelta, gamma.shape());
  checkShape(api, "betaDelta", betaDelta, beta.shape());
  checkShape(api, "beta", beta, gamma.shape());
  // One scaled subtract over gamma and beta together.
  Tensor params = concat(gamma.flatten(), beta.flatten());
  Tensor deltas = concat(gammaDelta.flatten(), betaDelta.flatten());
  if (scaleTensor)
    popops::scaledSubtractFrom(graph, params, deltas, *scaleTensor, prog, {dc, "update"});
  else
    popops::scaledSubtractFrom(graph, params, deltas, scale, prog, {dc, "update"});
}

} // namespace popnn::internal
