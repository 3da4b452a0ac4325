// Type checking of popops expressions: each node's element type, with constants taking the type
// of the tensor operand beside them, as PopLibs does.
#pragma once

#include <poplar/Type.hpp>
#include <popops/Expr.hpp>

#include <string>
#include <vector>

namespace popops::internal {

/// The element type of `e` over inputs of `inputTypes`, where a constant takes `context` if
/// given (Type() for none). Throws poplibs_error naming `api`, the op and the types when an op is
/// not defined for its operand types, operand types differ, or a placeholder has no tensor.
poplar::Type exprType(const expr::Expr &e, const std::vector<poplar::Type> &inputTypes,
                      const std::string &api, const poplar::Type &context = poplar::Type());

/// The type the operands of a binary or ternary op are computed in (after constants adopt the
/// type of the tensor operands).
poplar::Type operandType(const std::vector<const expr::Expr *> &operands,
                         const std::vector<poplar::Type> &inputTypes, const std::string &api,
                         const poplar::Type &context);

/// The context the operands of op `e` give their constants: `e`'s own, except under a
/// comparison or another predicate, whose bool result says nothing of its operands' type.
poplar::Type operandContext(const expr::Expr &e, const poplar::Type &context);

/// The placeholder indices (1-based) `e` uses, ascending.
std::vector<unsigned> placeholdersOf(const expr::Expr &e);

} // namespace popops::internal
