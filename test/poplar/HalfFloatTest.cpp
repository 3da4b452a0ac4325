// IEEE half conversions: exhaustive round trip, rounding to nearest even, denormals, inf, NaN.
#include "core/HostConvert.hpp"

#include <poplar/HalfFloat.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace poplar;

namespace {

bool isNaNBits(std::uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }

std::uint32_t bitsOf(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

} // namespace

TEST(HalfFloat, EveryHalfRoundTripsThroughFloat) {
  for (std::uint32_t h = 0; h <= 0xffff; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    const float f = halfToFloat(bits);
    if (isNaNBits(bits)) {
      EXPECT_TRUE(std::isnan(f)) << h;
      EXPECT_TRUE(isNaNBits(floatToHalf(f))) << h;
      continue;
    }
    ASSERT_EQ(floatToHalf(f), bits) << "half bits " << h << " -> " << f;
    ASSERT_EQ(detail::doubleToHalf(f), bits) << "half bits " << h << " via double";
  }
}

TEST(HalfFloat, DecodesKnownValues) {
  EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfToFloat(0xc000), -2.0f);
  EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(halfToFloat(0x0400), std::ldexp(1.0f, -14));
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_EQ(halfToFloat(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(halfToFloat(0xfc00), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(bitsOf(halfToFloat(0x8000)), 0x80000000u);
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
}

TEST(HalfFloat, FloatToHalfRoundsToNearestEven) {
  const float ulpAtOne = std::ldexp(1.0f, -10);
  EXPECT_EQ(floatToHalf(1.0f + ulpAtOne / 2), 0x3c00);     // tie, even stays
  EXPECT_EQ(floatToHalf(1.0f + 3 * ulpAtOne / 2), 0x3c02); // tie, odd rounds up
  EXPECT_EQ(floatToHalf(std::nextafter(1.0f + ulpAtOne / 2, 2.0f)), 0x3c01);
  EXPECT_EQ(floatToHalf(std::nextafter(1.0f + ulpAtOne / 2, 0.0f)), 0x3c00);
  EXPECT_EQ(floatToHalf(-1.0f - ulpAtOne / 2), 0xbc00);
  // The top of the range: 65520 ties between 65504 (odd) and 65536, which is infinity.
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);
  EXPECT_EQ(floatToHalf(1e10f), 0x7c00);
  EXPECT_EQ(floatToHalf(-1e10f), 0xfc00);
  // Denormals: the unit is 2^-24; 2^-25 ties to zero, 3 * 2^-25 ties to 2 units.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToHalf(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002);
  EXPECT_EQ(floatToHalf(-std::ldexp(1.0f, -30)), 0x8000);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::denorm_min()), 0x0000);
  // The largest denormal rounds up into the smallest normal.
  EXPECT_EQ(floatToHalf(std::ldexp(1023.5f, -24)), 0x0400);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_TRUE(isNaNBits(floatToHalf(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(isNaNBits(floatToHalf(std::numeric_limits<float>::signaling_NaN())));
  // A NaN whose payload sits only in low bits must not become infinity.
  std::uint32_t lowPayloadNaN = 0x7f800001;
  float f;
  std::memcpy(&f, &lowPayloadNaN, 4);
  EXPECT_TRUE(isNaNBits(floatToHalf(f)));
}

#ifdef __FLT16_MAX__
TEST(HalfFloat, MatchesCompilerFloat16OnRandomInputs) {
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) {
    std::uint32_t bits = rng();
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f))
      continue;
    const _Float16 ref = static_cast<_Float16>(f);
    std::uint16_t refBits;
    std::memcpy(&refBits, &ref, 2);
    ASSERT_EQ(floatToHalf(f), refBits) << f;
    // Doubles near half's range, so rounding and overflow are exercised.
    const double d = std::ldexp(static_cast<double>(rng()) / 4294967296.0 + 1.0,
                                static_cast<int>(rng() % 44) - 28);
    const _Float16 dref = static_cast<_Float16>(d);
    std::memcpy(&refBits, &dref, 2);
    ASSERT_EQ(detail::doubleToHalf(d), refBits) << d;
  }
}
#endif

TEST(HalfFloat, IeeeHalfAndCopies) {
  const IeeeHalf h(2.5f);
  EXPECT_EQ(h.bit16(), 0x4100);
  EXPECT_EQ(static_cast<float>(h), 2.5f);
  EXPECT_EQ(IeeeHalf::fromBits(0x3c00), 1.0f);
  const Target target = Target::createCPUTarget();
  const float in[3] = {1.0f, -0.5f, 70000.0f};
  unsigned char device[6];
  copyFloatToDeviceHalf(target, in, device, 3);
  EXPECT_EQ(device[0], 0x00);
  EXPECT_EQ(device[1], 0x3c); // little-endian, as the device stores it
  float back[3];
  copyDeviceHalfToFloat(target, device, back, 3);
  EXPECT_EQ(back[0], 1.0f);
  EXPECT_EQ(back[1], -0.5f);
  EXPECT_TRUE(std::isinf(back[2]));
  const double din[2] = {0.1, 1024.5};
  copyDoubleToDeviceHalf(target, din, device, 2);
  double dback[2];
  copyDeviceHalfToDouble(target, device, dback, 2);
  EXPECT_EQ(dback[0], static_cast<double>(halfToFloat(floatToHalf(0.1f))));
  EXPECT_EQ(dback[1], 1024.0); // tie between 1024 and 1025 goes to the even 1024
}
