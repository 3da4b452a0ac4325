// Pooling: max_pool and average_pool of t [N, C, spatial...] over "kernel" with stride and
// padding (the average leaves padding out of its count, as ONNX's AveragePool does), through
// popnn::pooling::pool; their gradients max_pool_grad(dy, t, y) and average_pool_grad(dy) (with
// attribute "input_shape": it needs no forward value) through popnn::pooling::poolInputGradient.
#include "OpTable.hpp"
#include "Window.hpp"

#include <popnn/Pooling.hpp>

namespace popxl::internal {

namespace {

bool isMax(const OpInfo &op) { return op.type.rfind("max_pool", 0) == 0; }

/// The forward pooling's parameters, for an input of `in`.
popnn::pooling::PoolParams poolParams(const OpInfo &op, const TensorSpec &in) {
  if (in.dtype != DType::Float32 && in.dtype != DType::Float16)
    opError(op, std::string("input must be float32 or float16, got ") + dtypeName(in.dtype));
  const Window w = readWindow(op, intsAttr(op, "kernel"), in.shape.size());
  for (auto d : w.dilation)
    if (d != 1)
      opError(op, "dilation " + shapeText(intsAttr(op, "dilation")) + " is not supported (only 1)");
  std::vector<int> lower(w.padLower.begin(), w.padLower.end());
  std::vector<int> upper(w.padUpper.begin(), w.padUpper.end());
  w.outputField(op, {in.shape.begin() + 2, in.shape.end()}); // checks the kernel fits
  return popnn::pooling::PoolParams(isMax(op) ? popnn::PoolingType::MAX : popnn::PoolingType::AVG,
                                    poplarShape({in.shape.begin() + 2, in.shape.end()}), w.kernel,
                                    std::vector<unsigned>(w.stride.begin(), w.stride.end()), lower,
                                    upper, std::size_t(in.shape[1]), std::size_t(in.shape[0]),
                                    poplarType(in.dtype));
}

TensorSpec pooledSpec(const popnn::pooling::PoolParams &p, DType dtype) {
  std::vector<std::int64_t> shape = {std::int64_t(p.batchSize), std::int64_t(p.numChannels)};
  for (auto d : p.getOutputFieldShape())
    shape.push_back(std::int64_t(d));
  return {shape, dtype};
}

/// The forward input's spec, as a gradient op knows it.
TensorSpec forwardInput(const Ir &ir, const OpInfo &op) {
  if (isMax(op))
    return inputSpec(ir, op, 1);
  return {intsAttr(op, "input_shape"), inputSpec(ir, op, 0).dtype};
}

} // namespace

std::vector<TensorSpec> inferPool(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  return {pooledSpec(poolParams(op, in), in.dtype)};
}

void lowerPool(const LowerContext &c, const OpInfo &op) {
  c.setOut(op, 0,
           popnn::pooling::pool(c.graph, poolParams(op, c.ir.tensor(op.inputs[0]).spec),
                                c.in(op, 0), c.prog, op.name));
}

void gradPool(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  if (isMax(op)) {
    c.addInputGrad(
        op, 0, c.op("max_pool_grad", {*g, c.fwd(op.inputs[0]), c.fwd(op.outputs[0])}, op.attrs));
  } else {
    Attributes attrs = op.attrs;
    attrs["input_shape"] = c.spec(op.inputs[0]).shape;
    c.addInputGrad(op, 0, c.op("average_pool_grad", {*g}, attrs));
  }
}

std::vector<TensorSpec> inferPoolGrad(const Ir &ir, const OpInfo &op) {
  const TensorSpec in = forwardInput(ir, op);
  const TensorSpec pooled = pooledSpec(poolParams(op, in), in.dtype);
  if (!(inputSpec(ir, op, 0) == pooled))
    opError(op, "the output gradient " + toString(inputSpec(ir, op, 0)) +
                    " does not match the output " + toString(pooled));
  return {in};
}

void lowerPoolGrad(const LowerContext &c, const OpInfo &op) {
  const auto params = poolParams(op, forwardInput(c.ir, op));
  // The max's gradient goes to every input equal to its window's maximum, unscaled.
  c.setOut(op, 0,
           isMax(op) ? popnn::pooling::poolInputGradient(c.graph, params, c.in(op, 1), c.in(op, 2),
                                                         c.in(op, 0), false, c.prog, op.name)
                     : popnn::pooling::poolInputGradient(c.graph, params, 1, c.in(op, 0), c.prog,
                                                         op.name));
}

} // namespace popxl::internal
