// Host reference for popops' reductions: each output folded in double precision from the
// elements that reduce into it, with what a tolerance needs to know about the fold.
#pragma once

#include <poplar/Type.hpp>
#include <popops/OperationDef.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace popsdk::reference {

/// The exact fold of each output, before scale, update and rounding to the output type.
struct Reduction {
  std::vector<double> values;
  /// The size of what was folded: the sum of |terms| for ADD and SQUARE_ADD (of the squares),
  /// |value| otherwise. Rounding errors of a float fold are relative to it.
  std::vector<double> magnitude;
  /// How many input elements fold into each output.
  std::size_t terms = 0;
};

/// Reduces `in` (row-major, of `shape`) over `dims` with `op`: the output has shape without
/// `dims`, row-major. An output with no terms is the identity of op for `outType`.
Reduction reduce(popops::Operation op, const std::vector<double> &in,
                 const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
                 poplar::Type outType);

/// What the device stores: the fold scaled (LOG_ADD: the scale added), added to `initial` when
/// updating (LOG_ADD: log-added), rounded to `outType` (integers truncated).
std::vector<double> finish(popops::Operation op, const Reduction &r, poplar::Type outType,
                           std::optional<double> scale = std::nullopt,
                           const std::vector<double> *initial = nullptr);

/// The identity of op for elements of `type`: 0 for ADD, 1 for MUL, the lowest value for MAX...
double identity(popops::Operation op, poplar::Type type);

/// log(exp(a) + exp(b)).
double logAdd(double a, double b);

} // namespace popsdk::reference
