// The executor's strided copy groups (engine/CopyGroups.hpp): a transpose's one-element runs fold
// into a group per stride and its groups into one lattice, other runs stay apart, and the groups
// move exactly the runs' bytes.
#include "engine/CopyGroups.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

using poplar::detail::CopyGroup;
using poplar::detail::copyLattice;
using poplar::detail::CopyRun;
using poplar::detail::foldCopyRuns;
using poplar::detail::latticeRows;

/// The runs of a [rows, cols] float transpose on one tile: element (r, c) from r*cols+c to
/// c*rows+r, in source order (what planCopy gives a copy into a transposed layout).
std::vector<CopyRun> transposeRuns(std::uint32_t rows, std::uint32_t cols, std::uint32_t dstAt) {
  std::vector<CopyRun> runs;
  for (std::uint32_t r = 0; r < rows; ++r)
    for (std::uint32_t c = 0; c < cols; ++c)
      runs.push_back({0, (r * cols + c) * 4, 0, dstAt + (c * rows + r) * 4, 4});
  return runs;
}

/// Tile memories after moving `runs` one by one, and after moving their groups.
void expectGroupsMoveTheRuns(const std::vector<CopyRun> &runs, std::size_t tiles,
                             std::size_t bytes) {
  std::vector<std::vector<std::uint8_t>> byRuns(tiles), byGroups;
  for (std::size_t t = 0; t < tiles; ++t) {
    byRuns[t].resize(bytes);
    for (std::size_t i = 0; i < bytes; ++i)
      byRuns[t][i] = std::uint8_t(i * 31 + t * 7);
  }
  byGroups = byRuns;
  for (const CopyRun &r : runs)
    popsdk::support::copyBytes(byRuns[r.dstTile].data() + r.dstOffset,
                               byRuns[r.srcTile].data() + r.srcOffset, r.bytes);
  // As the executor moves them: each lattice of groups at once.
  std::vector<std::uint8_t *> base;
  for (auto &memory : byGroups)
    base.push_back(memory.data());
  const std::vector<CopyGroup> groups = foldCopyRuns(runs);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < groups.size();) {
    const std::size_t rows = latticeRows(groups.data() + i, groups.size() - i);
    copyLattice(base.data(), groups.data() + i, rows);
    for (std::size_t r = 0; r < rows; ++r, ++i)
      moved += std::size_t(groups[i].bytes) * groups[i].count;
  }
  std::size_t runBytes = 0;
  for (const CopyRun &r : runs)
    runBytes += r.bytes;
  EXPECT_EQ(moved, runBytes);
  EXPECT_EQ(byGroups, byRuns);
}

TEST(CopyGroups, ATransposeFoldsIntoOneGroupPerSourceRow) {
  const auto runs = transposeRuns(6, 40, 1024);
  const auto groups = foldCopyRuns(runs);
  ASSERT_EQ(groups.size(), 6u);
  for (std::uint32_t r = 0; r < 6; ++r) {
    EXPECT_EQ(groups[r].count, 40u);
    EXPECT_EQ(groups[r].srcOffset, r * 40 * 4);
    EXPECT_EQ(groups[r].dstOffset, 1024 + r * 4);
    EXPECT_EQ(groups[r].srcStride, 4);
    EXPECT_EQ(groups[r].dstStride, 6 * 4);
  }
  expectGroupsMoveTheRuns(runs, 1, 2048);
}

TEST(CopyGroups, ATransposesGroupsAreOneLatticeMovedInBlocks) {
  for (std::uint32_t rows : {1u, 7u, 8u, 33u}) {
    const auto runs = transposeRuns(rows, 21, 4096);
    const auto groups = foldCopyRuns(runs);
    EXPECT_EQ(latticeRows(groups.data(), groups.size()), rows);
    expectGroupsMoveTheRuns(runs, 1, 8192);
  }
}

TEST(CopyGroups, GroupsWritingOneByteTwiceAreNoLattice) {
  // Two rows of four runs whose destinations interleave with a stride of one run but a row step
  // of two: row 1's runs land on row 0's second and later runs. In order, row 1 wins.
  std::vector<CopyRun> runs;
  for (std::uint32_t r = 0; r < 2; ++r)
    for (std::uint32_t c = 0; c < 4; ++c)
      runs.push_back({0, 100 * r + 4 * c, 0, 512 + 8 * r + 4 * c, 4});
  const auto groups = foldCopyRuns(runs);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(latticeRows(groups.data(), groups.size()), 1u);
  expectGroupsMoveTheRuns(runs, 1, 1024);
}

TEST(CopyGroups, RunsOfOtherSizesTilesOrStridesStayApart) {
  const std::vector<CopyRun> runs = {
      {0, 0, 1, 0, 4},   {0, 4, 1, 8, 4},  {0, 8, 1, 16, 4}, // one group, strides 4 and 8
      {0, 12, 1, 20, 4},                                     // dst stride breaks: a new group
      {0, 16, 2, 24, 4},                                     // another tile
      {0, 20, 2, 28, 2},                                     // another size
      {0, 60, 2, 36, 8}, {0, 28, 2, 44, 8}};                 // negative source stride: a group
  const auto groups = foldCopyRuns(runs);
  ASSERT_EQ(groups.size(), 5u);
  EXPECT_EQ(groups[0].count, 3u);
  EXPECT_EQ(groups[1].count, 1u);
  EXPECT_EQ(groups[2].count, 1u);
  EXPECT_EQ(groups[3].count, 1u);
  EXPECT_EQ(groups[4].count, 2u);
  EXPECT_EQ(groups[4].srcStride, -32);
  expectGroupsMoveTheRuns(runs, 3, 128);
}

TEST(CopyGroups, ALongStrideIsCutAtTheGroupLimit) {
  const auto runs = transposeRuns(1, 2 * poplar::detail::kMaxGroupRuns + 5, 0);
  std::vector<CopyRun> shifted = runs;
  for (CopyRun &r : shifted)
    r.dstTile = 1;
  const auto groups = foldCopyRuns(shifted);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].count, poplar::detail::kMaxGroupRuns);
  EXPECT_EQ(groups[2].count, 5u);
  expectGroupsMoveTheRuns(shifted, 2, (2 * poplar::detail::kMaxGroupRuns + 5) * 4);
}

TEST(CopyGroups, RandomRunsMoveTheSameBytesAsOneByOne) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    // Runs into distinct destination slots (as a copy's are), from anywhere, of mixed sizes,
    // some in strided stretches.
    std::vector<CopyRun> runs;
    std::uint32_t dst = 0;
    while (dst < 900) {
      const std::uint32_t bytes = 1 + rng() % 12, stretch = 1 + rng() % 6, stride = rng() % 40;
      const std::uint32_t src = rng() % 200, srcTile = rng() % 2, dstTile = rng() % 2;
      for (std::uint32_t k = 0; k < stretch && dst < 900; ++k, dst += bytes)
        runs.push_back({srcTile, src + k * stride, dstTile, 1024 + dst, bytes});
    }
    expectGroupsMoveTheRuns(runs, 2, 2048);
  }
}

} // namespace
