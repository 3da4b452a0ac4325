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

namespace {

using ByteRanges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

/// Bytes covered by `ranges` (sorted here), counting overlaps once.
std::uint64_t unionBytes(ByteRanges &ranges) {
  std::sort(ranges.begin(), ranges.end());
  std::uint64_t bytes = 0, end = 0;
  for (const auto &[b, e] : ranges) {
    if (e > end)
      bytes += e - std::max(b, end);
    end = std::max(end, e);
  }
  return bytes;
}

/// A source byte range as one key space over all tiles, so that the same bytes received by
/// two tiles compare equal.
std::pair<std::uint64_t, std::uint64_t> sourceRange(const CopyRun &r) {
  const std::uint64_t base = std::uint64_t(r.srcTile) << 32;
  return {base + r.srcOffset, base + r.srcOffset + r.bytes};
}

/// A source byte range received by the tile `member` of a supertile.
struct Received {
  std::pair<std::uint64_t, std::uint64_t> range;
  unsigned member;
};

/// Bytes a supertile takes in: a byte several of its tiles receive arrives once (they listen
/// to the same bus), but a byte one tile receives twice (into two places) arrives twice.
std::uint64_t receivedBytes(const std::vector<Received> &received, unsigned superTile) {
  struct Edge {
    std::uint64_t at;
    unsigned member;
    int step;
    bool operator<(const Edge &o) const { return at < o.at; }
  };
  std::vector<Edge> edges;
  edges.reserve(received.size() * 2);
  for (const auto &r : received) {
    edges.push_back({r.range.first, r.member, +1});
    edges.push_back({r.range.second, r.member, -1});
  }
  std::sort(edges.begin(), edges.end());
  // Sweep the source bytes: each span costs the most times any one member receives it.
  std::vector<int> times(superTile, 0);
  std::uint64_t bytes = 0, at = 0;
  for (const auto &e : edges) {
    bytes += (e.at - at) * std::uint64_t(*std::max_element(times.begin(), times.end()));
    at = e.at;
    times[e.member] += e.step;
  }
  return bytes;
}

} // namespace

ExchangeCost costOfExchange(const TargetDesc &target, const std::vector<CopyRun> &runs) {
  // The tiles of a supertile share their exchange buses: a tile may use all of them when its
  // partners are idle or receive the same data. So a supertile sends the union of its tiles'
  // sends and takes in what they receive with the bytes they all receive counted once, each at
  // the whole supertile's bandwidth: exclusive data on both tiles of a pair gains nothing, data
  // both receive arrives once, and a tile whose partner is idle moves twice as fast. Each byte
  // is sent once however many tiles receive it (the exchange broadcasts). Ranges are source
  // bytes, so equal data compares equal. A supertile's tiles are on one IPU.
  const unsigned superTile =
      target.superTileSendReceive ? std::max(1u, target.tilesPerSuperTile) : 1;
  const std::uint32_t superTilesPerIPU = (target.tilesPerIPU + superTile - 1) / superTile;
  auto superTileOf = [&](std::uint32_t tile) {
    return tile / target.tilesPerIPU * superTilesPerIPU + tile % target.tilesPerIPU / superTile;
  };
  struct Traffic {
    ByteRanges sent;
    std::vector<Received> received;
  };
  std::unordered_map<std::uint32_t, Traffic> perSuperTile;
  std::unordered_map<std::uint32_t, std::uint64_t> localBytes;
  ExchangeCost cost;
  cost.firstTile = ~0u;
  for (const auto &r : runs) {
    if (r.srcTile == r.dstTile) {
      localBytes[r.srcTile] += r.bytes;
    } else {
      perSuperTile[superTileOf(r.srcTile)].sent.push_back(sourceRange(r));
      perSuperTile[superTileOf(r.dstTile)].received.push_back(
          {sourceRange(r), r.dstTile % target.tilesPerIPU % superTile});
    }
    cost.firstTile = std::min({cost.firstTile, r.srcTile, r.dstTile});
    cost.lastTile = std::max({cost.lastTile, r.srcTile, r.dstTile});
  }
  if (runs.empty())
    cost.firstTile = 0;
  const std::uint64_t bytesPerCycle = std::uint64_t(superTile) * target.exchangeBytesPerCycle;
  std::unordered_map<std::uint32_t, std::uint64_t> busCycles;
  std::uint64_t busiest = 0;
  for (auto &[group, t] : perSuperTile) {
    const std::uint64_t x = std::max(unionBytes(t.sent), receivedBytes(t.received, superTile));
    busCycles[group] = (x + bytesPerCycle - 1) / bytesPerCycle;
    busiest = std::max(busiest, busCycles[group]);
  }
  // A copy on a tile moves a 64-bit word a cycle after the tile's exchange.
  for (const auto &[tile, bytes] : localBytes) {
    auto bus = busCycles.find(superTileOf(tile));
    busiest =
        std::max(busiest, (bus == busCycles.end() ? 0 : bus->second) +
                              (bytes + kOnTileCopyBytesPerCycle - 1) / kOnTileCopyBytesPerCycle);
  }
  cost.exchangeCycles = busiest;
  cost.syncCycles = runs.empty() ? 0 : internalSyncCycles(target);
  return cost;
}

} // namespace poplar::detail
