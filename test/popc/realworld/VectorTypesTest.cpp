// float2, half4, int2 and short2 codelets (VectorTypes.cpp) against host references.
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

using namespace poplar;
using namespace realworld;

namespace {

double h(double x) { return roundTo(HALF, x); }

TEST(RealWorld, Float2Axpy) {
  for (std::size_t n : {0u, 1u, 2u, 9u, 64u}) {
    Rig rig("VectorTypes.cpp");
    auto x = randomData(n, -8, 8, 0.25, 1), y = randomData(n, -8, 8, 0.25, 2);
    auto tx = rig.tensor(FLOAT, x), ty = rig.tensor(FLOAT, y);
    auto v = rig.vertex("AxpyFloat2");
    rig.graph().connect(v["x"], tx);
    rig.graph().connect(v["y"], ty);
    rig.graph().setInitialValue(v["a"], 1.5f);
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(ty);
    for (std::size_t i = 0; i < n; ++i)
      EXPECT_EQ(got[i], float(1.5f * float(x[i]) + float(y[i]))) << n << " " << i;
  }
}

TEST(RealWorld, Half4ArithmeticAndSwizzles) {
  Rig rig("VectorTypes.cpp");
  auto data = randomData(16, -20, 20, 1.0 / 32, 5);
  for (double &x : data)
    x = h(x);
  auto t = rig.tensor(HALF, data);
  auto v = rig.vertex("Half4Ops");
  rig.graph().connect(v["v"], t);
  ASSERT_EQ(rig.run(), "");
  auto got = rig.values(t);
  const double offset[4] = {1, 2, 3, 4};
  for (std::size_t b = 0; b < data.size(); b += 4) {
    double r[4];
    for (int k = 0; k < 4; ++k)
      r[k] = h(float(data[b + k]) * float(data[b + k]) + offset[k]);
    r[0] = data[b + 3];
    r[1] = data[b + 2];
    r[2] = data[b + 1];
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(got[b + k], r[k]) << "group " << b / 4 << " lane " << k;
  }
}

TEST(RealWorld, Int2Short2Conversions) {
  Rig rig("VectorTypes.cpp");
  std::vector<double> in = {1, -2, 70000, -70001, 32767, 32768, 12345, -9};
  auto ti = rig.tensor(INT, in);
  auto to = rig.tensor(INT, std::vector<double>(in.size()));
  auto v = rig.vertex("Int2Short2");
  rig.graph().connect(v["in"], ti);
  rig.graph().connect(v["out"], to);
  ASSERT_EQ(rig.run(), "");
  auto got = rig.values(to);
  for (std::size_t i = 0; i < in.size(); ++i) {
    std::int32_t a = std::int32_t(in[i]);
    std::int32_t back = std::int16_t(a);
    std::int32_t f = std::int32_t(float(a) * 0.5f);
    EXPECT_EQ(got[i], double(a * 3 - back + f)) << i;
  }
}

TEST(RealWorld, IpuVectorMathOnFloat2AndHalf4) {
  for (Type type : {FLOAT, HALF}) {
    Rig rig("VectorTypes.cpp");
    auto data = randomData(24, -4, 4, 0.25, 6);
    auto t = rig.tensor(type, data);
    auto v = rig.vertex(type == FLOAT ? "VectorSigmoidRelu<float2,float,2>"
                                      : "VectorSigmoidRelu<half4,half,4>");
    rig.graph().connect(v["data"], t);
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(t);
    for (std::size_t i = 0; i < data.size(); ++i) {
      double want = std::max(0.0, 1 / (1 + std::exp(-data[i])) - 0.5);
      EXPECT_NEAR(got[i], want, type == HALF ? 1e-3 : 1e-6) << type.toString() << " " << i;
    }
  }
}

} // namespace
