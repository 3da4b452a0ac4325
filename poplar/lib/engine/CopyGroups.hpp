// A copy's runs folded into strided groups for the executor: a transpose or a gather moves one
// element a run, each run one step of a fixed stride from the last, so a group of them is moved
// by one tight loop instead of one loop trip (and one 20-byte run read) per element.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "support/CopyBytes.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace poplar::detail {

/// `count` runs of `bytes` each between two tiles, the k-th at the first's offsets plus k times
/// each stride.
struct CopyGroup {
  std::uint32_t srcTile = 0, dstTile = 0;
  std::uint32_t srcOffset = 0, dstOffset = 0;
  std::int32_t srcStride = 0, dstStride = 0; // offsets are 32-bit: so are their differences
  std::uint32_t bytes = 0, count = 0;
};

/// Groups are cut at this many runs, so that a long one does not hold back the threads that share
/// a copy's chunks.
constexpr std::uint32_t kMaxGroupRuns = 1024;

/// `runs` in order, consecutive runs of one size between the same two tiles at fixed strides
/// made one group (the order of the runs is kept: each group moves its runs in order).
inline std::vector<CopyGroup> foldCopyRuns(const std::vector<CopyRun> &runs) {
  std::vector<CopyGroup> groups;
  for (const CopyRun &r : runs) {
    if (!groups.empty()) {
      CopyGroup &g = groups.back();
      if (g.srcTile == r.srcTile && g.dstTile == r.dstTile && g.bytes == r.bytes &&
          g.count < kMaxGroupRuns) {
        const std::int64_t srcStep = std::int64_t(r.srcOffset) - g.srcOffset,
                           dstStep = std::int64_t(r.dstOffset) - g.dstOffset;
        if (g.count == 1) {
          g.srcStride = std::int32_t(srcStep);
          g.dstStride = std::int32_t(dstStep);
          g.count = 2;
          continue;
        }
        if (srcStep == std::int64_t(g.count) * g.srcStride &&
            dstStep == std::int64_t(g.count) * g.dstStride) {
          ++g.count;
          continue;
        }
      }
    }
    groups.push_back({r.srcTile, r.dstTile, r.srcOffset, r.dstOffset, 0, 0, r.bytes, 1});
  }
  return groups;
}

/// Moves `count` runs of `bytes` from s to d, each pointer advancing by its stride after each run
/// (the runs do not overlap); a 4-byte element (float, int) moves as one word.
inline void copyStrided(std::uint8_t *d, std::int64_t dStride, const std::uint8_t *s,
                        std::int64_t sStride, std::uint32_t bytes, std::uint32_t count) {
  if (count == 1) { // most runs of a gather: as fast as before groups
    popsdk::support::copyBytes(d, s, bytes);
    return;
  }
  if (bytes == 4) {
    for (std::uint32_t k = 0; k < count; ++k, d += dStride, s += sStride) {
      std::uint32_t w;
      std::memcpy(&w, s, 4);
      std::memcpy(d, &w, 4);
    }
    return;
  }
  for (std::uint32_t k = 0; k < count; ++k, d += dStride, s += sStride)
    popsdk::support::copyBytes(d, s, bytes);
}

/// A lattice of groups moves in square blocks of this many runs a side.
constexpr std::uint32_t kLatticeBlock = 8;

/// How many of the `n` groups from `g` are rows of one lattice: between the same two tiles, of the
/// same run size, count and strides, each starting a fixed step of source and destination after the
/// last, and no two of their runs writing the same byte (so that any order moves them alike).
inline std::size_t latticeRows(const CopyGroup *g, std::size_t n) {
  if (n < 2 || g[0].count < 2)
    return 1;
  const std::int64_t srcStep = std::int64_t(g[1].srcOffset) - g[0].srcOffset,
                     dstStep = std::int64_t(g[1].dstOffset) - g[0].dstOffset;
  std::size_t rows = 1;
  while (rows < n) {
    const CopyGroup &r = g[rows];
    if (r.srcTile != g[0].srcTile || r.dstTile != g[0].dstTile || r.bytes != g[0].bytes ||
        r.count != g[0].count || r.srcStride != g[0].srcStride || r.dstStride != g[0].dstStride ||
        std::int64_t(r.srcOffset) - g[0].srcOffset != std::int64_t(rows) * srcStep ||
        std::int64_t(r.dstOffset) - g[0].dstOffset != std::int64_t(rows) * dstStep)
      break;
    ++rows;
  }
  // Destinations disjoint: rows apart (each row's runs packed within one step), or columns apart
  // (each column's runs, one a row, packed within one stride).
  const std::int64_t bytes = g[0].bytes, stride = std::abs(std::int64_t(g[0].dstStride)),
                     step = std::abs(dstStep);
  if (stride >= bytes && step >= (std::int64_t(g[0].count) - 1) * stride + bytes)
    return rows;
  if (step >= bytes && stride >= (std::int64_t(rows) - 1) * step + bytes)
    return rows;
  return 1;
}

/// For each of `groups`, how many groups from it on are rows of its lattice (1 where it is in
/// none), so that a copy does not look for lattices again.
inline std::vector<std::uint32_t> latticeRowsFrom(const std::vector<CopyGroup> &groups) {
  std::vector<std::uint32_t> rowsFrom(groups.size());
  for (std::size_t i = 0; i < groups.size();) {
    const std::size_t rows = latticeRows(groups.data() + i, groups.size() - i);
    for (std::size_t r = 0; r < rows; ++r)
      rowsFrom[i + r] = std::uint32_t(rows - r);
    i += rows;
  }
  return rowsFrom;
}

/// Moves the `rows` groups of a lattice from `g` (latticeRows) in square blocks, so that a
/// transpose reads and writes each cache line once rather than once per element.
inline void copyLattice(std::uint8_t *const *base, const CopyGroup *g, std::size_t rows) {
  std::uint8_t *const d0 = base[g->dstTile] + g->dstOffset;
  const std::uint8_t *const s0 = base[g->srcTile] + g->srcOffset;
  if (rows == 1) {
    copyStrided(d0, g->dstStride, s0, g->srcStride, g->bytes, g->count);
    return;
  }
  const std::int64_t srcStep = std::int64_t(g[1].srcOffset) - g[0].srcOffset,
                     dstStep = std::int64_t(g[1].dstOffset) - g[0].dstOffset;
  for (std::size_t r0 = 0; r0 < rows; r0 += kLatticeBlock) {
    const std::size_t r1 = std::min<std::size_t>(rows, r0 + kLatticeBlock);
    for (std::uint32_t c0 = 0; c0 < g->count; c0 += kLatticeBlock) {
      const std::uint32_t n = std::min(g->count - c0, kLatticeBlock);
      for (std::size_t r = r0; r < r1; ++r)
        copyStrided(d0 + std::int64_t(r) * dstStep + std::int64_t(c0) * g->dstStride, g->dstStride,
                    s0 + std::int64_t(r) * srcStep + std::int64_t(c0) * g->srcStride, g->srcStride,
                    g->bytes, n);
    }
  }
}

} // namespace poplar::detail
