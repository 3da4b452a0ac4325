// The element-wise op cost table: PopLibs' per-op inner-loop figures (popopsCycleEstimators'
// unaryOpPerfInfo and binaryOpPerfInfo, SDK 3.4), one named constant per op of
// ElementwiseOps.hpp. The tables below are built by expanding that op list, so an op without a
// constant does not compile, and static_asserts check that every (op, type) popops builds a vertex
// for has a figure. PopLibs' separate in-place tables differ from these by one or two cycles for a
// few ops; the in-place estimators use these. "No PopLibs figure" marks a pair PopLibs does not
// build, costed as the named op that runs the same instructions.
#include "ElementwiseOpCosts.hpp"

#include <poputil/exceptions.hpp>

#include "popops/ElementwiseOps.hpp"
#include "popops/TypeLists.hpp"

#include <string>

namespace popops::internal {

namespace {

using expr::BinaryOpType;
using expr::UnaryOpType;

/// A natural vector per trip; `unroll` elements per trip; one element per trip (+ overhead).
constexpr LoopCost vec(unsigned cycles) { return {cycles, true, 0}; }
constexpr LoopCost per(unsigned cycles, unsigned unroll) { return {cycles, false, unroll}; }
constexpr LoopCost one(unsigned cycles) { return {cycles, false, 0}; }
constexpr LoopCost none{};

/// An op's loop cost per element type (members named after the type tokens of TypeLists.hpp).
struct OpCost {
  LoopCost float_, half_, int_, unsigned_, bool_;
  constexpr OpCost(LoopCost f, LoopCost h, LoopCost i = none, LoopCost u = none, LoopCost b = none)
      : float_(f), half_(h), int_(i), unsigned_(u), bool_(b) {}
};

// Columns: float, half, int, unsigned, bool.
namespace unary {
constexpr OpCost ABSOLUTE{one(1), one(1), one(2)};
constexpr OpCost ASIN{one(102), one(102)};
constexpr OpCost BITWISE_NOT{none, none, vec(1), vec(1)};
constexpr OpCost CBRT{vec(27), vec(17)};
constexpr OpCost CEIL{vec(2), vec(2)};
constexpr OpCost COS{one(2300), per(26, 1)};
constexpr OpCost COUNT_LEADING_ZEROS{none, none, one(1), one(1)};
constexpr OpCost ERF{per(41, 1), per(13, 1)};
constexpr OpCost EXPONENT{per(6, 2), per(4, 4)};
constexpr OpCost EXPONENT_MINUS_ONE{one(4), vec(5)};
constexpr OpCost EXPONENT2{per(6, 2), per(4, 4)}; // no PopLibs figure: as EXPONENT
constexpr OpCost FLOOR{vec(2), vec(2)};
constexpr OpCost GELU_ERF{per(22, 1), per(16, 1)};
constexpr OpCost INVERSE{per(6, 2), per(15, 4)};
constexpr OpCost IS_FINITE{vec(5), vec(5)};
constexpr OpCost IS_INF{vec(3), vec(5)};
constexpr OpCost IS_NAN{vec(3), vec(3)};
constexpr OpCost LOGARITHM{per(12, 2), per(4, 4)};
constexpr OpCost LOGARITHM_ONE_PLUS{vec(180), vec(180)};
constexpr OpCost LOGICAL_NOT{none, none, none, none, one(17)};
constexpr OpCost NEGATE{per(2, 2), per(2, 4), one(2)};
constexpr OpCost NEARBY_INT{vec(2), vec(2)};
constexpr OpCost POPCOUNT{none, none, one(1), one(1)};
constexpr OpCost RELU{per(3, 2), per(3, 4), one(2)}; // int: no PopLibs figure, as ABSOLUTE
constexpr OpCost SIGNUM{vec(5), vec(5), one(5)};
constexpr OpCost SIN{one(2300), per(25, 1)};
constexpr OpCost TAN{per(5100, 1), per(5700, 1)};
constexpr OpCost TANH{per(12, 2), per(4, 4)};
constexpr OpCost ROUND{vec(2), vec(2)};
constexpr OpCost SQRT{per(10, 2), per(23, 4), one(110)};
constexpr OpCost SQUARE{per(2, 2), per(2, 4), vec(1), vec(1)};
constexpr OpCost SIGMOID{per(12, 2), per(6, 4)};
constexpr OpCost RSQRT{per(8, 2), per(19, 4)};
constexpr OpCost TRUNC{vec(2), vec(2)}; // no PopLibs figure: as CEIL
} // namespace unary

namespace binary {
constexpr OpCost ADD{vec(1), vec(1), per(7, 1), per(7, 1)};
constexpr OpCost ATAN2{per(272, 2), per(578, 4)};
constexpr OpCost BITWISE_AND{none, none, per(7, 1), per(7, 1)};
constexpr OpCost BITWISE_OR{none, none, per(7, 1), per(7, 1)};
constexpr OpCost BITWISE_XOR{none, none, per(7, 1), per(7, 1)};
constexpr OpCost BITWISE_XNOR{none, none, per(7, 1), per(7, 1)};
constexpr OpCost DIVIDE{per(10, 2), per(21, 4), per(277, 1), per(265, 1)};
constexpr OpCost EQUAL{per(14, 4), per(9, 4), per(22, 4), per(22, 4), per(6, 4)};
constexpr OpCost GREATER_THAN_EQUAL{per(14, 4), per(9, 4), per(26, 4), per(26, 4), per(28, 4)};
constexpr OpCost GREATER_THAN{per(14, 4), per(9, 4), per(22, 4), per(22, 4), per(31, 4)};
// No BinaryOp figure: the broadcast-scalar table's.
constexpr OpCost INV_STD_DEV_TO_VARIANCE{per(11, 2), per(10, 2)};
constexpr OpCost LESS_THAN_EQUAL{per(14, 4), per(9, 4), per(26, 4), per(26, 4), per(28, 4)};
constexpr OpCost LOGICAL_AND{none, none, none, none, per(5, 4)};
constexpr OpCost LOGICAL_OR{none, none, none, none, per(5, 4)};
constexpr OpCost LESS_THAN{per(14, 4), per(9, 4), per(22, 4), per(22, 4), per(28, 4)};
constexpr OpCost MAXIMUM{per(3, 2), per(4, 4), per(7, 1), per(8, 1)};
constexpr OpCost MINIMUM{per(3, 2), per(4, 4), per(7, 1), per(8, 1)};
constexpr OpCost MULTIPLY{vec(1), vec(1), per(7, 1), per(7, 1)};
constexpr OpCost NOT_EQUAL{per(20, 4), per(11, 4), per(22, 4), per(22, 4), per(5, 4)};
constexpr OpCost POWER{per(312, 1), per(325, 1)};
constexpr OpCost REMAINDER{per(133, 2), per(300, 4), per(292, 1), per(282, 1)};
constexpr OpCost SHIFT_LEFT{none, none, per(7, 1), per(7, 1)};
constexpr OpCost SHIFT_RIGHT{none, none, per(7, 1), per(7, 1)};
constexpr OpCost SHIFT_RIGHT_SIGN_EXTEND{none, none, per(7, 1)};
constexpr OpCost SUBTRACT{vec(1), vec(1), per(7, 1), per(7, 1)};
// No BinaryOp figure: the broadcast-scalar table's.
constexpr OpCost VARIANCE_TO_INV_STD_DEV{per(12, 2), per(24, 4)};
} // namespace binary

// Every type an op's vertices are built for has a figure.
#define POPOPS_CHECK_COST(ns, op, T)                                                               \
  static_assert(ns::op.T##_.cyclesPerLoop > 0, #ns " op " #op " has no " #T " loop cost");
#define POPOPS_CHECK_OP(ns, op, types, result) POPOPS_TYPES_##types(POPOPS_CHECK_COST, ns, op)
POPOPS_UNARY_OPS(POPOPS_CHECK_OP, unary)
POPOPS_BINARY_OPS(POPOPS_CHECK_OP, binary)
#undef POPOPS_CHECK_OP
#undef POPOPS_CHECK_COST

template <class Op> struct Row {
  Op op;
  const char *name;
  OpCost cost;
};
#define POPOPS_COST_ROW(Op, ns, op, types, result) {Op::op, #op, ns::op},
constexpr Row<UnaryOpType> kUnaryCosts[] = {POPOPS_UNARY_OPS(POPOPS_COST_ROW, UnaryOpType, unary)};
constexpr Row<BinaryOpType> kBinaryCosts[] = {
    POPOPS_BINARY_OPS(POPOPS_COST_ROW, BinaryOpType, binary)};
#undef POPOPS_COST_ROW

template <class Op, std::size_t N>
LoopCost lookup(const Row<Op> (&table)[N], Op op, const poplar::Type &type, const char *kind) {
  for (const auto &row : table) {
    if (row.op != op)
      continue;
    const OpCost &c = row.cost;
    LoopCost cost = type == poplar::FLOAT          ? c.float_
                    : type == poplar::HALF         ? c.half_
                    : type == poplar::INT          ? c.int_
                    : type == poplar::UNSIGNED_INT ? c.unsigned_
                    : type == poplar::BOOL         ? c.bool_
                                                   : none;
    if (cost.cyclesPerLoop == 0)
      throw poputil::poplibs_error(std::string("popops cycle estimate: no ") + kind + " op " +
                                   row.name + " vertex for element type " + type.toString());
    return cost;
  }
  throw poputil::poplibs_error(std::string("popops cycle estimate: unknown ") + kind + " op " +
                               std::to_string(int(op)));
}

} // namespace

LoopCost unaryLoopCost(UnaryOpType op, const poplar::Type &type) {
  return lookup(kUnaryCosts, op, type, "unary");
}

LoopCost binaryLoopCost(BinaryOpType op, const poplar::Type &type) {
  return lookup(kBinaryCosts, op, type, "binary");
}

} // namespace popops::internal
