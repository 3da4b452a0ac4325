// Regression: vectors of edges are laid out per their outer and inner layouts (4-byte entries
// for inner pointer-only layouts, no count in the state for an outer pointer-only one), and
// VectorLists per theirs: one test per combination, on one tile and with the regions spread over
// four.
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <tuple>

using namespace poplar;
using namespace realworld;

namespace {

const char *const kLayouts[] = {"ONE_PTR",     "SCALED_PTR32", "SCALED_PTR64", "SCALED_PTR128",
                                "COMPACT_PTR", "SHORT_SPAN",   "SPAN"};
const char *const kListLayouts[] = {"ONE_PTR", "SCALED_PTR32",   "SCALED_PTR64",  "SCALED_PTR128",
                                    "DELTAN",  "DELTANELEMENTS", "COMPACT_DELTAN"};

const std::vector<std::vector<double>> kRegions = {randomData(5, -4, 4, 0.25, 1),
                                                   randomData(1, -4, 4, 0.25, 2),
                                                   {},
                                                   randomData(17, -4, 4, 0.25, 3)};

void expectSums(const std::vector<double> &got, const std::string &what) {
  for (std::size_t r = 0; r < kRegions.size(); ++r) {
    double want = 0;
    for (double x : kRegions[r])
      want += x;
    EXPECT_EQ(got[r], want) << what << " region " << r;
  }
}

std::string
layoutName(const ::testing::TestParamInfo<std::tuple<const char *, const char *, unsigned>> &info) {
  return std::string(std::get<0>(info.param)) + "_" + std::get<1>(info.param) + "_" +
         std::to_string(std::get<2>(info.param)) + "tiles";
}

class VectorOfEdges
    : public ::testing::TestWithParam<std::tuple<const char *, const char *, unsigned>> {};

/// Runs three vertices of `type` on tile 0 (a state written past its end would corrupt a
/// neighbour's), each summing kRegions spread over `tiles` tiles into its `sums`, and checks
/// them. `withSizes` connects the region sizes too (SumRegions reads them: ONE_PTR layouts
/// keep none).
void sumThreeVertices(const std::string &type, unsigned tiles, bool withSizes) {
  Rig rig("VectorsOfEdges.cpp", tiles);
  std::vector<Tensor> sums;
  for (unsigned k = 0; k < 3; ++k) {
    auto v = rig.vertex(type, 0);
    if (withSizes) {
      std::vector<double> sizes;
      for (const auto &r : kRegions)
        sizes.push_back(double(r.size()));
      rig.graph().connect(v["sizes"], rig.tensor(UNSIGNED_INT, sizes));
    }
    sums.push_back(rig.tensor(FLOAT, std::vector<double>(kRegions.size())));
    rig.graph().connect(v["sums"], sums.back());
    rig.graph().setFieldSize(v["regions"], kRegions.size());
    for (std::size_t r = 0; r < kRegions.size(); ++r)
      rig.graph().connect(v["regions"][r],
                          rig.tensor(FLOAT, kRegions[r], unsigned((r + k) % tiles)));
  }
  ASSERT_EQ(rig.run(), "") << type;
  for (const Tensor &t : sums)
    expectSums(rig.values(t), type);
}

TEST_P(VectorOfEdges, SumsEveryRegion) {
  auto [outer, inner, tiles] = GetParam();
  sumThreeVertices(std::string("SumRegions<poplar::VectorLayout::") + outer +
                       ",poplar::VectorLayout::" + inner + ">",
                   tiles, true);
}

INSTANTIATE_TEST_SUITE_P(Layouts, VectorOfEdges,
                         ::testing::Combine(::testing::ValuesIn(kLayouts),
                                            ::testing::ValuesIn(kLayouts),
                                            ::testing::Values(1u, 4u)),
                         layoutName);

class SpanInnerVectors : public ::testing::TestWithParam<std::tuple<const char *, unsigned>> {};

TEST_P(SpanInnerVectors, CarryTheirCounts) {
  auto [outer, tiles] = GetParam();
  Rig rig("VectorsOfEdges.cpp", tiles);
  auto v = rig.vertex(std::string("CountRegions<poplar::VectorLayout::") + outer + ">");
  auto counts = rig.tensor(UNSIGNED_INT, std::vector<double>(kRegions.size()));
  rig.graph().connect(v["counts"], counts);
  rig.graph().setFieldSize(v["regions"], kRegions.size());
  std::vector<Tensor> data;
  for (std::size_t r = 0; r < kRegions.size(); ++r) {
    data.push_back(rig.tensor(FLOAT, kRegions[r], unsigned(r % tiles)));
    rig.graph().connect(v["regions"][r], data.back());
  }
  ASSERT_EQ(rig.run(), "") << outer;
  auto got = rig.values(counts);
  for (std::size_t r = 0; r < kRegions.size(); ++r) {
    EXPECT_EQ(got[r], double(kRegions[r].size())) << outer << " region " << r;
    auto doubled = rig.values(data[r]);
    for (std::size_t i = 0; i < kRegions[r].size(); ++i)
      EXPECT_EQ(doubled[i], 2 * kRegions[r][i]) << outer << " region " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, SpanInnerVectors,
                         ::testing::Combine(::testing::ValuesIn(kLayouts),
                                            ::testing::Values(1u, 4u)));

class VectorListOfRegions : public ::testing::TestWithParam<std::tuple<const char *, unsigned>> {};

TEST_P(VectorListOfRegions, SumsEveryRegion) {
  auto [layout, tiles] = GetParam();
  sumThreeVertices(std::string("SumList<poplar::VectorListLayout::") + layout + ">", tiles, false);
}

INSTANTIATE_TEST_SUITE_P(Layouts, VectorListOfRegions,
                         ::testing::Combine(::testing::ValuesIn(kListLayouts),
                                            ::testing::Values(1u, 4u)));

} // namespace
