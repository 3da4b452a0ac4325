// Conversions between host values and device element bytes, for constants, initial values,
// printing and control flow on tensor values.
#pragma once

#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>

namespace poplar::detail {

/// Converts `n` host values of type `from` at `src` into `n` device elements of type `to` at
/// `dst` (to.size() bytes each, no alignment needed). Integers wrap modulo 2^bits as C++
/// conversions do; floating-point values become integers by truncation toward zero, saturating
/// at the target's range, with NaN giving 0; HALF rounds to nearest even; BOOL stores 1 for any
/// non-zero value and 0 otherwise.
void convertHostToDevice(HostType from, const void *src, std::size_t n, Type to, void *dst);

/// The value of one device element of type `t` at `p` (no alignment needed).
double deviceElementToDouble(Type t, const void *p);

/// The value of one device element as an integer: floating-point values are truncated toward
/// zero and saturated, NaN gives 0; UNSIGNED_LONGLONG values above INT64_MAX saturate.
std::int64_t deviceElementToInt(Type t, const void *p);

/// IEEE binary64 to binary16 with a single rounding (round to nearest even), so that double
/// constants do not suffer the double rounding of going through float.
std::uint16_t doubleToHalf(double d);

} // namespace poplar::detail
