// Losses: nll_loss_with_softmax_grad(probs, labels) gives the negative log-likelihood of the
// labels under the probabilities (a softmax's output) and its gradient by the softmax's input.
// nll_loss(probs, labels) is the loss alone (with reduction mean/sum/none, ignore_index and
// log_prob), differentiable by probs; log_softmax is popnn's, over the innermost axis.
#include "OpTable.hpp"

#include <popnn/LogSoftmax.hpp>
#include <popnn/Loss.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Encoding.hpp>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>

namespace popxl::internal {

std::vector<TensorSpec> inferNllSoftmaxGrad(const Ir &ir, const OpInfo &op) {
  const TensorSpec &probs = inputSpec(ir, op, 0), &labels = inputSpec(ir, op, 1);
  if (probs.shape.size() != 2 || labels.shape.size() != 1 || labels.shape[0] != probs.shape[0])
    opError(op, "needs probabilities [batch, classes] and labels [batch], got " +
                    shapeText(probs.shape) + " and " + shapeText(labels.shape));
  if (labels.dtype != DType::Int32 && labels.dtype != DType::Uint32)
    opError(op, std::string("labels must be int32 or uint32, got ") + dtypeName(labels.dtype));
  const std::string reduction = stringAttr(op, "reduction");
  if (reduction != "mean" && reduction != "sum")
    opError(op, "reduction must be 'mean' or 'sum', got '" + reduction + "'");
  return {{{}, probs.dtype}, probs};
}

void lowerNllSoftmaxGrad(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &probs = c.in(op, 0);
  const std::size_t batch = probs.dim(0);
  poplar::Tensor loss = c.graph.addVariable(probs.elementType(), {batch}, op.name + "/loss");
  poplar::Tensor deltas = c.graph.clone(probs, op.name + "/deltas");
  poputil::mapTensorLinearly(c.graph, loss);
  c.prog.add(popnn::calcLoss(c.graph, probs, c.in(op, 1), loss, deltas, popnn::CROSS_ENTROPY_LOSS,
                             op.name));
  const bool mean = stringAttr(op, "reduction") == "mean";
  const float scale = float(floatAttr(op, "loss_grad")) / float(mean ? batch : 1);
  namespace pe = popops::expr;
  popops::mapInPlace(c.graph, pe::BinaryOp(pe::BinaryOpType::MULTIPLY, pe::_1, pe::Const(scale)),
                     {deltas}, c.prog, op.name + "/scale");
  poplar::Tensor total =
      popops::reduce(c.graph, loss, {0}, {popops::Operation::ADD}, c.prog, op.name + "/total");
  if (mean)
    popops::mapInPlace(
        c.graph, pe::BinaryOp(pe::BinaryOpType::MULTIPLY, pe::_1, pe::Const(1.0f / float(batch))),
        {total}, c.prog, op.name + "/mean");
  c.setOut(op, 0, total.reshape({}));
  c.setOut(op, 1, deltas);
}

std::vector<TensorSpec> inferLogSoftmax(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  const std::int64_t r = std::int64_t(in.shape.size()), axis = intAttr(op, "axis");
  if (r == 0 || axis < -r || axis >= r)
    opError(op, "axis " + std::to_string(axis) + " is out of range for " + shapeText(in.shape));
  if ((axis + r) % r != r - 1)
    opError(op, "supports the innermost axis only (axis " + std::to_string(axis) + " of rank " +
                    std::to_string(r) + ")");
  return {in};
}

void lowerLogSoftmax(const LowerContext &c, const OpInfo &op) {
  c.setOut(op, 0, popnn::logSoftmax(c.graph, c.in(op, 0), c.prog, op.name));
}

void gradLogSoftmax(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  // dx = g - softmax(x) * sum(g, axis)
  const TensorId p = c.op("exp", {c.fwd(op.outputs[0])});
  const TensorId s = c.op("reduce_sum", {*g},
                          {{"axis", std::vector<std::int64_t>{-1}}, {"keepdims", std::int64_t(1)}});
  c.addInputGrad(op, 0, c.op("sub", {*g, c.op("mul", {p, s})}));
}

// nll_loss(probs [..., C], labels [...]): -log(probs[label]) per row (-probs[label] with
// log_prob), 0 for rows whose label is ignore_index; reduced by sum, by mean over the rows not
// ignored, or not at all ("none": the labels' shape).
std::vector<TensorSpec> inferNll(const Ir &ir, const OpInfo &op) {
  const TensorSpec &probs = inputSpec(ir, op, 0), &labels = inputSpec(ir, op, 1);
  if (probs.shape.size() != labels.shape.size() + 1 ||
      !std::equal(labels.shape.begin(), labels.shape.end(), probs.shape.begin()))
    opError(op, "needs probabilities [..., classes] and labels [...], got " +
                    shapeText(probs.shape) + " and " + shapeText(labels.shape));
  if (probs.dtype != DType::Float32 && probs.dtype != DType::Float16)
    opError(op,
            std::string("probabilities must be float32 or float16, got ") + dtypeName(probs.dtype));
  if (labels.dtype != DType::Int32 && labels.dtype != DType::Uint32)
    opError(op, std::string("labels must be int32 or uint32, got ") + dtypeName(labels.dtype));
  const std::string reduction = stringAttr(op, "reduction");
  if (reduction != "mean" && reduction != "sum" && reduction != "none")
    opError(op, "reduction must be 'mean', 'sum' or 'none', got '" + reduction + "'");
  if (reduction == "none")
    return {{labels.shape, probs.dtype}};
  return {{{}, probs.dtype}};
}

namespace {
namespace pe = popops::expr;

/// The pieces of nll_loss and its gradient, per row of probs as [N, C].
struct NllParts {
  poplar::Tensor onehot; // [N, C]: the label's column, a row of zeros when ignored
  poplar::Tensor denom;  // [N, 1]: d(-loss)/d(onehot.probs) is onehot / denom
  poplar::Tensor count;  // scalar: the rows not ignored (at least 1)
  poplar::Tensor rowLoss;
};

NllParts nllParts(const LowerContext &c, const OpInfo &op, const poplar::Tensor &probsIn,
                  const poplar::Tensor &labelsIn) {
  const std::size_t classes = probsIn.dim(probsIn.rank() - 1);
  const poplar::Tensor probs = probsIn.reshape({probsIn.numElements() / classes, classes});
  poplar::Tensor labels = labelsIn.flatten();
  const std::size_t n = probs.dim(0);
  const poplar::Type type = probs.elementType(), ltype = labels.elementType();
  if (hasAttr(op, "ignore_index")) {
    // An ignored label becomes `classes`, which encodes to a row of zeros.
    const double ignore = double(intAttr(op, "ignore_index"));
    labels = popops::map(c.graph,
                         pe::Select(pe::_1, pe::Const(double(classes), ltype),
                                    pe::NotEqual(pe::_1, pe::Const(ignore, ltype))),
                         {labels}, c.prog, op.name + "/ignore");
  }
  NllParts p;
  p.onehot = c.graph.addVariable(type, {n, classes}, op.name + "/onehot");
  poputil::mapTensorLinearly(c.graph, p.onehot);
  popops::encodeOneHot(c.graph, labels, p.onehot, c.prog, op.name + "/onehot");
  poplar::Tensor mask =
      popops::reduce(c.graph, p.onehot, {1}, {popops::Operation::ADD}, c.prog, op.name + "/mask");
  poplar::Tensor picked = popops::reduce(
      c.graph,
      popops::map(c.graph, pe::Mul(pe::_1, pe::_2), {p.onehot, probs}, c.prog, op.name + "/pick"),
      {1}, {popops::Operation::ADD}, c.prog, op.name + "/picked");
  const bool logProb = hasAttr(op, "log_prob") && intAttr(op, "log_prob") != 0;
  if (logProb) {
    p.denom =
        popops::map(c.graph, pe::Add(pe::Mul(pe::_1, pe::Const(0.0, type)), pe::Const(1.0, type)),
                    {mask}, c.prog, op.name + "/denom");
    p.rowLoss = popops::map(c.graph, pe::Neg(pe::_1), {picked}, c.prog, op.name + "/rows");
  } else {
    // picked + (1 - mask): 1 in ignored rows, so that their loss is log(1) = 0.
    p.denom = popops::map(c.graph, pe::Sub(pe::Add(pe::_1, pe::Const(1.0, type)), pe::_2),
                          {picked, mask}, c.prog, op.name + "/denom");
    p.rowLoss =
        popops::map(c.graph, pe::Neg(pe::Log(pe::_1)), {p.denom}, c.prog, op.name + "/rows");
  }
  p.denom = p.denom.reshape({n, 1});
  p.count = popops::map(
      c.graph, pe::Max(pe::_1, pe::Const(1.0, type)),
      {popops::reduce(c.graph, mask, {0}, {popops::Operation::ADD}, c.prog, op.name + "/count")},
      c.prog, op.name + "/count");
  return p;
}
} // namespace

void lowerNll(const LowerContext &c, const OpInfo &op) {
  NllParts p = nllParts(c, op, c.in(op, 0), c.in(op, 1));
  const std::string reduction = stringAttr(op, "reduction");
  const auto &outShape = c.ir.tensor(op.outputs[0]).spec.shape;
  if (reduction == "none") {
    c.setOut(op, 0, p.rowLoss.reshape(poplarShape(outShape)));
    return;
  }
  poplar::Tensor total =
      popops::reduce(c.graph, p.rowLoss, {0}, {popops::Operation::ADD}, c.prog, op.name + "/sum");
  if (reduction == "mean")
    total = popops::map(c.graph, pe::Divide(pe::_1, pe::_2), {total, p.count}, c.prog,
                        op.name + "/mean");
  c.setOut(op, 0, total.reshape({}));
}

// nll_loss_grad(g, probs, labels): the gradient by probs, -onehot / denom scaled by g (and by
// 1 / count for the mean).
std::vector<TensorSpec> inferNllGrad(const Ir &ir, const OpInfo &op) {
  return {inputSpec(ir, op, 1)};
}

void lowerNllGrad(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &probs = c.in(op, 1);
  NllParts p = nllParts(c, op, probs, c.in(op, 2));
  const std::size_t n = p.onehot.dim(0);
  const std::string reduction = stringAttr(op, "reduction");
  poplar::Tensor g = c.in(op, 0).reshape({reduction == "none" ? n : 1, 1});
  if (reduction == "mean")
    g = popops::map(c.graph, pe::Divide(pe::_1, pe::_2), {g, p.count.reshape({1, 1})}, c.prog,
                    op.name + "/mean");
  poplar::Tensor d = popops::map(c.graph, pe::Divide(pe::Mul(pe::Neg(pe::_1), pe::_2), pe::_3),
                                 {p.onehot, g, p.denom}, c.prog, op.name);
  c.setOut(op, 0, d.reshape(probs.shape()));
}

void gradNll(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0,
                   c.op("nll_loss_grad", {*g, c.fwd(op.inputs[0]), c.fwd(op.inputs[1])}, op.attrs));
}

} // namespace popxl::internal
