// Normalisations of t [N, C, ...] with per-channel weight and bias [C]: group_norm (statistics
// per sample and group of channels, popnn::gn; layer_norm is its one-group case) gives (out,
// mean, inv_std_dev) and its gradient group_norm_grad; batch_norm_inference normalises with given
// per-channel mean and variance (popnn::bn::batchNormalise), differentiated as the affine map it
// is, in IR ops.
#include "OpTable.hpp"

#include <popnn/BatchNorm.hpp>
#include <popnn/GroupNorm.hpp>
#include <popops/ElementWise.hpp>

namespace popxl::internal {

namespace {

/// Checks that input 0 is a float [N, C, ...] tensor and inputs first..last are [C] of its dtype.
void checkChannelParams(const Ir &ir, const OpInfo &op, std::size_t first, std::size_t last,
                        const std::vector<std::string> &names) {
  if (op.inputs.size() != last + 1)
    opError(op, "expects " + std::to_string(last + 1) + " inputs, got " +
                    std::to_string(op.inputs.size()));
  const TensorSpec &t = inputSpec(ir, op, 0);
  if (t.shape.size() < 2)
    opError(op, "needs an input [batch, channels, ...] of rank >= 2, got " + shapeText(t.shape));
  if (t.dtype != DType::Float32 && t.dtype != DType::Float16)
    opError(op, std::string("input must be float32 or float16, got ") + dtypeName(t.dtype));
  const TensorSpec channels{{t.shape[1]}, t.dtype};
  for (std::size_t i = first; i <= last; ++i)
    if (!(inputSpec(ir, op, i) == channels))
      opError(op, names[i - first] + " " + toString(inputSpec(ir, op, i)) + " should be " +
                      toString(channels) + ", one per channel of " + shapeText(t.shape));
}

} // namespace

std::vector<TensorSpec> inferGroupNorm(const Ir &ir, const OpInfo &op) {
  checkChannelParams(ir, op, 1, 2, {"weight", "bias"});
  const TensorSpec &t = inputSpec(ir, op, 0);
  const std::int64_t groups = intAttr(op, "num_groups");
  if (groups < 1 || t.shape[1] % groups != 0)
    opError(op, "num_groups " + std::to_string(groups) + " does not divide the " +
                    std::to_string(t.shape[1]) + " channels");
  const TensorSpec statistics{{t.shape[0] * groups}, t.dtype};
  return {t, statistics, statistics};
}

void lowerGroupNorm(const LowerContext &c, const OpInfo &op) {
  // The stable algorithm subtracts the mean before squaring: exact for inputs far from 0.
  auto [mean, invStdDev] = popnn::gn::groupNormStatistics(
      c.graph, c.in(op, 0), float(floatAttr(op, "eps")), c.prog,
      unsigned(intAttr(op, "num_groups")), false, true, poplar::FLOAT, op.name);
  auto [out, whitened] = popnn::gn::groupNormalise(c.graph, c.in(op, 0), c.in(op, 1), c.in(op, 2),
                                                   mean, invStdDev, c.prog, op.name);
  c.setOut(op, 0, out);
  c.setOut(op, 1, mean);
  c.setOut(op, 2, invStdDev);
}

void gradGroupNorm(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  const auto grads = c.opOutputs("group_norm_grad", {*g, c.fwd(op.inputs[0]), c.fwd(op.inputs[1]),
                                                     c.fwd(op.outputs[1]), c.fwd(op.outputs[2])});
  for (std::size_t i = 0; i < 3; ++i)
    c.addInputGrad(op, i, grads[i]);
}

// group_norm_grad(dy, t, weight, mean, inv_std_dev): the gradients of t, weight and bias.
std::vector<TensorSpec> inferGroupNormGrad(const Ir &ir, const OpInfo &op) {
  const TensorSpec &t = inputSpec(ir, op, 1), &w = inputSpec(ir, op, 2);
  return {t, w, w};
}

void lowerGroupNormGrad(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &dy = c.in(op, 0), &t = c.in(op, 1), &mean = c.in(op, 3),
                       &invStdDev = c.in(op, 4);
  c.setOut(op, 0,
           popnn::gn::groupNormGradients(c.graph, t, dy, mean, invStdDev, c.in(op, 2), c.prog,
                                         poplar::FLOAT, op.name));
  auto [dWeight, dBias] = popnn::gn::groupNormParamGradients(c.graph, t, dy, mean, invStdDev,
                                                             c.prog, poplar::FLOAT, op.name);
  c.setOut(op, 1, dWeight);
  c.setOut(op, 2, dBias);
}

// batch_norm_inference(t, scale, bias, mean, var): (t - mean) / sqrt(var + epsilon) * scale +
// bias per channel.
std::vector<TensorSpec> inferBatchNormInference(const Ir &ir, const OpInfo &op) {
  checkChannelParams(ir, op, 1, 4, {"scale", "bias", "mean", "var"});
  if (floatAttr(op, "epsilon") < 0)
    opError(op, "epsilon " + std::to_string(floatAttr(op, "epsilon")) + " is negative");
  return {inputSpec(ir, op, 0)};
}

void lowerBatchNormInference(const LowerContext &c, const OpInfo &op) {
  namespace pe = popops::expr;
  const poplar::Type type = c.in(op, 0).elementType();
  // Folded ahead, per channel: multiplicand = scale / sqrt(var + eps), addend = bias - mean *
  // multiplicand.
  poplar::Tensor multiplicand = popops::map(
      c.graph,
      pe::Divide(pe::_1, pe::Sqrt(pe::Add(pe::_2, pe::Const(floatAttr(op, "epsilon"), type)))),
      {c.in(op, 1), c.in(op, 4)}, c.prog, op.name + "/multiplicand");
  poplar::Tensor addend =
      popops::map(c.graph, pe::Sub(pe::_1, pe::Mul(pe::_2, pe::_3)),
                  {c.in(op, 2), c.in(op, 3), multiplicand}, c.prog, op.name + "/addend");
  c.setOut(op, 0,
           popnn::bn::batchNormalise(c.graph, c.in(op, 0), multiplicand, addend, c.prog, op.name));
}

void gradBatchNormInference(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  const TensorSpec in = c.spec(op.inputs[0]);
  // Per-channel values as [C, 1, ...] broadcast against [N, C, ...]; sums over all but axis 1.
  std::vector<std::int64_t> channelShape(in.shape.size() - 1, 1), others = {0};
  channelShape[0] = in.shape[1];
  for (std::size_t d = 2; d < in.shape.size(); ++d)
    others.push_back(std::int64_t(d));
  auto perChannel = [&](TensorId t) { return c.op("reshape", {t}, {{"shape", channelShape}}); };
  auto sumPerChannel = [&](TensorId t) {
    return c.op("reduce_sum", {t}, {{"axis", others}, {"keepdims", std::int64_t(0)}});
  };
  const TensorId scale = c.fwd(op.inputs[1]);
  const TensorId invStd =
      c.op("div", {c.scalar(1.0, in.dtype),
                   c.op("sqrt", {c.op("add", {c.fwd(op.inputs[4]),
                                              c.scalar(floatAttr(op, "epsilon"), in.dtype)})})});
  const TensorId k = c.op("mul", {scale, invStd}); // d out / d t
  if (c.wantsGrad(op, 0))
    c.addInputGrad(op, 0, c.op("mul", {*g, perChannel(k)}));
  // Usually only t's gradient is wanted (the statistics and often the affine parameters are
  // fixed): the sums below are made only when needed.
  if (c.wantsGrad(op, 1) || c.wantsGrad(op, 4)) {
    const TensorId centred = c.op("sub", {c.fwd(op.inputs[0]), perChannel(c.fwd(op.inputs[3]))});
    const TensorId gCentred = sumPerChannel(c.op("mul", {*g, centred}));
    c.addInputGrad(op, 1, c.op("mul", {gCentred, invStd}));
    // d out / d var = -(t - mean) * scale / 2 * invStd^3
    const TensorId invStd3 = c.op("mul", {invStd, c.op("mul", {invStd, invStd})});
    c.addInputGrad(op, 4,
                   c.op("mul", {c.op("mul", {gCentred, c.op("mul", {scale, invStd3})}),
                                c.scalar(-0.5, in.dtype)}));
  }
  if (c.wantsGrad(op, 2) || c.wantsGrad(op, 3)) {
    const TensorId gSum = sumPerChannel(*g);
    c.addInputGrad(op, 2, gSum);
    c.addInputGrad(op, 3, c.op("neg", {c.op("mul", {gSum, k})}));
  }
}

} // namespace popxl::internal
