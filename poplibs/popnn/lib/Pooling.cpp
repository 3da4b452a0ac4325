// popnn pooling, composed of popops ops on views: the input padded (or truncated) per field
// dimension, one strided window view per kernel position stacked into [kernel, batch, channels,
// out...] and reduced over the kernel (MAX or ADD; AVG then scaled by each window's count of
// input elements). The gradient adds each kernel position's share into that position's view of a
// zeroed padded gradient, then drops the padding.
#include <popnn/Pooling.hpp>

#include "Checks.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include "support/OptionSpec.hpp"
#include "support/Raise.hpp"

#include <limits>
#include <ostream>

namespace popnn::pooling {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;
namespace pe = popops::expr;

const char *asString(const PoolingType &method) {
  switch (method) {
  case PoolingType::MAX:
    return "max";
  case PoolingType::AVG:
    return "avg";
  case PoolingType::SUM:
    return "sum";
  }
  throw poputil::poplibs_error("popnn::pooling: unknown PoolingType " +
                               std::to_string(static_cast<int>(method)));
}

std::vector<std::size_t> PoolParams::getOutputFieldShape() const {
  std::vector<std::size_t> out;
  for (std::size_t d = 0; d < inputFieldShape.size(); ++d) {
    long padded = long(inputFieldShape[d]) + inputTruncationOrPaddingLower[d] +
                  inputTruncationOrPaddingUpper[d];
    out.push_back(padded < long(kernelShape[d]) ? 0 : (padded - kernelShape[d]) / stride[d] + 1);
  }
  return out;
}

std::vector<std::size_t> getOutputFieldShape(const PoolParams &params) {
  return params.getOutputFieldShape();
}

std::ostream &operator<<(std::ostream &os, const PoolParams &p) {
  return os << "PoolParams{" << asString(p.poolingType)
            << ", field=" << shapeText(p.inputFieldShape) << ", kernel=" << shapeText(p.kernelShape)
            << ", stride=" << shapeText(p.stride)
            << ", paddingLower=" << shapeText(p.inputTruncationOrPaddingLower)
            << ", paddingUpper=" << shapeText(p.inputTruncationOrPaddingUpper)
            << ", channels=" << p.numChannels << ", batch=" << p.batchSize << ", " << p.dType
            << "}";
}

namespace {

std::size_t product(const std::vector<std::size_t> &v) {
  std::size_t n = 1;
  for (auto x : v)
    n *= x;
  return n;
}

std::uint64_t flops(const PoolParams &p) {
  return std::uint64_t(p.batchSize) * p.numChannels * product(p.getOutputFieldShape()) *
         product(p.kernelShape);
}

} // namespace

std::uint64_t getFwdFlops(const PoolParams &params) { return flops(params); }
std::uint64_t getBwdFlops(const PoolParams &params) { return flops(params); }

namespace {

void checkParams(const std::string &api, const PoolParams &p) {
  std::size_t n = p.inputFieldShape.size();
  if (n == 0)
    raise<poputil::poplibs_error>(api, ": the input field has no dimensions");
  if (p.kernelShape.size() != n || p.stride.size() != n ||
      p.inputTruncationOrPaddingLower.size() != n || p.inputTruncationOrPaddingUpper.size() != n)
    raise<poputil::poplibs_error>(api, ": ", p, ": kernelShape, stride and the paddings need ", n,
                                  " entries, one per field dimension");
  if (p.dType != FLOAT && p.dType != HALF)
    raise<poputil::poplibs_error>(api, ": dType is ", p.dType, " but must be float or half");
  if (p.poolingType != PoolingType::MAX && p.poolingType != PoolingType::AVG &&
      p.poolingType != PoolingType::SUM)
    raise<poputil::poplibs_error>(api, ": unknown PoolingType ", int(p.poolingType));
  for (std::size_t d = 0; d < n; ++d) {
    long padded = long(p.inputFieldShape[d]) + p.inputTruncationOrPaddingLower[d] +
                  p.inputTruncationOrPaddingUpper[d];
    if (p.kernelShape[d] == 0 || p.stride[d] == 0 || padded < long(p.kernelShape[d]) ||
        -p.inputTruncationOrPaddingLower[d] > long(p.inputFieldShape[d]))
      raise<poputil::poplibs_error>(api, ": ", p, ": field dimension ", d, " (size ", padded,
                                    " after padding) cannot hold kernel ", p.kernelShape[d],
                                    " with stride ", p.stride[d]);
  }
}

std::vector<std::size_t> inputShape(const PoolParams &p) {
  std::vector<std::size_t> s = {p.batchSize, p.numChannels};
  s.insert(s.end(), p.inputFieldShape.begin(), p.inputFieldShape.end());
  return s;
}

std::vector<std::size_t> outputShape(const PoolParams &p) {
  std::vector<std::size_t> s = {p.batchSize, p.numChannels};
  auto out = p.getOutputFieldShape();
  s.insert(s.end(), out.begin(), out.end());
  return s;
}

void checkOptions(const std::string &api, const OptionFlags &options) {
  bool introspective;
  popsdk::support::OptionSpec{
      {"poolUseIntrospectiveMapping", popsdk::support::OptionHandler::boolean(introspective)}}
      .parse(api, options);
}

/// `t` with each field dimension truncated or padded with `value` (constants on tile 0).
Tensor padField(Graph &graph, const PoolParams &p, Tensor t, double value, const DebugContext &dc) {
  for (std::size_t d = 0; d < p.getNumFieldDims(); ++d) {
    unsigned dim = unsigned(d + 2);
    int lower = p.inputTruncationOrPaddingLower[d], upper = p.inputTruncationOrPaddingUpper[d];
    t = t.slice(std::size_t(std::max(0, -lower)), t.dim(dim) - std::size_t(std::max(0, -upper)),
                dim);
    auto pad = [&](int n) {
      auto shape = t.shape();
      shape[dim] = std::size_t(n);
      Tensor c = graph.addConstant(t.elementType(), shape, value, {dc, "padding"});
      graph.setTileMapping(c, 0);
      return c;
    };
    if (lower > 0)
      t = concat(pad(lower), t, dim);
    if (upper > 0)
      t = concat(t, pad(upper), dim);
  }
  return t;
}

/// The view of a padded tensor that kernel position `k` (row-major over the kernel) reads for
/// every output position: [batch, channels, out...].
Tensor window(const PoolParams &p, const Tensor &padded, std::size_t k) {
  auto out = p.getOutputFieldShape();
  Tensor t = padded;
  for (std::size_t d = p.getNumFieldDims(); d-- > 0;) {
    std::size_t offset = k % p.kernelShape[d];
    k /= p.kernelShape[d];
    unsigned dim = unsigned(d + 2);
    t = t.slice(offset, offset + (out[d] - 1) * p.stride[d] + 1, dim).subSample(p.stride[d], dim);
  }
  return t;
}

/// Every kernel position's window stacked: [kernel, batch, channels, out...].
Tensor stackedWindows(const PoolParams &p, const Tensor &padded) {
  std::vector<Tensor> views;
  for (std::size_t k = 0; k < product(p.kernelShape); ++k)
    views.push_back(window(p, padded, k).expand({0}));
  return concat(views, 0);
}

/// 1 / (the input elements each output's window covers), [1, 1, out...], for AVG.
Tensor averageScale(Graph &graph, const PoolParams &p, const DebugContext &dc) {
  auto out = p.getOutputFieldShape();
  std::vector<float> scale(product(out));
  for (std::size_t i = 0; i < scale.size(); ++i) {
    std::size_t rest = i, count = 1;
    for (std::size_t d = p.getNumFieldDims(); d-- > 0;) {
      long o = long(rest % out[d]);
      rest /= out[d];
      long lower = std::max(0, p.inputTruncationOrPaddingLower[d]);
      long inside = long(p.inputFieldShape[d]) + std::min(0, p.inputTruncationOrPaddingLower[d]) +
                    std::min(0, p.inputTruncationOrPaddingUpper[d]);
      long begin = o * long(p.stride[d]), end = begin + long(p.kernelShape[d]);
      count *= std::size_t(std::max(0L, std::min(end, lower + inside) - std::max(begin, lower)));
    }
    scale[i] = count ? 1.0f / float(count) : 0.0f;
  }
  std::vector<std::size_t> shape = {1, 1};
  shape.insert(shape.end(), out.begin(), out.end());
  Tensor c = graph.addConstant(p.dType, shape, ArrayRef<float>(scale), {dc, "avgScale"});
  poputil::mapTensorLinearly(graph, c);
  return c;
}

/// The input gradient from each kernel position's share ([kernel, batch, channels, out...], or
/// one share for every position): added into its view of a zeroed padded gradient, then the
/// padding dropped (truncated input elements get 0).
Tensor scatterShares(Graph &graph, const PoolParams &p, const Tensor &in, const Tensor &shares,
                     bool perPosition, Sequence &prog, const DebugContext &dc) {
  Tensor padded = padField(graph, p, in, 0, dc);
  Tensor grad = graph.addVariable(p.dType, padded.shape(), {dc, "paddedGradient"});
  poputil::mapTensorLinearly(graph, grad);
  popops::zero(graph, grad, prog, {dc, "zero"});
  for (std::size_t k = 0; k < product(p.kernelShape); ++k)
    popops::addInPlace(graph, window(p, grad, k), perPosition ? shares[k] : shares, prog,
                       {dc, "scatter"});
  Tensor inner = grad;
  bool truncated = false;
  for (std::size_t d = 0; d < p.getNumFieldDims(); ++d) {
    unsigned dim = unsigned(d + 2);
    int lower = p.inputTruncationOrPaddingLower[d], upper = p.inputTruncationOrPaddingUpper[d];
    truncated |= lower < 0 || upper < 0;
    inner = inner.slice(std::size_t(std::max(0, lower)),
                        inner.dim(dim) - std::size_t(std::max(0, upper)), dim);
  }
  Tensor out = graph.clone(in, {dc, "inGradient"});
  Tensor target = out;
  if (truncated) {
    popops::zero(graph, out, prog, {dc, "zeroTruncated"});
    for (std::size_t d = 0; d < p.getNumFieldDims(); ++d) {
      unsigned dim = unsigned(d + 2);
      target = target.slice(
          std::size_t(std::max(0, -p.inputTruncationOrPaddingLower[d])),
          target.dim(dim) - std::size_t(std::max(0, -p.inputTruncationOrPaddingUpper[d])), dim);
    }
  }
  prog.add(Copy(inner, target, false, {dc}));
  return out;
}

Tensor avgSumGradient(Graph &graph, const PoolParams &p, const Tensor &in,
                      const Tensor &pooledGradient, Sequence &prog, const DebugContext &dc) {
  Tensor share = pooledGradient;
  if (p.poolingType == PoolingType::AVG)
    share = popops::map(graph, pe::Mul(pe::_1, pe::_2), {share, averageScale(graph, p, dc)}, prog,
                        {dc, "share"});
  return scatterShares(graph, p, in, share, false, prog, dc);
}

} // namespace

Tensor pool(Graph &graph, const PoolParams &params, const Tensor &in, Sequence &prog,
            const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, options));
  const std::string api = "popnn::pooling::pool";
  checkParams(api, params);
  checkOptions(api, options);
  internal::checkShape(api, "in", in, inputShape(params));
  internal::checkType(api, "in", in, params.dType);
  bool isMax = params.poolingType == PoolingType::MAX;
  Tensor padded =
      padField(graph, params, in, isMax ? -std::numeric_limits<double>::infinity() : 0.0, {di});
  Tensor out = popops::reduce(graph, stackedWindows(params, padded), params.dType, {0},
                              {isMax ? popops::Operation::MAX : popops::Operation::ADD}, prog,
                              {di, asString(params.poolingType)});
  if (params.poolingType == PoolingType::AVG)
    popops::mapInPlace(graph, pe::Mul(pe::_1, pe::_2), {out, averageScale(graph, params, {di})},
                       prog, {di, "average"});
  di.addOutput(out);
  return out;
}

Tensor poolInputGradient(Graph &graph, const PoolParams &params, const Tensor &in,
                         const Tensor &pooled, const Tensor &pooledGradient, bool useScaledGradient,
                         Sequence &prog, const DebugContext &debugContext,
                         const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(in, pooled, pooledGradient, useScaledGradient, options));
  const std::string api = "popnn::pooling::poolInputGradient";
  checkParams(api, params);
  checkOptions(api, options);
  internal::checkShape(api, "in", in, inputShape(params));
  internal::checkType(api, "in", in, params.dType);
  internal::checkShape(api, "pooledGradient", pooledGradient, outputShape(params));
  internal::checkType(api, "pooledGradient", pooledGradient, params.dType);
  if (params.poolingType != PoolingType::MAX) {
    Tensor out = avgSumGradient(graph, params, in, pooledGradient, prog, {di});
    di.addOutput(out);
    return out;
  }
  internal::checkShape(api, "pooled", pooled, outputShape(params));
  internal::checkType(api, "pooled", pooled, params.dType);
  // Which window elements equal their output's maximum, as 1 or 0.
  Tensor padded = padField(graph, params, in, -std::numeric_limits<double>::infinity(), {di});
  Tensor hits =
      popops::map(graph, pe::Cast(pe::Equal(pe::_1, pe::_2), params.dType),
                  {stackedWindows(params, padded), pooled.expand({0})}, prog, {di, "maxima"});
  Tensor shares;
  if (useScaledGradient) {
    Tensor count = popops::reduce(graph, hits, params.dType, {0}, {popops::Operation::ADD}, prog,
                                  {di, "ties"});
    shares =
        popops::map(graph, pe::Divide(pe::Mul(pe::_1, pe::_2), pe::_3),
                    {hits, pooledGradient.expand({0}), count.expand({0})}, prog, {di, "shares"});
  } else {
    shares = popops::map(graph, pe::Mul(pe::_1, pe::_2), {hits, pooledGradient.expand({0})}, prog,
                         {di, "shares"});
  }
  Tensor out = scatterShares(graph, params, in, shares, true, prog, {di});
  di.addOutput(out);
  return out;
}

Tensor poolInputGradient(Graph &graph, const PoolParams &params, const unsigned fwdChansPerGroup,
                         const Tensor &pooledGradient, Sequence &prog,
                         const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(pooledGradient, fwdChansPerGroup, options));
  const std::string api = "popnn::pooling::poolInputGradient";
  checkParams(api, params);
  checkOptions(api, options);
  if (params.poolingType == PoolingType::MAX)
    raise<poputil::poplibs_error>(api, ": MAX pooling's gradient needs the forward input and "
                                       "output; use the form that takes them");
  internal::checkShape(api, "pooledGradient", pooledGradient, outputShape(params));
  internal::checkType(api, "pooledGradient", pooledGradient, params.dType);
  // The gradient is laid out like a fresh input of the pooling.
  Tensor like = graph.addVariable(params.dType, inputShape(params), {di, "inLayout"});
  poputil::mapTensorLinearly(graph, like);
  Tensor out = avgSumGradient(graph, params, like, pooledGradient, prog, {di});
  di.addOutput(out);
  return out;
}

} // namespace popnn::pooling
