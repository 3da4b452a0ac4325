// A copy's runs folded into strided groups for the executor: a transpose or a gather moves one
// element a run, each run one step of a fixed stride from the last, so a group of them is moved
// by one tight loop instead of one loop trip (and one 20-byte run read) per element.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "support/CopyBytes.hpp"

#include <cstddef>
#include <cstdint>
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

} // namespace poplar::detail
