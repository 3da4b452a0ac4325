// Convolution: conv(t [N, C, spatial...], weight [M, C / groups, kernel...]) with stride,
// padding, dilation and groups, through poplin::convolution; its gradients conv_input_grad
// (poplin::convolution of the output gradient with the weights transposed and flipped, on
// poplin::getGradientParams) and conv_weights_grad (poplin::calculateWeightDeltas).
#include "OpTable.hpp"
#include "Window.hpp"

#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>

namespace popxl::internal {

namespace {

/// The forward convolution's input, weights and output, whichever of the three ops `op` is:
/// conv(t, weight), conv_input_grad(dy, weight) with attribute "input_shape", or
/// conv_weights_grad(dy, t) with attribute "weights_shape".
struct ConvShapes {
  TensorSpec in, weights, out;
  Window window;
  std::size_t groups;
};

ConvShapes convShapes(const Ir &ir, const OpInfo &op) {
  if (op.inputs.size() != 2)
    opError(op, "expects 2 inputs, got " + std::to_string(op.inputs.size()));
  const TensorSpec &a = inputSpec(ir, op, 0), &b = inputSpec(ir, op, 1);
  ConvShapes s;
  if (op.type == "conv") {
    s.in = a;
    s.weights = b;
  } else if (op.type == "conv_input_grad") {
    s.in = {intsAttr(op, "input_shape"), b.dtype};
    s.weights = b;
  } else {
    s.in = b;
    s.weights = {intsAttr(op, "weights_shape"), b.dtype};
  }
  if (s.in.dtype != s.weights.dtype)
    opError(op, std::string("input and weights have different dtypes: ") + dtypeName(s.in.dtype) +
                    " and " + dtypeName(s.weights.dtype));
  const auto &x = s.in.shape, &w = s.weights.shape;
  if (w.size() != x.size())
    opError(op, "weights " + shapeText(w) + " need the rank of the input " + shapeText(x));
  s.window = readWindow(
      op, {w.begin() + std::min<std::ptrdiff_t>(2, std::ptrdiff_t(w.size())), w.end()}, x.size());
  const std::int64_t groups = hasAttr(op, "groups") ? intAttr(op, "groups") : 1;
  if (groups < 1 || x[1] % groups != 0 || w[0] % groups != 0 || w[1] * groups != x[1])
    opError(op, "input " + shapeText(x) + " and weights " + shapeText(w) + " do not fit " +
                    std::to_string(groups) +
                    " groups (needs channels = weights.shape[1] * groups, and weights.shape[0] "
                    "divisible by groups)");
  s.groups = std::size_t(groups);
  std::vector<std::int64_t> out = {x[0], w[0]};
  const auto field = s.window.outputField(op, {x.begin() + 2, x.end()});
  out.insert(out.end(), field.begin(), field.end());
  s.out = {out, s.in.dtype};
  if (op.type != "conv" && !(a == s.out))
    opError(op,
            "the output gradient " + toString(a) + " does not match the output " + toString(s.out));
  return s;
}

poplin::ConvParams convParams(const ConvShapes &s) {
  const auto &x = s.in.shape, &w = s.weights.shape;
  const std::size_t dims = s.window.dims();
  const poplar::Type type = poplarType(s.in.dtype);
  poplin::ConvParams::InputTransform input(dims), kernel(dims);
  poplin::ConvParams::OutputTransform output(dims);
  for (std::size_t d = 0; d < dims; ++d) {
    input.paddingLower[d] = unsigned(s.window.padLower[d]);
    input.paddingUpper[d] = unsigned(s.window.padUpper[d]);
    kernel.dilation[d] = unsigned(s.window.dilation[d]);
    output.stride[d] = unsigned(s.window.stride[d]);
  }
  return poplin::ConvParams(type, type, std::size_t(x[0]), poplarShape({x.begin() + 2, x.end()}),
                            poplarShape({w.begin() + 2, w.end()}), std::size_t(w[1]),
                            std::size_t(w[0]) / s.groups, s.groups, input, kernel, output);
}

/// weight [M, C / groups, kernel...] as poplin's [groups, M / groups, C / groups, kernel...].
poplar::Tensor groupedWeights(const poplar::Tensor &w, std::size_t groups) {
  std::vector<std::size_t> shape = w.shape();
  shape[0] /= groups;
  shape.insert(shape.begin(), groups);
  return w.reshape(shape);
}

} // namespace

std::vector<TensorSpec> inferConv(const Ir &ir, const OpInfo &op) {
  const ConvShapes s = convShapes(ir, op);
  if (op.type == "conv")
    return {s.out};
  return {op.type == "conv_input_grad" ? s.in : s.weights};
}

namespace {
/// The forward pass's options, which its lowering and its layout hook both pass (one plan).
const poplar::OptionFlags kForwardPass{{"pass", "TRAINING_FWD"}};
} // namespace

void lowerConv(const LowerContext &c, const OpInfo &op) {
  const ConvShapes s = convShapes(c.ir, op);
  const poplin::ConvParams params = convParams(s);
  if (op.type == "conv") {
    c.setOut(op, 0,
             poplin::convolution(c.graph, c.in(op, 0), groupedWeights(c.in(op, 1), s.groups),
                                 params, false, c.prog, op.name, kForwardPass, &c.planCache));
  } else if (op.type == "conv_input_grad") {
    c.setOut(op, 0,
             poplin::convolution(c.graph, c.in(op, 0), groupedWeights(c.in(op, 1), s.groups),
                                 poplin::getGradientParams(params), true, c.prog, op.name,
                                 {{"pass", "TRAINING_BWD"}}, &c.planCache));
  } else {
    poplar::Tensor deltas =
        poplin::calculateWeightDeltas(c.graph, c.in(op, 0), c.in(op, 1), params, c.prog, op.name,
                                      {{"pass", "TRAINING_WU"}}, &c.planCache);
    c.setOut(op, 0, deltas.reshape(poplarShape(s.weights.shape)));
  }
}

/// The forward convolution's input and weights where its plan reads them (poplin::createInput,
/// poplin::createWeights); the gradient passes' rows have no preference.
poplar::Tensor layoutConv(const LayoutContext &c, const OpInfo &op, std::size_t i) {
  const ConvShapes s = convShapes(c.ir, op);
  const std::string &name = c.ir.tensor(op.inputs.at(i)).name;
  if (i == 0)
    return poplin::createInput(c.graph, convParams(s), name, kForwardPass, &c.planCache);
  return poplin::createWeights(c.graph, convParams(s), name, kForwardPass, &c.planCache)
      .reshape(poplarShape(s.weights.shape));
}

void gradConv(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  Attributes attrs = op.attrs;
  attrs["input_shape"] = c.spec(op.inputs[0]).shape;
  attrs["weights_shape"] = c.spec(op.inputs[1]).shape;
  if (c.wantsGrad(op, 0))
    c.addInputGrad(op, 0, c.op("conv_input_grad", {*g, c.fwd(op.inputs[1])}, attrs));
  if (c.wantsGrad(op, 1))
    c.addInputGrad(op, 1, c.op("conv_weights_grad", {*g, c.fwd(op.inputs[0])}, attrs));
}

} // namespace popxl::internal
