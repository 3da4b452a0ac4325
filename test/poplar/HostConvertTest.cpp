// Host values to device elements and back: every device type, wrapping, saturation, HALF, BOOL.
#include "core/HostConvert.hpp"

#include <poplar/HalfFloat.hpp>
#include <poplar/exceptions.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace poplar;
using namespace poplar::detail;

namespace {

template <class H> std::vector<unsigned char> toDevice(const std::vector<H> &values, Type to) {
  std::vector<unsigned char> bytes(values.size() * to.size(), 0xcd);
  convertHostToDevice(HostTypeOf<H>::value, values.data(), values.size(), to, bytes.data());
  return bytes;
}

template <class D> D element(const std::vector<unsigned char> &bytes, std::size_t i) {
  D d;
  std::memcpy(&d, bytes.data() + i * sizeof(D), sizeof(D));
  return d;
}

} // namespace

TEST(HostConvert, FloatsToIntegersTruncateAndSaturate) {
  const std::vector<float> in = {1.9f, -1.9f, 3e9f, -3e9f, NAN, INFINITY};
  const auto ints = toDevice(in, INT);
  EXPECT_EQ(element<std::int32_t>(ints, 0), 1);
  EXPECT_EQ(element<std::int32_t>(ints, 1), -1);
  EXPECT_EQ(element<std::int32_t>(ints, 2), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(element<std::int32_t>(ints, 3), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(element<std::int32_t>(ints, 4), 0);
  EXPECT_EQ(element<std::int32_t>(ints, 5), std::numeric_limits<std::int32_t>::max());
  const auto bytes = toDevice(in, UNSIGNED_CHAR);
  EXPECT_EQ(element<std::uint8_t>(bytes, 0), 1);
  EXPECT_EQ(element<std::uint8_t>(bytes, 1), 0);
  EXPECT_EQ(element<std::uint8_t>(bytes, 2), 255);
}

TEST(HostConvert, IntegersWrapLikeCxxConversions) {
  const auto out = toDevice(std::vector<int>{-1, 300, 7}, UNSIGNED_CHAR);
  EXPECT_EQ(element<std::uint8_t>(out, 0), 255);
  EXPECT_EQ(element<std::uint8_t>(out, 1), 44);
  EXPECT_EQ(element<std::uint8_t>(out, 2), 7);
  const auto wide = toDevice(std::vector<unsigned>{4000000000u}, LONGLONG);
  EXPECT_EQ(element<std::int64_t>(wide, 0), 4000000000LL);
  const auto u = toDevice(std::vector<long>{-2}, UNSIGNED_INT);
  EXPECT_EQ(element<std::uint32_t>(u, 0), 0xfffffffeu);
}

TEST(HostConvert, ToFloatHalfAndBool) {
  const auto f = toDevice(std::vector<double>{0.1, -2.5}, FLOAT);
  EXPECT_EQ(element<float>(f, 0), 0.1f);
  EXPECT_EQ(element<float>(f, 1), -2.5f);
  const auto h = toDevice(std::vector<float>{1.0f, -2.0f, 65504.0f, 1e6f}, HALF);
  EXPECT_EQ(element<std::uint16_t>(h, 0), 0x3c00);
  EXPECT_EQ(element<std::uint16_t>(h, 1), 0xc000);
  EXPECT_EQ(element<std::uint16_t>(h, 2), 0x7bff);
  EXPECT_EQ(element<std::uint16_t>(h, 3), 0x7c00);
  const auto hi = toDevice(std::vector<int>{2049, 3}, HALF);
  EXPECT_EQ(halfToFloat(element<std::uint16_t>(hi, 0)), 2048.0f); // ties to even
  EXPECT_EQ(halfToFloat(element<std::uint16_t>(hi, 1)), 3.0f);
  const auto b = toDevice(std::vector<float>{0.0f, -0.0f, 0.5f, NAN, -3.0f}, BOOL);
  EXPECT_EQ(b, (std::vector<unsigned char>{0, 0, 1, 1, 1}));
  const bool flags[] = {true, false};
  float fromBool[2] = {-1.0f, -1.0f};
  convertHostToDevice(HostType::Bool, flags, 2, FLOAT, fromBool);
  EXPECT_EQ(fromBool[0], 1.0f);
  EXPECT_EQ(fromBool[1], 0.0f);
}

TEST(HostConvert, DoubleToHalfRoundsOnce) {
  // 1 + 2^-11 + 2^-30 is just above the tie between 1 and 1 + 2^-10: rounding through float
  // would drop the 2^-30 and tie down to 1.
  const double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30);
  EXPECT_EQ(doubleToHalf(d), 0x3c01);
  EXPECT_EQ(floatToHalf(static_cast<float>(d)), 0x3c00);
  const auto h = toDevice(std::vector<double>{d}, HALF);
  EXPECT_EQ(element<std::uint16_t>(h, 0), 0x3c01);
}

TEST(HostConvert, ReadsBackEveryType) {
  const std::vector<double> values = {0, 1, 2, 100};
  for (Type t : {BOOL, CHAR, UNSIGNED_CHAR, SIGNED_CHAR, SHORT, UNSIGNED_SHORT, INT, UNSIGNED_INT,
                 LONGLONG, UNSIGNED_LONGLONG, HALF, FLOAT}) {
    const auto bytes = toDevice(values, t);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double expected = t == BOOL ? (values[i] != 0) : values[i];
      EXPECT_EQ(deviceElementToDouble(t, bytes.data() + i * t.size()), expected) << t;
      EXPECT_EQ(deviceElementToInt(t, bytes.data() + i * t.size()),
                static_cast<std::int64_t>(expected))
          << t;
    }
  }
  const auto neg = toDevice(std::vector<int>{-5}, SHORT);
  EXPECT_EQ(deviceElementToInt(SHORT, neg.data()), -5);
  const auto frac = toDevice(std::vector<float>{-2.75f}, HALF);
  EXPECT_EQ(deviceElementToDouble(HALF, frac.data()), -2.75);
  EXPECT_EQ(deviceElementToInt(HALF, frac.data()), -2);
  const auto big = toDevice(std::vector<unsigned long long>{~0ull}, UNSIGNED_LONGLONG);
  EXPECT_EQ(deviceElementToInt(UNSIGNED_LONGLONG, big.data()),
            std::numeric_limits<std::int64_t>::max());
}

TEST(HostConvert, InvalidTypeThrows) {
  int v = 1;
  unsigned char out[8];
  EXPECT_THROW(convertHostToDevice(HostType::Int, &v, 1, Type(), out), type_error);
  EXPECT_THROW(deviceElementToDouble(Type(), out), type_error);
}
