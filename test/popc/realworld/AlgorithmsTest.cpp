// Standard-library algorithms, scans, 64-bit hashing and block transposes on the tile
// (HeapSort.cpp, StdAlgorithms.cpp, PrefixSums.cpp, Hash64.cpp, BlockTranspose.cpp) against host
// references.
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>

using namespace poplar;
using namespace realworld;

namespace {

TEST(RealWorld, HeapSortAscendingAndDescending) {
  struct Case {
    const char *vertex;
    Type type;
    bool descending;
  };
  for (const Case &c : {Case{"HeapSortInPlace<float,false>", FLOAT, false},
                        Case{"HeapSortInPlace<float,true>", FLOAT, true},
                        Case{"HeapSortInPlace<int,false>", INT, false},
                        Case{"HeapSortInPlace<half,false>", HALF, false}})
    for (std::size_t n : {0u, 1u, 2u, 17u, 64u}) {
      Rig rig("HeapSort.cpp");
      auto data = randomData(n, -100, 100, 0.5, unsigned(n));
      auto t = rig.tensor(c.type, data);
      rig.graph().connect(rig.vertex(c.vertex)["values"], t);
      ASSERT_EQ(rig.run(), "") << c.vertex;
      if (c.descending)
        std::sort(data.begin(), data.end(), std::greater<double>());
      else
        std::sort(data.begin(), data.end());
      for (double &x : data)
        x = roundTo(c.type, x);
      EXPECT_EQ(rig.values(t), data) << c.vertex << " n=" << n;
    }
  for (Type type : {FLOAT, INT}) {
    Rig rig("HeapSort.cpp");
    auto data = randomData(20, -50, 50, 1, 3);
    auto t = rig.tensor(type, data);
    auto v = rig.vertex("SmallestK<" + type.toString() + ">");
    rig.graph().connect(v["values"], t);
    rig.graph().setInitialValue(v["k"], 5u);
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(t);
    std::sort(data.begin(), data.end());
    EXPECT_EQ(std::vector<double>(got.begin(), got.begin() + 5),
              std::vector<double>(data.begin(), data.begin() + 5));
  }
}

TEST(RealWorld, StdSortAndBoundedRecursion) {
  for (Type type : {FLOAT, INT})
    for (std::size_t n : {0u, 5u, 31u, 500u}) {
      Rig rig("HeapSort.cpp");
      auto data = randomData(n, -1000, 1000, 0.5, unsigned(n));
      auto t = rig.tensor(type, data);
      rig.graph().connect(rig.vertex("StdSort<" + type.toString() + ">")["values"], t);
      ASSERT_EQ(rig.run(), "") << type.toString();
      for (double &x : data)
        x = roundTo(type, x);
      std::sort(data.begin(), data.end());
      EXPECT_EQ(rig.values(t), data) << type.toString() << " n=" << n;
    }
  for (std::size_t depth : {1u, 12u, 40u}) {
    Rig rig("HeapSort.cpp");
    auto coefficients = randomData(depth, -3, 3, 1, 9);
    auto value = rig.tensor(INT, {0});
    auto v = rig.vertex("RecursivePolynomial");
    rig.graph().connect(v["coefficients"], rig.tensor(INT, coefficients));
    rig.graph().connect(v["value"], value[0]);
    std::string error = rig.run();
    if (depth > 16) { // past popc's default --recursion-depth
      EXPECT_NE(error.find("stack overflow"), std::string::npos) << error;
      EXPECT_NE(error.find("RecursivePolynomial"), std::string::npos) << error;
      continue;
    }
    ASSERT_EQ(error, "") << depth;
    std::int32_t want = 0;
    for (std::size_t k = depth; k-- > 0;)
      want = std::int32_t(std::uint32_t(want) * 3u + std::uint32_t(std::int32_t(coefficients[k])));
    EXPECT_EQ(rig.values(value)[0], want) << depth;
  }
}

TEST(RealWorld, StatisticsThroughAlgorithmAndNumeric) {
  auto in = randomData(23, -10, 10, 0.5, 11), weights = randomData(23, -2, 2, 0.5, 12);
  std::vector<double> grid = {-8, -3, -1, 0, 2, 2, 5, 9};
  Rig rig("StdAlgorithms.cpp");
  auto stats = rig.tensor(FLOAT, std::vector<double>(8));
  auto clamped = rig.tensor(FLOAT, std::vector<double>(in.size() + 3));
  auto v = rig.vertex("Statistics");
  rig.graph().connect(v["in"], rig.tensor(FLOAT, in));
  rig.graph().connect(v["weights"], rig.tensor(FLOAT, weights));
  rig.graph().connect(v["grid"], rig.tensor(FLOAT, grid));
  rig.graph().connect(v["stats"], stats);
  rig.graph().connect(v["clamped"], clamped);
  rig.graph().setInitialValue(v["threshold"], 2.0f);
  rig.graph().setInitialValue(v["lo"], -4.0f);
  rig.graph().setInitialValue(v["hi"], 6.5f);
  ASSERT_EQ(rig.run(), "");
  auto [mn, mx] = std::minmax_element(in.begin(), in.end());
  std::vector<double> want = {
      std::accumulate(in.begin(), in.end(), 0.0),
      *mn,
      *mx,
      double(mn - in.begin()),
      double(mx - in.begin()),
      double(std::count_if(in.begin(), in.end(), [](double x) { return x > 2; })),
      double(std::lower_bound(grid.begin(), grid.end(), 2.0) - grid.begin()),
      std::inner_product(in.begin(), in.end(), weights.begin(), 0.0)};
  EXPECT_EQ(rig.values(stats), want);
  std::vector<double> wantClamped(in.size() + 3, -1);
  std::transform(in.begin(), in.end(), wantClamped.begin(),
                 [](double x) { return std::clamp(x, -4.0, 6.5); });
  EXPECT_EQ(rig.values(clamped), wantClamped);
}

TEST(RealWorld, InclusiveScanSupervisorAndChunkedScanMultiVertex) {
  for (Type type : {INT, FLOAT}) {
    Rig rig("PrefixSums.cpp");
    auto data = randomData(29, -20, 20, 1, 5);
    auto t = rig.tensor(type, data);
    rig.graph().connect(rig.vertex("InclusiveScan<" + type.toString() + ">")["data"], t);
    ASSERT_EQ(rig.run(), "");
    std::partial_sum(data.begin(), data.end(), data.begin());
    EXPECT_EQ(rig.values(t), data) << type.toString();
  }
  for (std::size_t n : {1u, 6u, 7u, 40u}) {
    Rig rig("PrefixSums.cpp");
    auto data = randomData(n, 0, 1000, 1, unsigned(n));
    auto out = rig.tensor(UNSIGNED_INT, std::vector<double>(n));
    auto v = rig.vertex("ChunkedScan");
    rig.graph().connect(v["in"], rig.tensor(UNSIGNED_INT, data));
    rig.graph().connect(v["out"], out);
    ASSERT_EQ(rig.run(), "");
    std::partial_sum(data.begin(), data.end(), data.begin());
    EXPECT_EQ(rig.values(out), data) << n;
  }
}

std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

TEST(RealWorld, Hash64OfRegionsMatchesTheHost) {
  std::vector<std::vector<double>> regions = {
      randomData(5, 0, 255, 1, 1), {}, randomData(33, 0, 255, 1, 2), randomData(1, 0, 255, 1, 3)};
  const unsigned long long seed = 0x0123456789abcdefull;
  Rig rig("Hash64.cpp", 2);
  auto v = rig.vertex("HashRegions");
  rig.graph().setFieldSize(v["regions"], regions.size());
  for (std::size_t r = 0; r < regions.size(); ++r)
    rig.graph().connect(v["regions"][r], rig.tensor(UNSIGNED_CHAR, regions[r], unsigned(r % 2)));
  auto words = rig.tensor(UNSIGNED_INT, std::vector<double>(2 * regions.size()));
  rig.graph().connect(v["words"], words);
  rig.graph().setInitialValue(v["seed"], seed);
  ASSERT_EQ(rig.run(), "");
  std::vector<double> want;
  for (const auto &region : regions) {
    std::uint64_t h = 0xcbf29ce484222325ull ^ seed;
    for (double byte : region) {
      h ^= std::uint64_t(byte);
      h *= 0x100000001b3ull;
    }
    h = splitmix64(h);
    want.push_back(double(std::uint32_t(h)));
    want.push_back(double(std::uint32_t(h >> 32)));
  }
  EXPECT_EQ(rig.values(words), want);
}

TEST(RealWorld, BlockTransposesThroughVectorLanes) {
  for (std::size_t blocks : {1u, 3u}) {
    Rig rig("BlockTranspose.cpp");
    auto data = randomData(16 * blocks, -100, 100, 0.5, unsigned(blocks));
    auto t = rig.tensor(HALF, data);
    rig.graph().connect(rig.vertex("TransposeHalf4x4")["data"], t);
    auto in = randomData(4 * blocks, -100, 100, 0.25, 7);
    auto out = rig.tensor(FLOAT, std::vector<double>(in.size()));
    auto v = rig.vertex("TransposeFloat2x2");
    rig.graph().connect(v["in"], rig.tensor(FLOAT, in));
    rig.graph().connect(v["out"], out);
    ASSERT_EQ(rig.run(), "");
    std::vector<double> want(data.size()), wantFloat(in.size());
    for (std::size_t b = 0; b < blocks; ++b) {
      for (unsigned r = 0; r < 4; ++r)
        for (unsigned c = 0; c < 4; ++c)
          want[16 * b + 4 * r + c] = data[16 * b + 4 * c + r];
      for (unsigned r = 0; r < 2; ++r)
        for (unsigned c = 0; c < 2; ++c)
          wantFloat[4 * b + 2 * r + c] = in[4 * b + 2 * c + r];
    }
    EXPECT_EQ(rig.values(t), want) << blocks;
    EXPECT_EQ(rig.values(out), wantFloat) << blocks;
  }
}

} // namespace
