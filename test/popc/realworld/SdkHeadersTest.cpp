// Codelets written against the SDK's device headers (SdkHeaders.cpp, Quarter.cpp,
// CommunityStyle.cpp) run as they would with Graphcore's SDK.
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

using namespace poplar;
using namespace realworld;

namespace {

TEST(RealWorld, SdkHeadersMultiVertexWithWorkerIdCsr) {
  for (Type type : {FLOAT, HALF}) {
    Rig rig("SdkHeaders.cpp");
    auto data = randomData(50, -6, 6, 0.25, 9);
    auto in = rig.tensor(type, data);
    auto out = rig.tensor(type, std::vector<double>(data.size()));
    auto v = rig.vertex("Sigmoid<" + type.toString() + ">");
    rig.graph().connect(v["in"], in);
    rig.graph().connect(v["out"], out);
    rig.graph().setInitialValue(v["scale"], 2.0f);
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(out);
    for (std::size_t i = 0; i < data.size(); ++i) {
      double want = 2 / (1 + std::exp(-data[i]));
      EXPECT_NEAR(got[i], want, type == HALF ? 2.0 / 1024 : 1e-6) << type.toString() << " " << i;
    }
  }
}

TEST(RealWorld, SdkHeadersVectorListAndSupervisorVertexIf) {
  for (const char *name :
       {"ListSums<float,false>", "ListSums<half,false>", "ListSums<float,true>"}) {
    Type type = std::string(name).find("half") != std::string::npos ? HALF : FLOAT;
    Rig rig("SdkHeaders.cpp");
    std::vector<std::vector<double>> lists = {
        randomData(4, -8, 8, 0.5, 1), {}, randomData(11, -8, 8, 0.5, 2)};
    auto v = rig.vertex(name);
    rig.graph().setFieldSize(v["lists"], lists.size());
    for (std::size_t l = 0; l < lists.size(); ++l)
      rig.graph().connect(v["lists"][l], rig.tensor(type, lists[l]));
    auto sums = rig.tensor(type, std::vector<double>(lists.size()));
    rig.graph().connect(v["sums"], sums);
    ASSERT_EQ(rig.run(), "") << name;
    auto got = rig.values(sums);
    for (std::size_t l = 0; l < lists.size(); ++l) {
      double want = 0;
      for (double x : lists[l])
        want += x;
      EXPECT_EQ(got[l], want) << name << " list " << l;
    }
  }
}

// Host reference for Graphcore's 8-bit formats: f143 = 1.4.3 with bias 8, f152 = 1.5.2 with
// bias 16, 0x80 the NaN; the value is decode(code) * 2^scale.
double decodeQuarter(unsigned code, bool f143, int scale) {
  if (code == 0x80)
    return NAN;
  int mantissaBits = f143 ? 3 : 2, bias = f143 ? 8 : 16;
  unsigned magnitude = code & 0x7f;
  int exponent = int(magnitude >> mantissaBits);
  double fraction = double(magnitude & ((1u << mantissaBits) - 1)) / (1 << mantissaBits);
  double x = exponent ? std::ldexp(1 + fraction, exponent - bias) : std::ldexp(fraction, 1 - bias);
  return std::ldexp(code & 0x80 ? -x : x, scale);
}

// The nearest finite code, ties to the even code (its last mantissa bit clear); infinities
// saturate.
unsigned nearestQuarter(double x, bool f143, int scale) {
  if (std::isnan(x))
    return 0x80;
  if (std::isinf(x))
    x = std::copysign(decodeQuarter(0x7f, f143, scale), x);
  unsigned best = 0;
  for (unsigned code = 1; code < 256; ++code) {
    if (code == 0x80)
      continue;
    double d = std::fabs(decodeQuarter(code, f143, scale) - x);
    double bestD = std::fabs(decodeQuarter(best, f143, scale) - x);
    if (d < bestD || (d == bestD && (code & 1) == 0 && (best & 1) == 1))
      best = code;
  }
  return best;
}

TEST(RealWorld, QuarterFloatDecodesEveryCode) {
  for (bool f143 : {true, false})
    for (int scale : {0, -3, 2}) {
      Rig rig("Quarter.cpp");
      std::vector<double> codes(256);
      for (unsigned c = 0; c < 256; ++c)
        codes[c] = c;
      auto v = rig.vertex(std::string("QuarterToHalf<") + (f143 ? "true" : "false") + ">");
      auto values = rig.tensor(HALF, std::vector<double>(256));
      rig.graph().connect(v["codes"], rig.tensor(UNSIGNED_CHAR, codes));
      rig.graph().connect(v["values"], values);
      rig.graph().setInitialValue(v["scale"], scale);
      ASSERT_EQ(rig.run(), "");
      auto got = rig.values(values);
      for (unsigned c = 0; c < 256; ++c) {
        double want = roundTo(HALF, decodeQuarter(c, f143, scale));
        if (std::isnan(want))
          EXPECT_TRUE(std::isnan(got[c])) << c;
        else
          EXPECT_EQ(got[c], want) << "code " << c << " f143 " << f143 << " scale " << scale;
      }
    }
}

TEST(RealWorld, QuarterFloatEncodesToNearestEvenAndSaturates) {
  std::vector<double> inputs = {0, -0.0, NAN, INFINITY, -INFINITY, 65504, -1e-7};
  for (int e = -20; e <= 16; ++e)
    for (int m = 0; m < 16; ++m)
      for (double sign : {1.0, -1.0})
        inputs.push_back(roundTo(HALF, sign * std::ldexp(1 + m / 16.0, e)));
  for (bool f143 : {true, false})
    for (int scale : {0, -2, 3}) {
      Rig rig("Quarter.cpp");
      auto v = rig.vertex(std::string("HalfToQuarter<") + (f143 ? "true" : "false") + ">");
      auto codes = rig.tensor(UNSIGNED_CHAR, std::vector<double>(inputs.size()));
      rig.graph().connect(v["values"], rig.tensor(HALF, inputs));
      rig.graph().connect(v["codes"], codes);
      rig.graph().setInitialValue(v["scale"], scale);
      ASSERT_EQ(rig.run(), "");
      auto got = rig.values(codes);
      for (std::size_t i = 0; i < inputs.size(); ++i)
        EXPECT_EQ(got[i], nearestQuarter(inputs[i], f143, scale))
            << inputs[i] << " f143 " << f143 << " scale " << scale;
    }
}

TEST(RealWorld, CommunityStyleFloat2MinWithBuiltins) {
  for (std::size_t n : {1u, 8u, 13u}) {
    Rig rig("CommunityStyle.cpp");
    auto row = randomData(n, -50, 50, 0.5, unsigned(n));
    std::vector<double> covered(n);
    for (std::size_t i = 0; i < n; ++i)
      covered[i] = i % 3 == 0 ? 1.0 : 0.0;
    auto rowMin = rig.tensor(FLOAT, {0});
    auto v = rig.vertex("RowUncoveredMin");
    rig.graph().connect(v["row"], rig.tensor(FLOAT, row));
    rig.graph().connect(v["covered"], rig.tensor(FLOAT, covered));
    rig.graph().connect(v["rowMin"], rowMin[0]);
    ASSERT_EQ(rig.run(), "");
    double want = FLT_MAX;
    for (std::size_t i = 0; i < n; ++i)
      if (covered[i] == 0)
        want = std::min(want, row[i]);
    EXPECT_EQ(rig.values(rowMin)[0], want) << n;
  }
}

TEST(RealWorld, CommunityStyleByteHistogramWithBoolOutput) {
  for (unsigned limit : {200u, 256u}) {
    Rig rig("CommunityStyle.cpp");
    auto bytes = randomData(100, 0, 250, 1, 7);
    auto bins = rig.tensor(UNSIGNED_INT, std::vector<double>(16));
    auto found = rig.tensor(BOOL, {0});
    auto v = rig.vertex("ByteHistogram");
    rig.graph().connect(v["bytes"], rig.tensor(UNSIGNED_CHAR, bytes));
    rig.graph().connect(v["bins"], bins);
    rig.graph().connect(v["found"], found[0]);
    rig.graph().setInitialValue(v["limit"], limit);
    ASSERT_EQ(rig.run(), "");
    std::vector<double> want(16);
    bool any = false;
    for (double b : bytes) {
      want[unsigned(b) >> 4] += 1;
      any = any || b >= limit;
    }
    EXPECT_EQ(rig.values(bins), want);
    EXPECT_EQ(rig.values(found)[0], any ? 1 : 0) << limit;
  }
}

} // namespace
