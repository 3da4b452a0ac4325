// Host reference for popops' reductions.
#include "Reduce.hpp"

#include "HostData.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace popsdk::reference {

using popops::Operation;
using namespace poplar;

double logAdd(double a, double b) {
  double hi = std::max(a, b), lo = std::min(a, b);
  if (lo == -std::numeric_limits<double>::infinity())
    return hi;
  return hi + std::log1p(std::exp(lo - hi));
}

double identity(Operation op, Type type) {
  const double inf = std::numeric_limits<double>::infinity();
  switch (op) {
  case Operation::ADD:
  case Operation::SQUARE_ADD:
  case Operation::LOGICAL_OR:
    return 0;
  case Operation::MUL:
  case Operation::LOGICAL_AND:
    return 1;
  case Operation::LOG_ADD:
    return -inf;
  case Operation::MAX:
    return type == INT            ? double(std::numeric_limits<std::int32_t>::min())
           : type == UNSIGNED_INT ? 0.0
                                  : -inf;
  case Operation::MIN:
    return type == INT            ? double(std::numeric_limits<std::int32_t>::max())
           : type == UNSIGNED_INT ? double(std::numeric_limits<std::uint32_t>::max())
                                  : inf;
  }
  throw std::invalid_argument("reference::identity: unknown operation");
}

namespace {

double fold(Operation op, double acc, double x) {
  switch (op) {
  case Operation::ADD:
    return acc + x;
  case Operation::SQUARE_ADD:
    return acc + x * x;
  case Operation::MUL:
    return acc * x;
  case Operation::MAX:
    return std::max(acc, x);
  case Operation::MIN:
    return std::min(acc, x);
  case Operation::LOGICAL_AND:
    return double(acc != 0 && x != 0);
  case Operation::LOGICAL_OR:
    return double(acc != 0 || x != 0);
  case Operation::LOG_ADD:
    return logAdd(acc, x);
  }
  throw std::invalid_argument("reference::reduce: unknown operation");
}

/// Integer folds wrap as 32-bit arithmetic does on the tile.
double wrap(Type t, double x) {
  if (t == INT)
    return double(std::int32_t(std::uint32_t(std::int64_t(std::fmod(x, 4294967296.0)))));
  if (t == UNSIGNED_INT)
    return double(std::uint32_t(std::int64_t(std::fmod(x, 4294967296.0))));
  return x;
}

} // namespace

Reduction reduce(Operation op, const std::vector<double> &in, const std::vector<std::size_t> &shape,
                 const std::vector<std::size_t> &dims, Type outType) {
  std::vector<bool> reduced(shape.size(), false);
  for (auto d : dims)
    reduced.at(d) = true;
  std::size_t numOut = 1, numIn = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    numIn *= shape[d];
    if (!reduced[d])
      numOut *= shape[d];
  }
  if (in.size() != numIn)
    throw std::invalid_argument("reference::reduce: input size does not match its shape");
  Reduction r;
  r.values.assign(numOut, identity(op, outType));
  r.magnitude.assign(numOut, 0);
  r.terms = numOut ? numIn / numOut : 0;
  std::vector<std::size_t> index(shape.size(), 0);
  for (std::size_t i = 0; i < numIn; ++i) {
    std::size_t o = 0;
    for (std::size_t d = 0; d < shape.size(); ++d)
      if (!reduced[d])
        o = o * shape[d] + index[d];
    double x = in[i];
    r.values[o] = wrap(outType, fold(op, r.values[o], x));
    r.magnitude[o] += op == Operation::SQUARE_ADD ? x * x : std::fabs(x);
    for (std::size_t d = shape.size(); d-- > 0;)
      if (++index[d] < shape[d])
        break;
      else
        index[d] = 0;
  }
  if (op != Operation::ADD && op != Operation::SQUARE_ADD)
    for (std::size_t o = 0; o < numOut; ++o)
      r.magnitude[o] = std::fabs(r.values[o]);
  return r;
}

std::vector<double> finish(Operation op, const Reduction &r, Type outType,
                           std::optional<double> scale, const std::vector<double> *initial) {
  const bool isLog = op == Operation::LOG_ADD;
  std::vector<double> out(r.values.size());
  for (std::size_t o = 0; o < out.size(); ++o) {
    double v = r.values[o];
    if (scale)
      v = isLog ? v + *scale : v * *scale;
    // An integer result is converted from the scaled float before any update adds to it.
    if (outType == INT || outType == UNSIGNED_INT)
      v = std::trunc(v);
    if (initial)
      v = isLog ? logAdd(initial->at(o), v) : initial->at(o) + v;
    out[o] = popsdk::test::roundTo(outType, v);
  }
  return out;
}

} // namespace popsdk::reference
