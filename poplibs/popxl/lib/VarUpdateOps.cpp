// In-place updates of their first input (variables, or any tensor): the output is that input,
// updated. copy_var_update_(t, x): t = x; accumulate_(t, x, f): t += f.x; scaled_add_(t, x, a,
// b): t = a.t + b.x; accumulate_square_(t, x, f): t += f.x^2; accumulate_moving_average_(t, x,
// f): t = f.t + (1 - f).x; accumulate_moving_average_square_: the same with x^2.
#include "OpTable.hpp"

#include <popops/ElementWise.hpp>
#include <popops/ScaledAdd.hpp>

namespace popxl::internal {

std::vector<TensorSpec> inferInPlace(const Ir &ir, const OpInfo &op) {
  if (op.inputs.size() != 2)
    opError(op, "expects 2 inputs (the tensor to update and the value), got " +
                    std::to_string(op.inputs.size()));
  const TensorSpec &t = inputSpec(ir, op, 0), &x = inputSpec(ir, op, 1);
  if (!(t == x))
    opError(op, "the update " + toString(x) + " does not match the tensor " + toString(t));
  return {t};
}

void lowerCopyVarUpdate(const LowerContext &c, const OpInfo &op) {
  c.prog.add(poplar::program::Copy(c.in(op, 1), c.in(op, 0), false, op.name));
  c.setOut(op, 0, c.in(op, 0));
}

void lowerAccumulate(const LowerContext &c, const OpInfo &op) {
  popops::scaledAddTo(c.graph, c.in(op, 0), c.in(op, 1), float(floatAttr(op, "f")), c.prog,
                      op.name);
  c.setOut(op, 0, c.in(op, 0));
}

void lowerScaledAdd(const LowerContext &c, const OpInfo &op) {
  popops::scaledAddTo(c.graph, c.in(op, 0), float(floatAttr(op, "a")), c.in(op, 1),
                      float(floatAttr(op, "b")), c.prog, op.name);
  c.setOut(op, 0, c.in(op, 0));
}

void lowerAccumulateExpr(const LowerContext &c, const OpInfo &op) {
  namespace pe = popops::expr;
  const poplar::Tensor &t = c.in(op, 0), &x = c.in(op, 1);
  const poplar::Type type = t.elementType();
  const double f = floatAttr(op, "f");
  const pe::Any fx = pe::Const(f, type);
  const pe::Any x2 = pe::Square(pe::_2);
  pe::Any e = pe::_1;
  if (op.type == "accumulate_square_")
    e = pe::Add(pe::_1, pe::Mul(fx, x2));
  else // moving averages
    e = pe::Add(pe::Mul(fx, pe::_1),
                pe::Mul(pe::Const(1.0 - f, type),
                        op.type == "accumulate_moving_average_" ? pe::Any(pe::_2) : x2));
  popops::mapInPlace(c.graph, e, {t, x}, c.prog, op.name);
  c.setOut(op, 0, t);
}

} // namespace popxl::internal
