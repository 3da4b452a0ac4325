// More PopLibs-style vertices (Elementwise.cpp, Linear.cpp, Search.cpp) against host references.
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace poplar;
using namespace realworld;

namespace {

TEST(RealWorld, BroadcastScalarMultiVertexSplitsWorkBySix) {
  for (Type type : {FLOAT, HALF, INT})
    for (std::size_t n : {0u, 1u, 5u, 6u, 7u, 61u}) {
      Rig rig("Elementwise.cpp");
      auto data = randomData(n, -16, 16, 1, 3);
      auto in = rig.tensor(type, data);
      auto out = rig.tensor(type, std::vector<double>(n, 99));
      auto v = rig.vertex("popops::BroadcastScalar1DMultiply<" + type.toString() + ">");
      rig.graph().connect(v["data"], in);
      rig.graph().connect(v["B"], rig.scalar(type, -3));
      rig.graph().connect(v["out"], out);
      ASSERT_EQ(rig.run(), "");
      auto got = rig.values(out);
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_EQ(got[i], roundTo(type, -3 * data[i])) << type.toString() << " n=" << n;
    }
}

TEST(RealWorld, SelectClampInPlaceAndIota) {
  for (Type type : {FLOAT, HALF, UNSIGNED_INT}) {
    Rig rig("Elementwise.cpp");
    auto a = randomData(11, 0, 50, 1, 1), b = randomData(11, 0, 50, 1, 2);
    std::vector<double> c = {1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1};
    auto out = rig.tensor(type, std::vector<double>(a.size()));
    auto v = rig.vertex("popops::Select<" + type.toString() + ">");
    rig.graph().connect(v["in1"], rig.tensor(type, a));
    rig.graph().connect(v["in2"], rig.tensor(type, b));
    rig.graph().connect(v["in3"], rig.tensor(BOOL, c));
    rig.graph().connect(v["out"], out);
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(out);
    for (std::size_t i = 0; i < a.size(); ++i)
      EXPECT_EQ(got[i], c[i] ? a[i] : b[i]) << type.toString() << " " << i;
  }
  for (Type type : {FLOAT, INT}) {
    Rig rig("Elementwise.cpp");
    auto x = randomData(13, -20, 20, 1, 4), lo = randomData(13, -10, 0, 1, 5),
         hi = randomData(13, 0, 10, 1, 6);
    auto t = rig.tensor(type, x);
    auto v = rig.vertex("popops::ClampInPlace<" + type.toString() + ">");
    rig.graph().connect(v["in1Out"], t);
    rig.graph().connect(v["in2"], rig.tensor(type, lo));
    rig.graph().connect(v["in3"], rig.tensor(type, hi));
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(t);
    for (std::size_t i = 0; i < x.size(); ++i)
      EXPECT_EQ(got[i], std::clamp(x[i], lo[i], hi[i])) << type.toString() << " " << i;
  }
  for (Type type : {UNSIGNED_INT, INT}) {
    Rig rig("Elementwise.cpp");
    auto v = rig.vertex("popops::Iota<" + type.toString() + ">");
    std::vector<std::size_t> sizes = {4, 0, 7};
    std::vector<Tensor> outs;
    rig.graph().setFieldSize(v["out"], sizes.size());
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      outs.push_back(rig.tensor(type, std::vector<double>(sizes[r])));
      rig.graph().connect(v["out"][r], outs.back());
    }
    rig.graph().connect(v["offsets"], rig.tensor(type, {10, 20, 30}));
    ASSERT_EQ(rig.run(), "");
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      auto got = rig.values(outs[r]);
      for (std::size_t i = 0; i < sizes[r]; ++i)
        EXPECT_EQ(got[i], 10.0 * (r + 1) + i);
    }
  }
}

TEST(RealWorld, OuterProductAndReduceAddOverCompactPtrPartials) {
  for (Type type : {FLOAT, HALF}) {
    Rig rig("Linear.cpp", 2);
    unsigned cpg = 3, groups = 2;
    auto in = randomData(4, -4, 4, 0.5, 1), w = randomData(cpg * groups, -4, 4, 0.5, 2);
    auto v = rig.vertex("poplin::OuterProduct<" + type.toString() + ">");
    rig.graph().connect(v["in"], rig.tensor(type, in));
    rig.graph().connect(v["weights"], rig.tensor(type, w));
    rig.graph().setInitialValue(v["chansPerGroup"], cpg);
    rig.graph().setFieldSize(v["out"], groups);
    std::vector<Tensor> outs;
    for (unsigned g = 0; g < groups; ++g) {
      outs.push_back(rig.tensor(type, std::vector<double>(in.size() * cpg), g));
      rig.graph().connect(v["out"][g], outs.back());
    }
    ASSERT_EQ(rig.run(), "");
    for (unsigned g = 0; g < groups; ++g) {
      auto got = rig.values(outs[g]);
      for (std::size_t i = 0; i < in.size(); ++i)
        for (unsigned c = 0; c < cpg; ++c)
          EXPECT_EQ(got[i * cpg + c], roundTo(type, in[i] * w[g * cpg + c]));
    }
  }
  for (const char *types : {"float,float", "half,float", "half,half"}) {
    Type out = std::string(types).rfind("half", 0) == 0 ? HALF : FLOAT;
    Type partial = std::string(types).find(",half") != std::string::npos ? HALF : FLOAT;
    Rig rig("Linear.cpp", 3);
    unsigned numPartials = 4, numElems = 15;
    auto v = rig.vertex(std::string("poplin::ReduceAdd<") + types + ">");
    rig.graph().setFieldSize(v["partials"], numPartials);
    std::vector<std::vector<double>> parts;
    for (unsigned p = 0; p < numPartials; ++p) {
      parts.push_back(randomData(numElems, -8, 8, 0.25, p + 1));
      rig.graph().connect(v["partials"][p], rig.tensor(partial, parts.back(), p % 3));
    }
    auto o = rig.tensor(out, std::vector<double>(numElems));
    rig.graph().connect(v["out"], o);
    rig.graph().setInitialValue(v["numPartials"], static_cast<unsigned short>(numPartials));
    rig.graph().setInitialValue(v["numElems"], static_cast<unsigned short>(numElems));
    ASSERT_EQ(rig.run(), "") << types;
    auto got = rig.values(o);
    for (unsigned e = 0; e < numElems; ++e) {
      float sum = 0;
      for (unsigned p = 0; p < numPartials; ++p)
        sum += float(parts[p][e]);
      EXPECT_EQ(got[e], roundTo(out, sum)) << types << " " << e;
    }
  }
}

TEST(RealWorld, LossTransformAndSupervisorZero) {
  for (Type type : {FLOAT, HALF}) {
    Rig rig("Linear.cpp");
    auto p = randomData(9, 0, 1, 1.0 / 16, 1), e = randomData(9, 0, 1, 1.0 / 16, 2);
    auto deltas = rig.tensor(type, std::vector<double>(9)),
         transformed = rig.tensor(type, std::vector<double>(9));
    auto v = rig.vertex("popnn::LossSumSquaredTransform<" + type.toString() + ">");
    rig.graph().connect(v["probs"], rig.tensor(type, p));
    rig.graph().connect(v["expected"], rig.tensor(type, e));
    rig.graph().connect(v["deltas"], deltas);
    rig.graph().connect(v["transformed"], transformed);
    rig.graph().connect(v["deltasScale"], rig.scalar(type, 2));
    rig.graph().connect(v["modelOutputScaling"], rig.scalar(type, 4));
    ASSERT_EQ(rig.run(), "");
    auto d = rig.values(deltas), t = rig.values(transformed);
    for (std::size_t i = 0; i < p.size(); ++i) {
      float delta = float(p[i]) - float(e[i]);
      EXPECT_EQ(d[i], roundTo(type, delta * 0.5f)) << i;
      EXPECT_EQ(t[i], roundTo(type, 0.5f * delta * delta)) << i;
    }
  }
  Rig rig("Linear.cpp");
  auto out = rig.tensor(INT, std::vector<double>(10, 7));
  auto v = rig.vertex("poplin::WorkerMemZero");
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "");
  EXPECT_EQ(rig.values(out), std::vector<double>(10, 0));
}

TEST(RealWorld, HistogramLookupTransposeAndCircularIndex) {
  for (Type type : {FLOAT, HALF, INT}) {
    Rig rig("Search.cpp");
    auto data = randomData(40, -10, 10, 0.5, 8);
    if (type == INT)
      for (double &x : data)
        x = std::trunc(x);
    std::vector<double> limits = {-5, 0, 2.5, 7};
    auto counts = rig.tensor(UNSIGNED_INT, std::vector<double>(limits.size() + 1, 9));
    auto v = rig.vertex("Histogram<" + type.toString() + ">");
    rig.graph().connect(v["data"], rig.tensor(type, data));
    rig.graph().connect(v["limits"], rig.tensor(FLOAT, limits));
    rig.graph().connect(v["counts"], counts);
    ASSERT_EQ(rig.run(), "");
    std::vector<double> want(limits.size() + 1, 0);
    for (double x : data)
      want[std::upper_bound(limits.begin(), limits.end(), x) - limits.begin()] += 1;
    EXPECT_EQ(rig.values(counts), want) << type.toString();
  }
  {
    Rig rig("Search.cpp");
    std::vector<double> keys = {2, 3, 5, 8, 13, 21}, values = {0.5, 1, 1.5, 2, 2.5, 3},
                        queries = {8, 1, 21, 4, 2};
    auto out = rig.tensor(FLOAT, std::vector<double>(queries.size()));
    auto v = rig.vertex("SortedLookup");
    rig.graph().connect(v["keys"], rig.tensor(UNSIGNED_INT, keys));
    rig.graph().connect(v["values"], rig.tensor(FLOAT, values));
    rig.graph().connect(v["queries"], rig.tensor(UNSIGNED_INT, queries));
    rig.graph().connect(v["out"], out);
    ASSERT_EQ(rig.run(), "");
    EXPECT_EQ(rig.values(out), (std::vector<double>{2, -1, 3, -1, 0.5}));
  }
  for (Type type : {FLOAT, HALF, UNSIGNED_SHORT}) {
    Rig rig("Search.cpp");
    unsigned rows = 3, cols = 5;
    auto src = randomData(rows * cols, 0, 100, 1, 9);
    auto dst = rig.tensor(type, std::vector<double>(src.size()));
    auto v = rig.vertex("Transpose2d<" + type.toString() + ">");
    rig.graph().connect(v["src"], rig.tensor(type, src));
    rig.graph().connect(v["dst"], dst);
    rig.graph().setInitialValue(v["numSrcRows"], static_cast<unsigned short>(rows));
    rig.graph().setInitialValue(v["numSrcColumns"], static_cast<unsigned short>(cols));
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(dst);
    for (unsigned r = 0; r < rows; ++r)
      for (unsigned c = 0; c < cols; ++c)
        EXPECT_EQ(got[c * rows + r], src[r * cols + c]) << type.toString();
  }
  for (unsigned start : {0u, 4u}) {
    Rig rig("Search.cpp");
    auto index = rig.scalar(UNSIGNED_INT, start);
    auto v = rig.vertex("CircBufIncrIndex");
    rig.graph().connect(v["index"], index);
    rig.graph().setInitialValue(v["hSize"], 5u);
    ASSERT_EQ(rig.run(), "");
    EXPECT_EQ(rig.values(index)[0], (start + 1) % 5);
  }
}

} // namespace
