// Element-wise ops: numpy broadcasting of the operands' shapes; popops maps and popnn
// non-linearities.
#include "OpTable.hpp"

#include <popnn/NonLinearity.hpp>
#include <popops/ElementWise.hpp>

#include <cmath>
#include <map>

namespace popxl::internal {

std::vector<TensorSpec> inferBinary(const Ir &ir, const OpInfo &op) {
  if (op.inputs.size() != 2)
    opError(op, "expects 2 inputs, got " + std::to_string(op.inputs.size()));
  const TensorSpec &a = inputSpec(ir, op, 0), &b = inputSpec(ir, op, 1);
  if (a.dtype != b.dtype)
    opError(op, std::string("operands have different dtypes: ") + dtypeName(a.dtype) + " and " +
                    dtypeName(b.dtype));
  return {{broadcastShapes(op, a.shape, b.shape), a.dtype}};
}

void lowerBinary(const LowerContext &c, const OpInfo &op) {
  using popops::expr::BinaryOpType;
  static const std::map<std::string, BinaryOpType> kTypes = {
      {"add", BinaryOpType::ADD},         {"sub", BinaryOpType::SUBTRACT},
      {"mul", BinaryOpType::MULTIPLY},    {"div", BinaryOpType::DIVIDE},
      {"pow", BinaryOpType::POWER},       {"maximum", BinaryOpType::MAXIMUM},
      {"minimum", BinaryOpType::MINIMUM}, {"fmod", BinaryOpType::REMAINDER}};
  c.setOut(op, 0,
           popops::map(c.graph, kTypes.at(op.type), c.in(op, 0), c.in(op, 1), c.prog, op.name));
}

namespace {

/// The non-linearities popnn lowers, by op type (their gradient ops are "<type>_grad").
const std::map<std::string, popnn::NonLinearityType> &nonLinearities() {
  using popnn::NonLinearityType;
  static const std::map<std::string, NonLinearityType> kTypes = {
      {"relu", NonLinearityType::RELU},
      {"gelu", NonLinearityType::GELU},
      {"sigmoid", NonLinearityType::SIGMOID},
      {"tanh", NonLinearityType::TANH}};
  return kTypes;
}

/// The unary ops one popops map of an op type lowers.
const std::map<std::string, popops::expr::UnaryOpType> &unaryMaps() {
  using popops::expr::UnaryOpType;
  static const std::map<std::string, UnaryOpType> kTypes = {
      {"neg", UnaryOpType::NEGATE},   {"abs", UnaryOpType::ABSOLUTE},
      {"exp", UnaryOpType::EXPONENT}, {"log", UnaryOpType::LOGARITHM},
      {"sqrt", UnaryOpType::SQRT},    {"sin", UnaryOpType::SIN},
      {"cos", UnaryOpType::COS},      {"sign", UnaryOpType::SIGNUM},
      {"ceil", UnaryOpType::CEIL},    {"floor", UnaryOpType::FLOOR}};
  return kTypes;
}

/// The op `type` stands for without `suffix` (relu_ and relu_grad for relu).
std::string withoutSuffix(const std::string &type, const std::string &suffix) {
  const bool has = type.size() > suffix.size() &&
                   type.compare(type.size() - suffix.size(), suffix.size(), suffix) == 0;
  return has ? type.substr(0, type.size() - suffix.size()) : type;
}

} // namespace

/// add_: the second operand broadcasts to the first, which keeps its shape.
std::vector<TensorSpec> inferBinaryInPlace(const Ir &ir, const OpInfo &op) {
  const TensorSpec out = inferBinary(ir, op).at(0);
  const TensorSpec &a = inputSpec(ir, op, 0);
  if (out.shape != a.shape)
    opError(op, "the operand " + toString(inputSpec(ir, op, 1)) +
                    " does not broadcast to the updated tensor " + toString(a));
  return {a};
}

/// An in-place form (add_, exp_, relu_, gelu_) lowered as its out-of-place op's, in place.
void lowerInPlace(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &t = c.in(op, 0);
  const std::string type = withoutSuffix(op.type, "_");
  if (type == "add")
    popops::mapInPlace(c.graph, popops::expr::BinaryOpType::ADD, t, c.in(op, 1), c.prog, op.name);
  else if (auto nl = nonLinearities().find(type); nl != nonLinearities().end())
    popnn::nonLinearityInPlace(c.graph, nl->second, t, c.prog, op.name);
  else
    popops::mapInPlace(c.graph, unaryMaps().at(type), t, c.prog, op.name);
  c.setOut(op, 0, t);
}

std::vector<TensorSpec> inferUnary(const Ir &ir, const OpInfo &op) {
  if (op.inputs.size() != 1)
    opError(op, "expects 1 input, got " + std::to_string(op.inputs.size()));
  return {inputSpec(ir, op, 0)};
}

void lowerUnary(const LowerContext &c, const OpInfo &op) {
  if (auto nl = nonLinearities().find(op.type); nl != nonLinearities().end())
    c.setOut(op, 0, popnn::nonLinearity(c.graph, nl->second, c.in(op, 0), c.prog, op.name));
  else if (op.type == "log2") // popops has the natural logarithm only
    c.setOut(op, 0,
             popops::map(c.graph,
                         popops::expr::Divide(popops::expr::Log(popops::expr::_1),
                                              popops::expr::Const(float(M_LN2))),
                         {c.in(op, 0)}, c.prog, op.name));
  else
    c.setOut(op, 0, popops::map(c.graph, unaryMaps().at(op.type), c.in(op, 0), c.prog, op.name));
}

void lowerNonLinearityGrad(const LowerContext &c, const OpInfo &op) {
  c.setOut(op, 0,
           popnn::nonLinearityInputGradient(c.graph,
                                            nonLinearities().at(withoutSuffix(op.type, "_grad")),
                                            c.in(op, 1), c.in(op, 0), c.prog, op.name));
}

std::vector<TensorSpec> inferFirst(const Ir &ir, const OpInfo &op) {
  if (op.inputs.size() != 2)
    opError(op, "expects 2 inputs, got " + std::to_string(op.inputs.size()));
  return {inputSpec(ir, op, 0)};
}

// Gradients. `g` is the gradient of the output; broadcast operands get it summed back to
// their shape.
namespace {
std::vector<std::int64_t> shapeOfInput(GradContext &c, const OpInfo &op, std::size_t i) {
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

void gradPow(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    const TensorId a = c.fwd(op.inputs[0]), b = c.fwd(op.inputs[1]), y = c.fwd(op.outputs[0]);
    // d(a^b)/da = b a^(b-1), d(a^b)/db = a^b log(a)
    const TensorId bMinus1 = c.op("sub", {b, c.scalar(1.0, c.spec(y).dtype)});
    const TensorId da = c.op("mul", {b, c.op("pow", {a, bMinus1})});
    c.addInputGrad(op, 0, sumToShape(c, c.op("mul", {*g, da}), shapeOfInput(c, op, 0)));
    const TensorId db = c.op("mul", {y, c.op("log", {a})});
    c.addInputGrad(op, 1, sumToShape(c, c.op("mul", {*g, db}), shapeOfInput(c, op, 1)));
  }
}

// maximum/minimum: the gradient goes to the winning operand, half to each on a tie (as torch's).
void gradMaxMin(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    const TensorId a = c.fwd(op.inputs[0]), b = c.fwd(op.inputs[1]);
    const DType dtype = c.spec(*g).dtype;
    const char *wins = op.type == "maximum" ? "greater" : "less";
    const TensorId onTie =
        c.op("where", {c.op("equal", {a, b}), c.op("mul", {*g, c.scalar(0.5, dtype)}),
                       c.scalar(0.0, dtype)});
    c.addInputGrad(
        op, 0,
        sumToShape(c, c.op("where", {c.op(wins, {a, b}), *g, onTie}), shapeOfInput(c, op, 0)));
    c.addInputGrad(
        op, 1,
        sumToShape(c, c.op("where", {c.op(wins, {b, a}), *g, onTie}), shapeOfInput(c, op, 1)));
  }
}

// abs: g times the sign of x (0 at 0, as torch's).
void gradAbs(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    const TensorId x = c.fwd(op.inputs[0]);
    const TensorId zero = c.scalar(0.0, c.spec(x).dtype);
    const TensorId positive = c.op("where", {c.op("greater", {x, zero}), *g, zero});
    c.addInputGrad(op, 0, c.op("where", {c.op("less", {x, zero}), c.op("neg", {*g}), positive}));
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

void gradLog2(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    const TensorId x = c.fwd(op.inputs[0]);
    const TensorId ln2 = c.scalar(M_LN2, c.spec(x).dtype);
    c.addInputGrad(op, 0, c.op("div", {*g, c.op("mul", {x, ln2})}));
  }
}

void gradSin(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0, c.op("mul", {*g, c.op("cos", {c.fwd(op.inputs[0])})}));
}

void gradCos(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0, c.op("neg", {c.op("mul", {*g, c.op("sin", {c.fwd(op.inputs[0])})})}));
}

// fmod(a, b) = a - b trunc(a / b): d/da = 1, d/db = -trunc(a / b) = (y - a) / b.
void gradFmod(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    const TensorId a = c.fwd(op.inputs[0]), b = c.fwd(op.inputs[1]), y = c.fwd(op.outputs[0]);
    c.addInputGrad(op, 0, sumToShape(c, *g, shapeOfInput(c, op, 0)));
    const TensorId db = c.op("div", {c.op("sub", {y, a}), b});
    c.addInputGrad(op, 1, sumToShape(c, c.op("mul", {*g, db}), shapeOfInput(c, op, 1)));
  }
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
    // popnn's gradients take the forward output, except GELU's, which takes the input; an
    // in-place form (relu_) has its out-of-place form's rule.
    const std::string type = withoutSuffix(op.type, "_");
    const TensorId act = type == "gelu" ? c.fwd(op.inputs[0]) : c.fwd(op.outputs[0]);
    c.addInputGrad(op, 0, c.op(type + "_grad", {*g, act}));
  }
}

} // namespace popxl::internal

// Comparisons and logic: numpy broadcasting, bool results (no gradient flows through them).
namespace popxl::internal {

std::vector<TensorSpec> inferCompare(const Ir &ir, const OpInfo &op) {
  TensorSpec out = inferBinary(ir, op).at(0);
  const bool logical = op.type == "logical_and" || op.type == "logical_or";
  if (logical && out.dtype != DType::Bool)
    opError(op, std::string("operands must be bool, got ") + dtypeName(out.dtype));
  out.dtype = DType::Bool;
  return {out};
}

void lowerCompare(const LowerContext &c, const OpInfo &op) {
  using popops::expr::BinaryOpType;
  static const std::map<std::string, BinaryOpType> kTypes = {
      {"equal", BinaryOpType::EQUAL},
      {"not_equal", BinaryOpType::NOT_EQUAL},
      {"greater", BinaryOpType::GREATER_THAN},
      {"greater_equal", BinaryOpType::GREATER_THAN_EQUAL},
      {"less", BinaryOpType::LESS_THAN},
      {"less_equal", BinaryOpType::LESS_THAN_EQUAL},
      {"logical_and", BinaryOpType::LOGICAL_AND},
      {"logical_or", BinaryOpType::LOGICAL_OR}};
  c.setOut(op, 0,
           popops::map(c.graph, kTypes.at(op.type), c.in(op, 0), c.in(op, 1), c.prog, op.name));
}

std::vector<TensorSpec> inferLogicalNot(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  if (in.dtype != DType::Bool)
    opError(op, std::string("operand must be bool, got ") + dtypeName(in.dtype));
  return {in};
}

void lowerLogicalNot(const LowerContext &c, const OpInfo &op) {
  c.setOut(
      op, 0,
      popops::map(c.graph, popops::expr::UnaryOpType::LOGICAL_NOT, c.in(op, 0), c.prog, op.name));
}

std::vector<TensorSpec> inferPredicate(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  if (in.dtype != DType::Float32 && in.dtype != DType::Float16)
    opError(op, std::string("operand must be float32 or float16, got ") + dtypeName(in.dtype));
  return {{in.shape, DType::Bool}};
}

void lowerPredicate(const LowerContext &c, const OpInfo &op) {
  using popops::expr::UnaryOpType;
  static const std::map<std::string, UnaryOpType> kTypes = {{"isnan", UnaryOpType::IS_NAN},
                                                            {"isinf", UnaryOpType::IS_INF},
                                                            {"isfinite", UnaryOpType::IS_FINITE}};
  c.setOut(op, 0, popops::map(c.graph, kTypes.at(op.type), c.in(op, 0), c.prog, op.name));
}

/// The rule of ops whose inputs take no gradient (bool results, integer indices): nothing.
void gradNone(GradContext &, const OpInfo &) {}

// where(condition, lhs, rhs): lhs where condition is true, else rhs; all three broadcast.
std::vector<TensorSpec> inferWhere(const Ir &ir, const OpInfo &op) {
  if (op.inputs.size() != 3)
    opError(op, "expects 3 inputs (condition, lhs, rhs), got " + std::to_string(op.inputs.size()));
  const TensorSpec &cond = inputSpec(ir, op, 0);
  if (cond.dtype != DType::Bool)
    opError(op, std::string("condition must be bool, got ") + dtypeName(cond.dtype));
  OpInfo values = op; // lhs and rhs: equal dtypes, broadcast shapes
  values.inputs = {op.inputs[1], op.inputs[2]};
  const TensorSpec lr = inferBinary(ir, values).at(0);
  return {{broadcastShapes(op, cond.shape, lr.shape), lr.dtype}};
}

void lowerWhere(const LowerContext &c, const OpInfo &op) {
  c.setOut(op, 0, popops::select(c.graph, c.in(op, 1), c.in(op, 2), c.in(op, 0), c.prog, op.name));
}

void gradWhere(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  const TensorId cond = c.fwd(op.inputs[0]);
  const TensorId zero = c.scalar(0.0, c.spec(*g).dtype);
  c.addInputGrad(op, 1, sumToShape(c, c.op("where", {cond, *g, zero}), c.spec(op.inputs[1]).shape));
  c.addInputGrad(op, 2, sumToShape(c, c.op("where", {cond, zero, *g}), c.spec(op.inputs[2]).shape));
}

// clip(t): attributes min and max (either may be missing), popops maximum/minimum with constants.
std::vector<TensorSpec> inferClip(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  if (hasAttr(op, "min") && hasAttr(op, "max") && floatAttr(op, "min") > floatAttr(op, "max"))
    opError(op, "min " + std::to_string(floatAttr(op, "min")) + " is above max " +
                    std::to_string(floatAttr(op, "max")));
  return {in};
}

namespace {
popops::expr::Any clipExpr(const OpInfo &op, poplar::Type type) {
  namespace pe = popops::expr;
  pe::Any e = pe::_1;
  if (hasAttr(op, "min"))
    e = pe::Max(e, pe::Const(floatAttr(op, "min"), type));
  if (hasAttr(op, "max"))
    e = pe::Min(e, pe::Const(floatAttr(op, "max"), type));
  return e;
}
} // namespace

void lowerClip(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &t = c.in(op, 0);
  if (!hasAttr(op, "min") && !hasAttr(op, "max")) {
    poplar::Tensor out = c.graph.clone(t, op.name);
    c.prog.add(poplar::program::Copy(t, out, false, op.name));
    c.setOut(op, 0, out);
    return;
  }
  c.setOut(op, 0, popops::map(c.graph, clipExpr(op, t.elementType()), {t}, c.prog, op.name));
}

void gradClip(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0, c.op("clip_grad", {*g, c.fwd(op.inputs[0])}, op.attrs));
}

// clip_grad(g, x): g where min <= x <= max, else 0.
void lowerClipGrad(const LowerContext &c, const OpInfo &op) {
  namespace pe = popops::expr;
  const poplar::Tensor &x = c.in(op, 1);
  const poplar::Type type = x.elementType();
  pe::Any inside = pe::Const(true);
  if (hasAttr(op, "min"))
    inside = pe::And(inside, pe::Gte(pe::_2, pe::Const(floatAttr(op, "min"), type)));
  if (hasAttr(op, "max"))
    inside = pe::And(inside, pe::Lte(pe::_2, pe::Const(floatAttr(op, "max"), type)));
  c.setOut(op, 0,
           popops::map(c.graph, pe::Select(pe::_1, pe::Const(0.0, type), inside), {c.in(op, 0), x},
                       c.prog, op.name));
}

} // namespace popxl::internal
