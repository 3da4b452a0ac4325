// The 64-bit vector loop of a generated popops::map codelet: float2 or half4 steps over the
// worker's share before its element-by-element loop (GenerateCodelet.cpp).
#pragma once

#include <poplar/Type.hpp>
#include <popops/Expr.hpp>

#include <string>
#include <vector>

namespace popops::internal {

/// `value` as a C++ literal of `type` (a half constant rounded to half first).
std::string constantLiteral(double value, const poplar::Type &type);

/// The statements of the vector loop of `expr`, ending in the declaration of `i`, the first
/// element left to the scalar loop; empty when the expression has no vector form (an operand or
/// the result not of one type float or half, or a cast, predicate, select or clamp). The loop
/// reads fields "in<p>" for `placeholders` and writes `store`, over the worker range `r`.
std::string vectorLoop(const expr::Expr &expr, const std::vector<poplar::Type> &inputTypes,
                       const poplar::Type &outType, const std::vector<unsigned> &placeholders,
                       const std::string &store);

} // namespace popops::internal
