// What the host knows of each element-wise op, from the one op table (ElementwiseOps.hpp): its
// name as vertex names print it, the element types its vertices exist for, and its result type.
#pragma once

#include <poplar/Type.hpp>
#include <popops/ExprOp.hpp>

#include <string>
#include <vector>

namespace popops::internal {

struct OpInfo {
  std::string name;                // "ADD"
  std::vector<poplar::Type> types; // element types with vertices
  bool predicate = false;          // result is BOOL
  bool supports(const poplar::Type &t) const;
  std::string typesText() const;
};

const OpInfo &opInfo(expr::UnaryOpType op);
const OpInfo &opInfo(expr::BinaryOpType op);

/// "popops::expr::BinaryOpType::ADD", as templateVertex prints an op argument.
std::string opArgument(expr::UnaryOpType op);
std::string opArgument(expr::BinaryOpType op);

/// The C++ spelling of an element type in a codelet ("float", "half", "unsigned").
std::string deviceTypeName(const poplar::Type &t);

} // namespace popops::internal
