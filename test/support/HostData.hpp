// Host values <-> device bytes for tests: every value is a double on the host, converted to and
// from the device layout of its poplar::Type (half rounded to nearest even, as the IPU stores it).
#pragma once

#include <poplar/Type.hpp>

#include <cstdint>
#include <vector>

namespace popsdk::test {

/// Device bytes of `values` as `type` (FLOAT, HALF, INT, UNSIGNED_INT, BOOL, SHORT,
/// UNSIGNED_SHORT, CHAR, UNSIGNED_CHAR).
std::vector<std::uint8_t> toDevice(poplar::Type type, const std::vector<double> &values);
std::vector<double> fromDevice(poplar::Type type, const std::vector<std::uint8_t> &bytes);
/// `x` as the device stores it in `type`.
double roundTo(poplar::Type type, double x);
/// Deterministic values in [lo, hi], exactly representable in `type` (integers for integer
/// types, multiples of 1/64 otherwise).
std::vector<double> hostData(poplar::Type type, std::size_t n, double lo, double hi,
                             unsigned seed = 1);

} // namespace popsdk::test
