// Losses: nll_loss_with_softmax_grad(probs, labels) gives the negative log-likelihood of the
// labels under the probabilities (a softmax's output) and its gradient by the softmax's input.
#include "OpTable.hpp"

#include <popnn/Loss.hpp>
#include <popops/ElementWise.hpp>
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

} // namespace popxl::internal
