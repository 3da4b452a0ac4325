// IEEE binary16 <-> binary32 conversions with the ISA's rounding (nearest even), bit-exact.
#pragma once

#include <cstdint>
#include <cstring>

namespace poplar::isa {

inline float bitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline uint32_t floatToBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

inline float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0x1f) // inf / NaN: keep the payload, quieted the way hardware converts
    return bitsToFloat(sign | 0x7f800000u | (mant << 13) | (mant ? 0x400000u : 0));
  if (exp != 0)
    return bitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
  if (mant == 0)
    return bitsToFloat(sign);
  // Subnormal half: normalise into an f32 exponent.
  int e = 113;
  while (!(mant & 0x400)) {
    mant <<= 1;
    --e;
  }
  return bitsToFloat(sign | (uint32_t(e) << 23) | ((mant & 0x3ff) << 13));
}

inline uint16_t floatToHalf(float f) {
  const uint32_t u = floatToBits(f);
  const uint16_t sign = uint16_t((u >> 16) & 0x8000);
  const uint32_t absU = u & 0x7fffffffu;
  if (absU >= 0x7f800000u) // inf / NaN (NaN stays quiet NaN)
    return uint16_t(sign | 0x7c00 | (absU > 0x7f800000u ? 0x200 | ((absU >> 13) & 0x3ff) : 0));
  if (absU >= 0x477ff000u) // rounds to >= 65520: overflow to inf
    return uint16_t(sign | 0x7c00);
  const int exp = int(absU >> 23) - 127;
  if (exp >= -14) { // normal half
    uint32_t mant = absU & 0x7fffff;
    uint32_t h = (uint32_t(exp + 15) << 10) | (mant >> 13);
    const uint32_t rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
      ++h; // carries into the exponent correctly
    return uint16_t(sign | h);
  }
  if (exp < -25) // below half the smallest subnormal: rounds to zero
    return sign;
  // Subnormal half: value = mant24 * 2^(exp-23), unit = 2^-24.
  const uint32_t mant24 = (absU & 0x7fffff) | 0x800000;
  const unsigned shift = unsigned(-exp - 1); // 14..24
  uint32_t h = mant24 >> shift;
  const uint32_t rest = mant24 & ((1u << shift) - 1);
  const uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (h & 1)))
    ++h;
  return uint16_t(sign | h);
}

} // namespace poplar::isa
