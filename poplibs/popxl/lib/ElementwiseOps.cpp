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

} // namespace popxl::internal
