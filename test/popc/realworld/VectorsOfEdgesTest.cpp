// Regression: vectors of edges are laid out per their outer and inner layouts (4-byte entries
// for inner ONE_PTR/COMPACT_PTR/SCALED_PTR, no count in the state for an outer ONE_PTR), on one
// tile and with the regions spread over many.
#include "Rig.hpp"

#include <gtest/gtest.h>

using namespace poplar;
using namespace realworld;

namespace {

const char *const kLayoutPairs[][2] = {{"SPAN", "SPAN"},           {"SPAN", "ONE_PTR"},
                                       {"SPAN", "COMPACT_PTR"},    {"ONE_PTR", "SPAN"},
                                       {"ONE_PTR", "ONE_PTR"},     {"ONE_PTR", "COMPACT_PTR"},
                                       {"COMPACT_PTR", "ONE_PTR"}, {"SHORT_SPAN", "SCALED_PTR32"}};

class VectorOfEdges : public ::testing::TestWithParam<unsigned> {};

TEST_P(VectorOfEdges, EveryOuterAndInnerLayout) {
  unsigned tiles = GetParam();
  for (const auto &pair : kLayoutPairs) {
    Rig rig("VectorsOfEdges.cpp", tiles);
    std::vector<std::vector<double>> regions = {randomData(5, -4, 4, 0.25, 1),
                                                randomData(1, -4, 4, 0.25, 2),
                                                {},
                                                randomData(17, -4, 4, 0.25, 3)};
    std::string type = std::string("SumRegions<poplar::VectorLayout::") + pair[0] +
                       ",poplar::VectorLayout::" + pair[1] + ">";
    // Three vertices on tile 0: a state written past its end would corrupt a neighbour's.
    std::vector<Tensor> sums;
    for (unsigned k = 0; k < 3; ++k) {
      auto v = rig.vertex(type, 0);
      std::vector<double> sizes;
      for (const auto &r : regions)
        sizes.push_back(double(r.size()));
      rig.graph().connect(v["sizes"], rig.tensor(UNSIGNED_INT, sizes));
      sums.push_back(rig.tensor(FLOAT, std::vector<double>(regions.size())));
      rig.graph().connect(v["sums"], sums.back());
      rig.graph().setFieldSize(v["regions"], regions.size());
      for (std::size_t r = 0; r < regions.size(); ++r)
        rig.graph().connect(v["regions"][r],
                            rig.tensor(FLOAT, regions[r], unsigned((r + k) % tiles)));
    }
    ASSERT_EQ(rig.run(), "") << type;
    for (const Tensor &t : sums) {
      auto got = rig.values(t);
      for (std::size_t r = 0; r < regions.size(); ++r) {
        double want = 0;
        for (double x : regions[r])
          want += x;
        EXPECT_EQ(got[r], want) << type << " region " << r << " on " << tiles << " tiles";
      }
    }
  }
}

TEST_P(VectorOfEdges, SpanInnerVectorsCarryTheirCounts) {
  unsigned tiles = GetParam();
  for (const char *outer : {"SPAN", "ONE_PTR"}) {
    Rig rig("VectorsOfEdges.cpp", tiles);
    std::vector<std::vector<double>> regions = {randomData(3, -4, 4), randomData(8, -4, 4), {}};
    auto v = rig.vertex(std::string("CountRegions<poplar::VectorLayout::") + outer + ">");
    auto counts = rig.tensor(UNSIGNED_INT, std::vector<double>(regions.size()));
    rig.graph().connect(v["counts"], counts);
    rig.graph().setFieldSize(v["regions"], regions.size());
    std::vector<Tensor> data;
    for (std::size_t r = 0; r < regions.size(); ++r) {
      data.push_back(rig.tensor(FLOAT, regions[r], unsigned(r % tiles)));
      rig.graph().connect(v["regions"][r], data.back());
    }
    ASSERT_EQ(rig.run(), "") << outer;
    auto got = rig.values(counts);
    for (std::size_t r = 0; r < regions.size(); ++r) {
      EXPECT_EQ(got[r], double(regions[r].size())) << outer << " region " << r;
      auto doubled = rig.values(data[r]);
      for (std::size_t i = 0; i < regions[r].size(); ++i)
        EXPECT_EQ(doubled[i], 2 * regions[r][i]) << outer << " region " << r;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Tiles, VectorOfEdges, ::testing::Values(1u, 4u));

} // namespace
