// The element-wise op table, expanded for the host.
#include "ExprOps.hpp"

#include "popops/ElementwiseOps.hpp"
#include "popops/TypeLists.hpp"

#include <map>

namespace popops::internal {

using namespace poplar;

namespace {

Type typeOfToken(const std::string &token) {
  static const std::map<std::string, Type> types = {
      {"float", FLOAT}, {"half", HALF}, {"int", INT}, {"unsigned", UNSIGNED_INT}, {"bool", BOOL}};
  return types.at(token);
}

#define POPOPS_APPEND_TYPE(info, T) info.types.push_back(typeOfToken(#T));
#define POPOPS_OP_INFO(table, Enum, op, typeList, result)                                          \
  {                                                                                                \
    OpInfo info;                                                                                   \
    info.name = #op;                                                                               \
    info.predicate = std::string(#result) == "BOOL";                                               \
    POPOPS_TYPES_##typeList(POPOPS_APPEND_TYPE, info) table[expr::Enum::op] = info;                \
  }

const std::map<expr::UnaryOpType, OpInfo> &unaryTable() {
  static const std::map<expr::UnaryOpType, OpInfo> table = [] {
    std::map<expr::UnaryOpType, OpInfo> t;
    POPOPS_UNARY_OPS(POPOPS_OP_INFO, t, UnaryOpType)
    return t;
  }();
  return table;
}

const std::map<expr::BinaryOpType, OpInfo> &binaryTable() {
  static const std::map<expr::BinaryOpType, OpInfo> table = [] {
    std::map<expr::BinaryOpType, OpInfo> t;
    POPOPS_BINARY_OPS(POPOPS_OP_INFO, t, BinaryOpType)
    return t;
  }();
  return table;
}

} // namespace

bool OpInfo::supports(const Type &t) const {
  for (const auto &x : types)
    if (x == t)
      return true;
  return false;
}

std::string OpInfo::typesText() const {
  std::string s;
  for (const auto &t : types)
    s += (s.empty() ? "" : ", ") + t.toString();
  return s;
}

const OpInfo &opInfo(expr::UnaryOpType op) { return unaryTable().at(op); }
const OpInfo &opInfo(expr::BinaryOpType op) { return binaryTable().at(op); }

std::string opArgument(expr::UnaryOpType op) {
  return "popops::expr::UnaryOpType::" + opInfo(op).name;
}
std::string opArgument(expr::BinaryOpType op) {
  return "popops::expr::BinaryOpType::" + opInfo(op).name;
}

std::string deviceTypeName(const Type &t) {
  if (t == UNSIGNED_INT)
    return "unsigned";
  return t.toString();
}

} // namespace popops::internal
