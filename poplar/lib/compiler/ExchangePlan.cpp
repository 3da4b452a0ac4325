// Exchange planning and costing.
#include "compiler/ExchangePlan.hpp"

#include "compiler/CycleConstants.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

namespace poplar::detail {

std::vector<CopyRun> planCopy(const TensorLocation &src, const TensorLocation &dst) {
  std::vector<CopyRun> runs;
  std::size_t i = 0, j = 0;
  std::uint32_t si = 0, dj = 0; // bytes already consumed of src.runs[i] and dst.runs[j]
  while (i < src.runs.size() && j < dst.runs.size()) {
    const auto &s = src.runs[i];
    const auto &d = dst.runs[j];
    std::uint32_t n = std::min(s.bytes - si, d.bytes - dj);
    CopyRun r{s.tile, s.offset + si, d.tile, d.offset + dj, n};
    if (!runs.empty()) {
      auto &last = runs.back();
      if (last.srcTile == r.srcTile && last.dstTile == r.dstTile &&
          last.srcOffset + last.bytes == r.srcOffset && last.dstOffset + last.bytes == r.dstOffset)
        last.bytes += n;
      else
        runs.push_back(r);
    } else {
      runs.push_back(r);
    }
    si += n;
    dj += n;
    if (si == s.bytes) {
      ++i;
      si = 0;
    }
    if (dj == d.bytes) {
      ++j;
      dj = 0;
    }
  }
  return runs;
}

bool copiesOverlap(const std::vector<CopyRun> &runs) {
  struct Span {
    std::uint32_t tile, begin, end;
    bool isWrite;
  };
  std::vector<Span> spans;
  spans.reserve(runs.size() * 2);
  for (const auto &r : runs) {
    spans.push_back({r.srcTile, r.srcOffset, r.srcOffset + r.bytes, false});
    spans.push_back({r.dstTile, r.dstOffset, r.dstOffset + r.bytes, true});
  }
  std::sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) {
    return a.tile < b.tile || (a.tile == b.tile && a.begin < b.begin);
  });
  // Sweep each tile's spans in address order, remembering how far reads and writes reach.
  std::uint32_t tile = ~0u, readEnd = 0, writeEnd = 0;
  for (const auto &s : spans) {
    if (s.tile != tile) {
      tile = s.tile;
      readEnd = writeEnd = 0;
    }
    if (s.isWrite ? s.begin < readEnd : s.begin < writeEnd)
      return true;
    (s.isWrite ? writeEnd : readEnd) = std::max(s.isWrite ? writeEnd : readEnd, s.end);
  }
  return false;
}

std::uint64_t internalSyncCycles(const TargetDesc &target) { return target.minIPUSyncDelay; }

ExchangeCost costOfExchange(const TargetDesc &target, const std::vector<CopyRun> &runs) {
  struct Traffic {
    std::uint64_t received = 0, local = 0;
    // Source byte ranges sent off the tile: a tile sends each byte once however many tiles
    // receive it (the exchange broadcasts), so what it sends is their union.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> sent;
  };
  std::unordered_map<std::uint32_t, Traffic> perTile;
  ExchangeCost cost;
  cost.firstTile = ~0u;
  for (const auto &r : runs) {
    if (r.srcTile == r.dstTile) {
      perTile[r.srcTile].local += r.bytes;
    } else {
      perTile[r.srcTile].sent.emplace_back(r.srcOffset, r.srcOffset + r.bytes);
      perTile[r.dstTile].received += r.bytes;
    }
    cost.firstTile = std::min({cost.firstTile, r.srcTile, r.dstTile});
    cost.lastTile = std::max({cost.lastTile, r.srcTile, r.dstTile});
  }
  if (runs.empty())
    cost.firstTile = 0;
  std::uint64_t busiest = 0;
  for (auto &kv : perTile) {
    auto &t = kv.second;
    std::sort(t.sent.begin(), t.sent.end());
    std::uint64_t sent = 0, end = 0;
    for (const auto &[b, e] : t.sent) {
      if (e > end)
        sent += e - std::max<std::uint64_t>(b, end);
      end = std::max<std::uint64_t>(end, e);
    }
    std::uint64_t x = std::max(sent, t.received);
    std::uint64_t cycles = (x + target.exchangeBytesPerCycle - 1) / target.exchangeBytesPerCycle +
                           (t.local + kOnTileCopyBytesPerCycle - 1) / kOnTileCopyBytesPerCycle;
    busiest = std::max(busiest, cycles);
  }
  cost.exchangeCycles = busiest;
  cost.syncCycles = runs.empty() ? 0 : internalSyncCycles(target);
  return cost;
}

} // namespace poplar::detail
