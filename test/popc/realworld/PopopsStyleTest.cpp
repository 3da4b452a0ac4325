// PopLibs-style vertices (fill, one-hot, argmax, NaN checks, dynamic slice, softmax, scaled
// add over regions) built from the standard library, against host references.
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace poplar;
using namespace realworld;

namespace {

TEST(RealWorld, FillFromAStateMember) {
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_CHAR}) {
    Rig rig("Fill.cpp");
    auto out = rig.tensor(type, std::vector<double>(13, 7));
    auto v = rig.vertex("popops::Fill<" + type.toString() + ">");
    rig.graph().connect(v["out"], out);
    if (type == HALF || type == FLOAT) // converted to the field's type, half included
      rig.graph().setInitialValue(v["in"], 1.5f);
    else if (type == INT)
      rig.graph().setInitialValue(v["in"], -3);
    else
      rig.graph().setInitialValue(v["in"], static_cast<unsigned char>(200));
    ASSERT_EQ(rig.run(), "") << type.toString();
    double want = type == INT ? -3 : type == UNSIGNED_CHAR ? 200 : 1.5;
    EXPECT_EQ(rig.values(out), std::vector<double>(13, want)) << type.toString();
  }
}

TEST(RealWorld, Fill2dOverRegions) {
  Rig rig("Fill.cpp", 2);
  auto v = rig.vertex("popops::Fill2d<unsigned int>");
  std::vector<Tensor> regions = {rig.tensor(UNSIGNED_INT, std::vector<double>(3)),
                                 rig.tensor(UNSIGNED_INT, std::vector<double>(9), 1)};
  rig.graph().setFieldSize(v["out"], regions.size());
  for (std::size_t r = 0; r < regions.size(); ++r)
    rig.graph().connect(v["out"][r], regions[r]);
  rig.graph().setInitialValue(v["in"], 77u);
  ASSERT_EQ(rig.run(), "");
  EXPECT_EQ(rig.values(regions[0]), std::vector<double>(3, 77));
  EXPECT_EQ(rig.values(regions[1]), std::vector<double>(9, 77));
}

TEST(RealWorld, EncodeOneHotWithMemset) {
  for (const char *types : {"unsigned int,float", "unsigned int,half", "int,int"}) {
    Rig rig("EncodeOneHot.cpp");
    std::string t(types);
    Type index = t.rfind("int", 0) == 0 ? INT : UNSIGNED_INT;
    Type out = t.find("float") != std::string::npos  ? FLOAT
               : t.find("half") != std::string::npos ? HALF
                                                     : INT;
    std::vector<double> indices = {3, 4, 9, 5, 100, 6};
    unsigned offset = 3, slice = 4;
    auto in = rig.tensor(index, indices);
    auto o = rig.tensor(out, std::vector<double>(indices.size() * slice, 5));
    auto v = rig.vertex("popops::EncodeOneHot<" + t + ">");
    rig.graph().connect(v["indices"], in);
    rig.graph().connect(v["out"], o);
    rig.graph().setInitialValue(v["offset"], offset);
    rig.graph().setInitialValue(v["sliceLength"], slice);
    ASSERT_EQ(rig.run(), "") << t;
    std::vector<double> want(indices.size() * slice, 0);
    for (std::size_t i = 0; i < indices.size(); ++i)
      if (indices[i] >= offset && indices[i] < offset + slice)
        want[i * slice + std::size_t(indices[i]) - offset] = 1;
    EXPECT_EQ(rig.values(o), want) << t;
  }
}

TEST(RealWorld, ArgMaxPerWorker) {
  for (const char *name :
       {"ReduceMaxClassGather<float,unsigned int>", "ReduceMaxClassGather<half,int>"}) {
    Type fp = std::string(name).find("half") != std::string::npos ? HALF : FLOAT;
    Type label = fp == HALF ? INT : UNSIGNED_INT;
    Rig rig("ArgMax.cpp");
    auto data = randomData(22, -50, 50, 0.5, 13);
    unsigned workerSize = 4;
    auto act = rig.tensor(fp, data);
    auto maxValue = rig.tensor(FLOAT, std::vector<double>(6));
    auto maxIndex = rig.tensor(label, std::vector<double>(6));
    auto v = rig.vertex(name);
    rig.graph().connect(v["activations"], act);
    rig.graph().connect(v["maxValue"], maxValue);
    rig.graph().connect(v["maxIndex"], maxIndex);
    rig.graph().setInitialValue(v["size"], unsigned(data.size()));
    rig.graph().setInitialValue(v["workerSize"], static_cast<unsigned short>(workerSize));
    ASSERT_EQ(rig.run(), "") << name;
    auto values = rig.values(maxValue), indices = rig.values(maxIndex);
    for (unsigned w = 0; w < 6; ++w) {
      std::size_t begin = std::min<std::size_t>(data.size(), w * workerSize);
      std::size_t end = std::min<std::size_t>(data.size(), begin + workerSize);
      if (begin == end) {
        EXPECT_EQ(values[w], 0);
        continue;
      }
      auto best = std::max_element(data.begin() + begin, data.begin() + end);
      EXPECT_EQ(values[w], *best) << name << " worker " << w;
      EXPECT_EQ(indices[w], double(best - data.begin())) << name << " worker " << w;
    }
  }
}

TEST(RealWorld, HasNaNOrInfOverFloatAndHalf) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    std::vector<double> data;
    bool nanOrInf, want;
  };
  for (Type type : {FLOAT, HALF})
    for (const Case &c : {Case{{1, 2, 3}, true, false}, Case{{1, inf, 3}, true, true},
                          Case{{1, inf, 3}, false, false}, Case{{nan, 2}, false, true},
                          Case{{-inf}, true, true}, Case{{}, true, false}}) {
      Rig rig("HasNaNOrInf.cpp");
      auto in = rig.tensor(type, c.data);
      auto out = rig.scalar(BOOL, 0);
      auto v = rig.vertex("HasNaNOrInf1D<" + type.toString() + "," +
                          (c.nanOrInf ? "true" : "false") + ">");
      rig.graph().connect(v["in"], in);
      rig.graph().connect(v["out"], out);
      ASSERT_EQ(rig.run(), "");
      EXPECT_EQ(rig.values(out)[0], c.want ? 1 : 0) << type.toString() << " " << c.data.size();
    }
}

TEST(RealWorld, DynamicSliceWithRuntimeSizedMemcpy) {
  for (Type type : {FLOAT, HALF, UNSIGNED_CHAR}) {
    Rig rig("DynamicSlice.cpp");
    unsigned rows = 5, regionSize = 3, numSub = 3;
    auto base = randomData(rows * regionSize, 0, 100, 1, 17);
    auto tb = rig.tensor(type, base);
    auto sub = rig.tensor(type, std::vector<double>(numSub * regionSize));
    auto v = rig.vertex("DynamicSlice1D<" + type.toString() + ">");
    rig.graph().connect(v["offset"], rig.scalar(UNSIGNED_INT, 3));
    rig.graph().connect(v["baseT"], tb);
    rig.graph().connect(v["subT"], sub);
    rig.graph().setInitialValue(v["numBaseElements"], rows);
    rig.graph().setInitialValue(v["numSubElements"], static_cast<unsigned short>(numSub));
    rig.graph().setInitialValue(v["regionSize"], static_cast<unsigned short>(regionSize));
    ASSERT_EQ(rig.run(), "") << type.toString();
    std::vector<double> want;
    for (unsigned r = 0; r < numSub; ++r)
      for (unsigned i = 0; i < regionSize; ++i)
        want.push_back(base[((3 + r) % rows) * regionSize + i]);
    EXPECT_EQ(rig.values(sub), want) << type.toString();
  }
}

TEST(RealWorld, SoftmaxOverRegions) {
  for (Type type : {FLOAT, HALF}) {
    Rig rig("Softmax.cpp");
    std::vector<std::vector<double>> regions = {
        randomData(7, -4, 4, 0.25, 21), {}, randomData(12, -4, 4, 0.25, 22)};
    auto v = rig.vertex("Softmax<" + type.toString() + ">");
    rig.graph().setFieldSize(v["regions"], regions.size());
    std::vector<Tensor> ts;
    for (std::size_t r = 0; r < regions.size(); ++r) {
      ts.push_back(rig.tensor(type, regions[r]));
      rig.graph().connect(v["regions"][r], ts.back());
    }
    ASSERT_EQ(rig.run(), "");
    for (std::size_t r = 0; r < regions.size(); ++r) {
      double peak = -1e30, total = 0;
      for (double x : regions[r])
        peak = std::max(peak, x);
      for (double x : regions[r])
        total += std::exp(x - peak);
      auto got = rig.values(ts[r]);
      for (std::size_t i = 0; i < regions[r].size(); ++i)
        EXPECT_NEAR(got[i], std::exp(regions[r][i] - peak) / total, type == HALF ? 1e-3 : 1e-6)
            << type.toString() << " region " << r << " element " << i;
    }
  }
}

TEST(RealWorld, ScaledAdd2DOverRegionsOnManyTiles) {
  for (const char *types : {"float,float,float,false", "half,half,half,true",
                            "half,float,float,false", "int,int,int,false"}) {
    std::string t(types);
    Type a = t.rfind("float", 0) == 0 ? FLOAT : t.rfind("half", 0) == 0 ? HALF : INT;
    Type b = t.find(",float,") != std::string::npos ? FLOAT : a;
    Type s = t.find("float,false") != std::string::npos && a != FLOAT ? FLOAT : a;
    if (a == FLOAT)
      s = FLOAT;
    Rig rig("ScaledAdd2D.cpp", 3);
    std::vector<std::vector<double>> av = {randomData(6, -8, 8, 1, 1), randomData(2, -8, 8, 1, 2),
                                           randomData(9, -8, 8, 1, 3)};
    std::vector<std::vector<double>> bv = {randomData(6, -8, 8, 1, 4), randomData(2, -8, 8, 1, 5),
                                           randomData(9, -8, 8, 1, 6)};
    auto v = rig.vertex("popops::ScaledAdd2D<" + t + ">");
    rig.graph().setFieldSize(v["A"], av.size());
    rig.graph().setFieldSize(v["B"], bv.size());
    std::vector<Tensor> at;
    for (std::size_t r = 0; r < av.size(); ++r) {
      at.push_back(rig.tensor(a, av[r], unsigned(r % 3)));
      rig.graph().connect(v["A"][r], at.back());
      rig.graph().connect(v["B"][r], rig.tensor(b, bv[r], unsigned((r + 1) % 3)));
    }
    double scale = a == INT ? 3 : 0.5;
    rig.graph().connect(v["scaleB"], rig.scalar(s, scale));
    ASSERT_EQ(rig.run(), "") << t;
    for (std::size_t r = 0; r < av.size(); ++r) {
      auto got = rig.values(at[r]);
      for (std::size_t i = 0; i < av[r].size(); ++i)
        EXPECT_EQ(got[i], roundTo(a, av[r][i] + scale * bv[r][i])) << t << " " << r << " " << i;
    }
  }
}

} // namespace
