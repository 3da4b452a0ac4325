// IEEE binary16 conversions (round to nearest even, denormals, infinities, NaNs) for HALF data.
#include "core/Errors.hpp"
#include "core/HostConvert.hpp"

#include <poplar/HalfFloat.hpp>

#include <cmath>
#include <cstring>

namespace poplar {

namespace {

/// Rounds a binary32 or binary64 value, given as its bits, to binary16 bits. `MantBits` and
/// `ExpBits` describe the source format.
template <class Bits, int MantBits, int ExpBits> std::uint16_t narrowToHalf(Bits bits) {
  constexpr int kBias = (1 << (ExpBits - 1)) - 1;
  constexpr int kExpAllOnes = (1 << ExpBits) - 1;
  const std::uint16_t sign = (bits >> (MantBits + ExpBits)) & 1 ? 0x8000 : 0;
  const Bits mant = bits & ((Bits(1) << MantBits) - 1);
  const int exp = static_cast<int>((bits >> MantBits) & kExpAllOnes);

  if (exp == kExpAllOnes) {
    if (mant == 0)
      return sign | 0x7c00;
    // Keep the top payload bits and force the quiet bit so the result stays a NaN.
    return sign | 0x7e00 | static_cast<std::uint16_t>(mant >> (MantBits - 10));
  }
  // Zero and source denormals are far below half's smallest denormal (2^-24).
  if (exp == 0)
    return sign;

  const int e = exp - kBias;
  if (e > 15)
    return sign | 0x7c00;
  const Bits m = (Bits(1) << MantBits) | mant;
  // Below 2^-14 the result is a half denormal, whose unit is 2^-24: shift out more bits.
  const int shift = MantBits - 10 + (e < -14 ? -14 - e : 0);
  // m < 2^(MantBits+1), so with a larger shift the value is under half a unit: rounds to zero.
  if (shift > MantBits + 1)
    return sign;
  Bits q = m >> shift;
  const Bits rem = m & ((Bits(1) << shift) - 1);
  const Bits halfway = Bits(1) << (shift - 1);
  if (rem > halfway || (rem == halfway && (q & 1)))
    ++q;
  // For normals q is in [2^10, 2^11]; adding it on top of the exponent lets a carry from
  // rounding bump the exponent (and reach infinity at the top).
  const std::uint32_t enc =
      e < -14 ? static_cast<std::uint32_t>(q) : (static_cast<std::uint32_t>(e + 14) << 10) + q;
  return sign | static_cast<std::uint16_t>(enc >= 0x7c00 ? 0x7c00 : enc);
}

} // namespace

std::uint16_t floatToHalf(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return narrowToHalf<std::uint32_t, 23, 8>(bits);
}

float halfToFloat(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1f;
  const std::uint32_t mant = h & 0x3ff;
  std::uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000 | (mant << 13);
  } else if (exp == 0) {
    // Denormal (or zero): mant * 2^-24 is exact in float.
    const float magnitude = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -magnitude : magnitude;
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

std::uint16_t detail::doubleToHalf(double d) {
  std::uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return narrowToHalf<std::uint64_t, 52, 11>(bits);
}

namespace {

/// The conversions' host buffers: null is refused when there are elements to convert.
void checkBuffers(const char *api, const void *src, std::size_t srcSize, const void *dst,
                  std::size_t dstSize, std::size_t numElements) {
  std::string what = std::to_string(numElements) + " elements";
  detail::checkHostPointer<poplar_error>(src, numElements * srcSize, api, "src", what);
  detail::checkHostPointer<poplar_error>(dst, numElements * dstSize, api, "dst", what);
}

} // namespace

// Every target stores HALF as two little-endian bytes, so the target only documents intent.
void copyFloatToDeviceHalf(const Target &, const float *src, void *dst, std::size_t numElements) {
  checkBuffers("copyFloatToDeviceHalf", src, 4, dst, 2, numElements);
  auto *out = static_cast<unsigned char *>(dst);
  for (std::size_t i = 0; i < numElements; ++i) {
    const std::uint16_t h = floatToHalf(src[i]);
    std::memcpy(out + 2 * i, &h, 2);
  }
}

void copyDeviceHalfToFloat(const Target &, const void *src, float *dst, std::size_t numElements) {
  checkBuffers("copyDeviceHalfToFloat", src, 2, dst, 4, numElements);
  const auto *in = static_cast<const unsigned char *>(src);
  for (std::size_t i = 0; i < numElements; ++i) {
    std::uint16_t h;
    std::memcpy(&h, in + 2 * i, 2);
    dst[i] = halfToFloat(h);
  }
}

void copyDoubleToDeviceHalf(const Target &, const double *src, void *dst, std::size_t numElements) {
  checkBuffers("copyDoubleToDeviceHalf", src, 8, dst, 2, numElements);
  auto *out = static_cast<unsigned char *>(dst);
  for (std::size_t i = 0; i < numElements; ++i) {
    const std::uint16_t h = detail::doubleToHalf(src[i]);
    std::memcpy(out + 2 * i, &h, 2);
  }
}

void copyDeviceHalfToDouble(const Target &, const void *src, double *dst, std::size_t numElements) {
  checkBuffers("copyDeviceHalfToDouble", src, 2, dst, 8, numElements);
  const auto *in = static_cast<const unsigned char *>(src);
  for (std::size_t i = 0; i < numElements; ++i) {
    std::uint16_t h;
    std::memcpy(&h, in + 2 * i, 2);
    dst[i] = halfToFloat(h);
  }
}

} // namespace poplar
