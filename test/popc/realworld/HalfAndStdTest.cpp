// Real-world codelets using half and the standard library, against host references.
#include "Rig.hpp"

#include <poplar/HalfFloat.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace poplar;
using namespace realworld;

namespace {

double h(double x) { return roundTo(HALF, x); }

TEST(RealWorld, ClampOverFloatHalfInt) {
  for (Type type : {FLOAT, HALF, INT}) {
    Rig rig("Clamp.cpp");
    auto data = randomData(23, -8, 8, type == INT ? 1 : 0.125);
    auto in = rig.tensor(type, data);
    auto out = rig.tensor(type, std::vector<double>(data.size()));
    auto v = rig.vertex("popops::Clamp<" + type.toString() + ">");
    rig.graph().connect(v["in"], in);
    rig.graph().connect(v["lo"], rig.scalar(type, -2.5));
    rig.graph().connect(v["hi"], rig.scalar(type, 3));
    rig.graph().connect(v["out"], out);
    ASSERT_EQ(rig.run(), "");
    double lo = roundTo(type, -2.5);
    auto got = rig.values(out);
    for (std::size_t i = 0; i < data.size(); ++i)
      EXPECT_EQ(got[i], std::min(std::max(data[i], lo), 3.0)) << type.toString() << " " << i;
  }
}

TEST(RealWorld, HalfDotRoundsOnEveryStore) {
  Rig rig("HalfAccumulate.cpp");
  auto a = randomData(37, -2, 2, 1.0 / 64, 3), b = randomData(37, -2, 2, 1.0 / 64, 4);
  auto ta = rig.tensor(HALF, a), tb = rig.tensor(HALF, b);
  auto acc = rig.scalar(HALF, 1.5), last = rig.scalar(HALF, 0);
  auto v = rig.vertex("HalfDot");
  rig.graph().connect(v["a"], ta);
  rig.graph().connect(v["b"], tb);
  rig.graph().connect(v["scale"], rig.scalar(HALF, 0.3));
  rig.graph().connect(v["acc"], acc);
  rig.graph().connect(v["last"], last);
  ASSERT_EQ(rig.run(), "");
  float sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    sum += float(a[i]) * float(b[i]);
  double scale = h(0.3);
  EXPECT_EQ(rig.values(acc)[0], h(1.5 + h(h(sum) * scale)));
  EXPECT_EQ(rig.values(last)[0], h(a.back() * scale));
}

TEST(RealWorld, HalfSumRoundsAfterEachAddition) {
  Rig rig("HalfAccumulate.cpp");
  // 2048 + 1 is not a half: each addition of 1 to 2048 rounds back to 2048 (ties to even).
  std::vector<double> data = {2048, 1, 1, 1, 1, 3};
  auto in = rig.tensor(HALF, data);
  auto out = rig.scalar(HALF, 0);
  auto v = rig.vertex("HalfSum");
  rig.graph().connect(v["in"], in);
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "");
  double s = 0;
  for (double x : data)
    s = h(s + x);
  EXPECT_EQ(s, 2052);
  EXPECT_EQ(rig.values(out)[0], s);
}

TEST(RealWorld, ReduceWithNumericLimitsIdentities) {
  struct Case {
    const char *op;
    Type type;
  };
  for (Case c :
       {Case{"ReduceMax", FLOAT}, Case{"ReduceMax", HALF}, Case{"ReduceMax", INT},
        Case{"ReduceMin", FLOAT}, Case{"ReduceMin", HALF}, Case{"ReduceMin", UNSIGNED_INT}}) {
    Rig rig("Reduce.cpp");
    bool isMax = std::string(c.op) == "ReduceMax";
    std::vector<std::vector<double>> lists = {
        randomData(5, 0, 40, 1, 1), {}, randomData(9, 0, 40, 1, 2)};
    auto v = rig.vertex(std::string("Reduce<") + c.op + "," + c.type.toString() + ">");
    rig.graph().setFieldSize(v["partials"], lists.size());
    for (std::size_t r = 0; r < lists.size(); ++r)
      rig.graph().connect(v["partials"][r], rig.tensor(c.type, lists[r]));
    auto out = rig.tensor(c.type, std::vector<double>(lists.size()));
    rig.graph().connect(v["out"], out);
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(out);
    double lowest = c.type == HALF    ? -65504.0
                    : c.type == FLOAT ? -double(std::numeric_limits<float>::max())
                                      : double(std::numeric_limits<int>::min());
    double highest = c.type == HALF           ? 65504.0
                     : c.type == FLOAT        ? double(std::numeric_limits<float>::max())
                     : c.type == UNSIGNED_INT ? double(std::numeric_limits<unsigned>::max())
                                              : double(std::numeric_limits<int>::max());
    for (std::size_t r = 0; r < lists.size(); ++r) {
      double want = isMax ? lowest : highest;
      for (double x : lists[r])
        want = isMax ? std::max(want, x) : std::min(want, x);
      EXPECT_EQ(got[r], want) << c.op << " " << c.type.toString() << " region " << r;
    }
  }
}

TEST(RealWorld, CastBetweenFloatHalfAndIntegers) {
  struct Case {
    Type src, dst;
  };
  auto data = randomData(29, -300, 300, 0.25, 5);
  data.push_back(70000);
  data.push_back(-70000);
  for (Case c : {Case{FLOAT, HALF}, Case{HALF, FLOAT}, Case{FLOAT, INT}, Case{HALF, SHORT},
                 Case{FLOAT, UNSIGNED_CHAR}, Case{INT, HALF}, Case{UNSIGNED_INT, FLOAT}}) {
    Rig rig("Cast.cpp");
    std::vector<double> in = data;
    for (double &x : in) {
      if (c.src == UNSIGNED_INT)
        x = std::fabs(std::trunc(x)) * 1000;
      else if (c.src == INT)
        x = std::trunc(x);
      x = roundTo(c.src, x);
    }
    auto src = rig.tensor(c.src, in);
    auto dst = rig.tensor(c.dst, std::vector<double>(in.size()));
    auto v = rig.vertex("Cast1D<" + c.src.toString() + "," + c.dst.toString() + ">");
    rig.graph().connect(v["src"], src);
    rig.graph().connect(v["dst"], dst);
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(dst);
    for (std::size_t i = 0; i < in.size(); ++i) {
      double want = in[i];
      if (c.dst == SHORT)
        want = std::trunc(std::clamp(want, -32768.0, 32767.0));
      else if (c.dst == UNSIGNED_CHAR)
        want = std::trunc(std::clamp(want, 0.0, 255.0));
      else if (c.dst == INT)
        want = std::trunc(want);
      else if (c.dst == HALF)
        want = h(want);
      else
        want = float(want);
      EXPECT_EQ(got[i], want) << c.src.toString() << "->" << c.dst.toString() << " of " << in[i];
    }
  }
}

TEST(RealWorld, FailedAssertNamesVertexTileAndLine) {
  for (bool mismatch : {false, true}) {
    Rig rig("Assert.cpp", 4);
    auto in = rig.tensor(FLOAT, {1, 2, 3}, 2);
    auto out = rig.tensor(FLOAT, std::vector<double>(mismatch ? 2 : 3), 2);
    auto v = rig.vertex("CopyChecked", 2);
    rig.graph().connect(v["in"], in);
    rig.graph().connect(v["out"], out);
    std::string error = rig.run();
    if (!mismatch) {
      EXPECT_EQ(error, "");
      EXPECT_EQ(rig.values(out), (std::vector<double>{1, 2, 3}));
      continue;
    }
    EXPECT_NE(error.find("vertex 'CopyChecked'"), std::string::npos) << error;
    EXPECT_NE(error.find("on tile 2"), std::string::npos) << error;
    EXPECT_NE(error.find("assertion failed"), std::string::npos) << error;
    EXPECT_NE(error.find("Assert.cpp:14"), std::string::npos) << error;
  }
}

} // namespace
