// Element-wise operations: popops::map over expressions, and one named function per op (add,
// exp, ...) with InPlace and WithOutput forms. Inputs broadcast as numpy does.
//
// Options (OptionFlags):
//   enableGenerateCodelet (true)  an expression of several ops, or one with constants, runs as a
//                                 single vertex generated for it and compiled by popc at graph
//                                 construction time (cached like any codelet); false evaluates
//                                 it op by op with temporaries
//   enableExpressionOptimizations (true), enableVectorBroadcastOptimisations (true),
//   forceGenerateCodelet (false)  accepted; the last also generates a codelet for a single op
#ifndef popops_ElementWise_hpp
#define popops_ElementWise_hpp

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/Expr.hpp>
#include <poputil/DebugInfo.hpp>

#include <string>
#include <vector>

namespace popops {

/// The tensor of expr over ts (placeholder _i is ts[i-1]); its shape is the broadcast of the
/// tensors', its type the expression's.
poplar::Tensor map(poplar::Graph &graph, const expr::Expr &expr,
                   const std::vector<poplar::Tensor> &ts, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});
/// expr over ts, stored into ts[0] (which must not alias itself and must have the result's
/// shape and type).
void mapInPlace(poplar::Graph &graph, const expr::Expr &expr, const std::vector<poplar::Tensor> &ts,
                poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {});
/// expr over ts, stored into out.
void mapWithOutput(poplar::Graph &graph, const expr::Expr &expr,
                   const std::vector<poplar::Tensor> &ts, const poplar::Tensor &out,
                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = {});

inline poplar::Tensor map(poplar::Graph &graph, expr::UnaryOpType op, const poplar::Tensor &t,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return map(graph, expr::UnaryOp(op, expr::_1), {t}, prog, debugContext, options);
}
inline poplar::Tensor map(poplar::Graph &graph, expr::BinaryOpType op, const poplar::Tensor &a,
                          const poplar::Tensor &b, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return map(graph, expr::BinaryOp(op, expr::_1, expr::_2), {a, b}, prog, debugContext, options);
}
inline poplar::Tensor map(poplar::Graph &graph, expr::TernaryOpType op, const poplar::Tensor &a,
                          const poplar::Tensor &b, const poplar::Tensor &c,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  return map(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3), {a, b, c}, prog,
             debugContext, options);
}
inline void mapInPlace(poplar::Graph &graph, expr::UnaryOpType op, const poplar::Tensor &t,
                       poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = {}) {
  mapInPlace(graph, expr::UnaryOp(op, expr::_1), {t}, prog, debugContext, options);
}
inline void mapInPlace(poplar::Graph &graph, expr::BinaryOpType op, const poplar::Tensor &a,
                       const poplar::Tensor &b, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = {}) {
  mapInPlace(graph, expr::BinaryOp(op, expr::_1, expr::_2), {a, b}, prog, debugContext, options);
}
inline void mapInPlace(poplar::Graph &graph, expr::TernaryOpType op, const poplar::Tensor &a,
                       const poplar::Tensor &b, const poplar::Tensor &c,
                       poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = {}) {
  mapInPlace(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3), {a, b, c}, prog,
             debugContext, options);
}

// Named unary ops: f(graph, A, prog), fInPlace(graph, A, prog), fWithOutput(graph, A, out, prog).
#define POPOPS_UNARY_FUNCTION(f, OP)                                                               \
  inline poplar::Tensor f(                                                                         \
      poplar::Graph &graph, const poplar::Tensor &A, poplar::program::Sequence &prog,              \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {}) {    \
    return map(graph, expr::UnaryOp(expr::UnaryOpType::OP, expr::_1), {A}, prog, debugContext,     \
               options);                                                                           \
  }                                                                                                \
  inline void f##InPlace(                                                                          \
      poplar::Graph &graph, const poplar::Tensor &A, poplar::program::Sequence &prog,              \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {}) {    \
    mapInPlace(graph, expr::UnaryOp(expr::UnaryOpType::OP, expr::_1), {A}, prog, debugContext,     \
               options);                                                                           \
  }                                                                                                \
  inline void f##WithOutput(poplar::Graph &graph, const poplar::Tensor &A,                         \
                            const poplar::Tensor &out, poplar::program::Sequence &prog,            \
                            const poplar::DebugContext &debugContext = {},                         \
                            const poplar::OptionFlags &options = {}) {                             \
    mapWithOutput(graph, expr::UnaryOp(expr::UnaryOpType::OP, expr::_1), {A}, out, prog,           \
                  debugContext, options);                                                          \
  }
POPOPS_UNARY_FUNCTION(abs, ABSOLUTE)
POPOPS_UNARY_FUNCTION(asin, ASIN)
POPOPS_UNARY_FUNCTION(bitwiseNot, BITWISE_NOT)
POPOPS_UNARY_FUNCTION(cbrt, CBRT)
POPOPS_UNARY_FUNCTION(ceil, CEIL)
POPOPS_UNARY_FUNCTION(cos, COS)
POPOPS_UNARY_FUNCTION(countLeadingZeros, COUNT_LEADING_ZEROS)
POPOPS_UNARY_FUNCTION(erf, ERF)
POPOPS_UNARY_FUNCTION(exp, EXPONENT)
POPOPS_UNARY_FUNCTION(expm1, EXPONENT_MINUS_ONE)
POPOPS_UNARY_FUNCTION(exp2, EXPONENT2)
POPOPS_UNARY_FUNCTION(floor, FLOOR)
POPOPS_UNARY_FUNCTION(geluErf, GELU_ERF)
POPOPS_UNARY_FUNCTION(inv, INVERSE)
POPOPS_UNARY_FUNCTION(isFinite, IS_FINITE)
POPOPS_UNARY_FUNCTION(isInf, IS_INF)
POPOPS_UNARY_FUNCTION(isNaN, IS_NAN)
POPOPS_UNARY_FUNCTION(log, LOGARITHM)
POPOPS_UNARY_FUNCTION(log1p, LOGARITHM_ONE_PLUS)
POPOPS_UNARY_FUNCTION(logicalNot, LOGICAL_NOT)
POPOPS_UNARY_FUNCTION(neg, NEGATE)
POPOPS_UNARY_FUNCTION(nearbyint, NEARBY_INT)
POPOPS_UNARY_FUNCTION(popcount, POPCOUNT)
POPOPS_UNARY_FUNCTION(relu, RELU)
POPOPS_UNARY_FUNCTION(signum, SIGNUM)
POPOPS_UNARY_FUNCTION(sin, SIN)
POPOPS_UNARY_FUNCTION(tan, TAN)
POPOPS_UNARY_FUNCTION(tanh, TANH)
POPOPS_UNARY_FUNCTION(round, ROUND)
POPOPS_UNARY_FUNCTION(trunc, TRUNC)
POPOPS_UNARY_FUNCTION(sqrt, SQRT)
POPOPS_UNARY_FUNCTION(square, SQUARE)
POPOPS_UNARY_FUNCTION(sigmoid, SIGMOID)
POPOPS_UNARY_FUNCTION(rsqrt, RSQRT)
#undef POPOPS_UNARY_FUNCTION

// Named binary ops, each with a tensor or a constant on either side: f(graph, A, B, prog),
// fInPlace(graph, A, B, prog) (A = f(A, B)) and fWithOutput(graph, A, B, out, prog).
#define POPOPS_BINARY_FUNCTION(f, OP)                                                              \
  inline poplar::Tensor f(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,  \
                          poplar::program::Sequence &prog,                                         \
                          const poplar::DebugContext &debugContext = {},                           \
                          const poplar::OptionFlags &options = {}) {                               \
    return map(graph, expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::_2), {A, B}, prog,    \
               debugContext, options);                                                             \
  }                                                                                                \
  template <typename C>                                                                            \
  poplar::Tensor f(poplar::Graph &graph, const poplar::Tensor &A, const C B,                       \
                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {}, \
                   const poplar::OptionFlags &options = {}) {                                      \
    return map(graph, expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::Const(B)), {A}, prog, \
               debugContext, options);                                                             \
  }                                                                                                \
  template <typename C>                                                                            \
  poplar::Tensor f(poplar::Graph &graph, const C A, const poplar::Tensor &B,                       \
                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {}, \
                   const poplar::OptionFlags &options = {}) {                                      \
    return map(graph, expr::BinaryOp(expr::BinaryOpType::OP, expr::Const(A), expr::_1), {B}, prog, \
               debugContext, options);                                                             \
  }                                                                                                \
  inline void f##InPlace(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,   \
                         poplar::program::Sequence &prog,                                          \
                         const poplar::DebugContext &debugContext = {},                            \
                         const poplar::OptionFlags &options = {}) {                                \
    mapInPlace(graph, expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::_2), {A, B}, prog,    \
               debugContext, options);                                                             \
  }                                                                                                \
  template <typename C>                                                                            \
  void f##InPlace(poplar::Graph &graph, const poplar::Tensor &A, const C B,                        \
                  poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},  \
                  const poplar::OptionFlags &options = {}) {                                       \
    mapInPlace(graph, expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::Const(B)), {A}, prog, \
               debugContext, options);                                                             \
  }                                                                                                \
  inline void f##WithOutput(                                                                       \
      poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,                      \
      const poplar::Tensor &out, poplar::program::Sequence &prog,                                  \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {}) {    \
    mapWithOutput(graph, expr::BinaryOp(expr::BinaryOpType::OP, expr::_1, expr::_2), {A, B}, out,  \
                  prog, debugContext, options);                                                    \
  }
POPOPS_BINARY_FUNCTION(add, ADD)
POPOPS_BINARY_FUNCTION(atan2, ATAN2)
POPOPS_BINARY_FUNCTION(bitwiseAnd, BITWISE_AND)
POPOPS_BINARY_FUNCTION(bitwiseOr, BITWISE_OR)
POPOPS_BINARY_FUNCTION(bitwiseXor, BITWISE_XOR)
POPOPS_BINARY_FUNCTION(bitwiseXnor, BITWISE_XNOR)
POPOPS_BINARY_FUNCTION(div, DIVIDE)
POPOPS_BINARY_FUNCTION(eq, EQUAL)
POPOPS_BINARY_FUNCTION(gteq, GREATER_THAN_EQUAL)
POPOPS_BINARY_FUNCTION(gt, GREATER_THAN)
POPOPS_BINARY_FUNCTION(invStdDevToVariance, INV_STD_DEV_TO_VARIANCE)
POPOPS_BINARY_FUNCTION(lteq, LESS_THAN_EQUAL)
POPOPS_BINARY_FUNCTION(logicalAnd, LOGICAL_AND)
POPOPS_BINARY_FUNCTION(logicalOr, LOGICAL_OR)
POPOPS_BINARY_FUNCTION(lt, LESS_THAN)
POPOPS_BINARY_FUNCTION(max, MAXIMUM)
POPOPS_BINARY_FUNCTION(min, MINIMUM)
POPOPS_BINARY_FUNCTION(mul, MULTIPLY)
POPOPS_BINARY_FUNCTION(neq, NOT_EQUAL)
POPOPS_BINARY_FUNCTION(pow, POWER)
POPOPS_BINARY_FUNCTION(rem, REMAINDER)
POPOPS_BINARY_FUNCTION(shiftLeft, SHIFT_LEFT)
POPOPS_BINARY_FUNCTION(shiftRight, SHIFT_RIGHT)
POPOPS_BINARY_FUNCTION(shiftRightSignExtend, SHIFT_RIGHT_SIGN_EXTEND)
POPOPS_BINARY_FUNCTION(sub, SUBTRACT)
POPOPS_BINARY_FUNCTION(varianceToInvStdDev, VARIANCE_TO_INV_STD_DEV)
#undef POPOPS_BINARY_FUNCTION

/// cond ? A : B, element by element.
inline poplar::Tensor select(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                             const poplar::Tensor &cond, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {}) {
  return map(graph, expr::TernaryOpType::SELECT, A, B, cond, prog, debugContext, options);
}
inline void selectInPlace(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                          const poplar::Tensor &cond, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = {}) {
  mapInPlace(graph, expr::TernaryOpType::SELECT, A, B, cond, prog, debugContext, options);
}
/// min(max(A, lower), upper), element by element.
inline poplar::Tensor clamp(poplar::Graph &graph, const poplar::Tensor &A,
                            const poplar::Tensor &lower, const poplar::Tensor &upper,
                            poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = {}) {
  return map(graph, expr::TernaryOpType::CLAMP, A, lower, upper, prog, debugContext, options);
}
inline void clampInPlace(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &lower,
                         const poplar::Tensor &upper, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {}) {
  mapInPlace(graph, expr::TernaryOpType::CLAMP, A, lower, upper, prog, debugContext, options);
}

/// A new tensor of `outType` with the shape of the inputs (which must all have one shape) and
/// the tile mapping of the best-laid-out of them (complete, without aliases), else linear.
poplar::Tensor createOutputForElementWiseOp(poplar::Graph &graph,
                                            const std::vector<poplar::Tensor> &inputs,
                                            const poplar::Type &outType,
                                            const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif
