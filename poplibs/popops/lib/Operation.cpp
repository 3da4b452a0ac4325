// popops::Operation read and written as its enumerator name, from the reduction op table.
#include <popops/Operation.hpp>

#include <istream>
#include <ostream>
#include <string>

#include "popops/ReduceOps.hpp"

namespace popops {

namespace {
struct OpName {
  Operation op;
  const char *name;
};
#define POPOPS_OP_NAME(unused, op, reduceOp, pairs, scaleAndUpdate) {Operation::op, #op},
constexpr OpName opNames[] = {POPOPS_REDUCE_OPS(POPOPS_OP_NAME, unused)};
#undef POPOPS_OP_NAME
} // namespace

std::istream &operator>>(std::istream &is, Operation &op) {
  std::string token;
  if (!(is >> token))
    return is;
  for (const auto &n : opNames)
    if (token == n.name) {
      op = n.op;
      return is;
    }
  is.setstate(std::ios::failbit);
  return is;
}

std::ostream &operator<<(std::ostream &os, const Operation &op) {
  for (const auto &n : opNames)
    if (n.op == op)
      return os << n.name;
  return os << "Operation(" << static_cast<int>(op) << ")";
}

} // namespace popops
