// Fused expressions: the C++ source of one MultiVertex that evaluates a whole popops expression
// per element, compiled by popc at graph construction time (Graph::addCodelets, cached).
#pragma once

#include <poplar/Type.hpp>
#include <popops/Expr.hpp>

#include <string>
#include <vector>

namespace popops::internal {

struct GeneratedCodelet {
  std::string vertexName; // popops::map::Expr_<hash of the source>
  std::string source;
  /// Fields: "in<i>" for each placeholder i the expression uses (1-based, in order), then
  /// "out"; in place, "in1" is an InOut and there is no "out".
  std::vector<unsigned> placeholders;
};

/// The codelet for `expr` over inputs of `inputTypes` (placeholder i has inputTypes[i-1]),
/// writing `outType`. The expression must have passed type checking (ExprTypes.hpp).
GeneratedCodelet generateCodelet(const expr::Expr &expr,
                                 const std::vector<poplar::Type> &inputTypes,
                                 const poplar::Type &outType, bool inPlace);

} // namespace popops::internal
