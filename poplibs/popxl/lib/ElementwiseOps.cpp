// Element-wise ops: numpy broadcasting of the operands' shapes; popops maps and popnn
// non-linearities.
#include "OpTable.hpp"

#include <popnn/NonLinearity.hpp>
#include <popops/ElementWise.hpp>

#include <map>

namespace popxl::internal {

std::vector<TensorSpec> inferBinary(const Ir &ir, const OpInfo &op) {
  if (op.inputs.size() != 2)
    opError(op, "expects 2 inputs, got " + std::to_string(op.inputs.size()));
  const TensorSpec &a = inputSpec(ir, op, 0), &b = inputSpec(ir, op, 1);
  if (a.dtype != b.dtype)
    opError(op, std::string("operands have different dtypes: ") + dtypeName(a.dtype) + " and " +
                    dtypeName(b.dtype));
  // numpy: align the shapes on the right; each pair of sizes must be equal or contain a 1.
  const std::size_t rank = std::max(a.shape.size(), b.shape.size());
  std::vector<std::int64_t> out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t x = i < rank - a.shape.size() ? 1 : a.shape[i - (rank - a.shape.size())];
    const std::int64_t y = i < rank - b.shape.size() ? 1 : b.shape[i - (rank - b.shape.size())];
    if (x != y && x != 1 && y != 1)
      opError(op, "shapes " + shapeText(a.shape) + " and " + shapeText(b.shape) +
                      " cannot be broadcast together");
    out[i] = x == 1 ? y : x;
  }
  return {{out, a.dtype}};
}

void lowerBinary(const LowerContext &c, const OpInfo &op) {
  using popops::expr::BinaryOpType;
  static const std::map<std::string, BinaryOpType> kTypes = {
      {"add", BinaryOpType::ADD},        {"sub", BinaryOpType::SUBTRACT},
      {"mul", BinaryOpType::MULTIPLY},   {"div", BinaryOpType::DIVIDE},
      {"pow", BinaryOpType::POWER},      {"maximum", BinaryOpType::MAXIMUM},
      {"minimum", BinaryOpType::MINIMUM}};
  c.setOut(op, 0,
           popops::map(c.graph, kTypes.at(op.type), c.in(op, 0), c.in(op, 1), c.prog, op.name));
}

std::vector<TensorSpec> inferUnary(const Ir &ir, const OpInfo &op) {
  if (op.inputs.size() != 1)
    opError(op, "expects 1 input, got " + std::to_string(op.inputs.size()));
  return {inputSpec(ir, op, 0)};
}

void lowerUnary(const LowerContext &c, const OpInfo &op) {
  using popnn::NonLinearityType;
  using popops::expr::UnaryOpType;
  static const std::map<std::string, NonLinearityType> kNonLinear = {
      {"relu", NonLinearityType::RELU},
      {"gelu", NonLinearityType::GELU},
      {"sigmoid", NonLinearityType::SIGMOID},
      {"tanh", NonLinearityType::TANH}};
  static const std::map<std::string, UnaryOpType> kTypes = {{"neg", UnaryOpType::NEGATE},
                                                            {"abs", UnaryOpType::ABSOLUTE},
                                                            {"exp", UnaryOpType::EXPONENT},
                                                            {"log", UnaryOpType::LOGARITHM},
                                                            {"sqrt", UnaryOpType::SQRT}};
  auto nl = kNonLinear.find(op.type);
  if (nl != kNonLinear.end())
    c.setOut(op, 0, popnn::nonLinearity(c.graph, nl->second, c.in(op, 0), c.prog, op.name));
  else
    c.setOut(op, 0, popops::map(c.graph, kTypes.at(op.type), c.in(op, 0), c.prog, op.name));
}

void lowerNonLinearityGrad(const LowerContext &c, const OpInfo &op) {
  using popnn::NonLinearityType;
  static const std::map<std::string, NonLinearityType> kTypes = {
      {"relu_grad", NonLinearityType::RELU},
      {"gelu_grad", NonLinearityType::GELU},
      {"sigmoid_grad", NonLinearityType::SIGMOID},
      {"tanh_grad", NonLinearityType::TANH}};
  c.setOut(op, 0,
           popnn::nonLinearityInputGradient(c.graph, kTypes.at(op.type), c.in(op, 1), c.in(op, 0),
                                            c.prog, op.name));
}

std::vector<TensorSpec> inferFirst(const Ir &ir, const OpInfo &op) {
  if (op.inputs.size() != 2)
    opError(op, "expects 2 inputs, got " + std::to_string(op.inputs.size()));
  return {inputSpec(ir, op, 0)};
}

// Gradients. `g` is the gradient of the output; broadcast operands get it summed back to
// their shape.
namespace {
const std::vector<std::int64_t> &shapeOfInput(GradContext &c, const OpInfo &op, std::size_t i) {
  return c.spec(op.inputs[i]).shape;
}
} // namespace

void gradAdd(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    for (std::size_t i = 0; i < 2; ++i)
      c.addInputGrad(op, i, sumToShape(c, *g, shapeOfInput(c, op, i)));
}

void gradSub(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    c.addInputGrad(op, 0, sumToShape(c, *g, shapeOfInput(c, op, 0)));
    c.addInputGrad(op, 1, sumToShape(c, c.op("neg", {*g}), shapeOfInput(c, op, 1)));
  }
}

void gradMul(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    const TensorId a = c.fwd(op.inputs[0]), b = c.fwd(op.inputs[1]);
    c.addInputGrad(op, 0, sumToShape(c, c.op("mul", {*g, b}), shapeOfInput(c, op, 0)));
    c.addInputGrad(op, 1, sumToShape(c, c.op("mul", {*g, a}), shapeOfInput(c, op, 1)));
  }
}

void gradDiv(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    const TensorId a = c.fwd(op.inputs[0]), b = c.fwd(op.inputs[1]);
    c.addInputGrad(op, 0, sumToShape(c, c.op("div", {*g, b}), shapeOfInput(c, op, 0)));
    // d(a/b)/db = -a / b^2
    const TensorId q = c.op("div", {c.op("mul", {*g, a}), c.op("mul", {b, b})});
    c.addInputGrad(op, 1, sumToShape(c, c.op("neg", {q}), shapeOfInput(c, op, 1)));
  }
}

void gradNeg(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0, c.op("neg", {*g}));
}

void gradExp(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0, c.op("mul", {*g, c.fwd(op.outputs[0])}));
}

void gradLog(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0, c.op("div", {*g, c.fwd(op.inputs[0])}));
}

void gradSqrt(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    const TensorId y = c.fwd(op.outputs[0]);
    const TensorId half = c.scalar(0.5, c.spec(y).dtype);
    c.addInputGrad(op, 0, c.op("div", {c.op("mul", {*g, half}), y}));
  }
}

void gradNonLinearity(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    // popnn's gradients take the forward output, except GELU's, which takes the input.
    const TensorId act = op.type == "gelu" ? c.fwd(op.inputs[0]) : c.fwd(op.outputs[0]);
    c.addInputGrad(op, 0, c.op(op.type + "_grad", {*g, act}));
  }
}

} // namespace popxl::internal
