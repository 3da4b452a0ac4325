// A compute set's copy-in grouped by destination tile, and the check that allows it.
#include "engine/TileCopyIn.hpp"

#include "engine/CpuRelax.hpp"

#include <algorithm>
#include <thread>

namespace poplar::detail {

namespace {

/// Byte intervals of one tile that vertices write, sorted by start, each with the furthest end
/// of it and those before it, so one binary search says whether a range meets any.
class WrittenBytes {
public:
  void add(std::uint32_t begin, std::uint32_t end) { spans_.push_back({begin, end}); }

  void finish() {
    std::sort(spans_.begin(), spans_.end());
    std::uint32_t reach = 0;
    for (auto &s : spans_)
      s.second = reach = std::max(reach, s.second);
  }

  bool meets(std::uint32_t begin, std::uint32_t end) const {
    // The last span starting before `end`: it and those before it reach at most its end.
    auto it = std::lower_bound(spans_.begin(), spans_.end(), std::make_pair(end, std::uint32_t(0)));
    return it != spans_.begin() && std::prev(it)->second > begin;
  }

private:
  std::vector<std::pair<std::uint32_t, std::uint32_t>> spans_; // (begin, reach)
};

} // namespace

void TileCopyIn::startRun() {
  done_ += 2;
  if (done_ == 0) { // wrapped: no state may look done already
    for (std::uint32_t t = 0; t + 1 < first_.size(); ++t)
      state_[t].store(0, std::memory_order_relaxed);
    done_ = 2;
  }
}

void TileCopyIn::move(std::uint8_t *const *base, std::uint32_t tile) const {
  for (std::uint32_t i = first_[tile]; i < first_[tile + 1];) {
    const std::uint32_t rows = std::min(latticeRows_[i], first_[tile + 1] - i);
    copyLattice(base, groups_.data() + i, rows);
    i += rows;
  }
}

void TileCopyIn::waitUntilMoved(const std::atomic<std::uint32_t> &state) const {
  // A tile's copy-in takes microseconds; should the thread moving it lose its core, the others
  // give theirs up rather than spin through its time slice.
  for (unsigned i = 1; state.load(std::memory_order_acquire) != done_; ++i)
    if (i % 1024 == 0)
      std::this_thread::yield();
    else
      cpuRelax();
}

std::unique_ptr<TileCopyIn> tileCopyIn(const CompiledComputeSet &cs, std::uint32_t numTiles) {
  std::vector<WrittenBytes> written(numTiles);
  std::vector<bool> hasVertices(numTiles);
  for (const VertexInstance &v : cs.vertices) {
    if (v.tile >= numTiles)
      return nullptr;
    hasVertices[v.tile] = true;
    for (std::uint32_t r = v.firstRegion; r < v.firstRegion + v.regions; ++r) {
      const FieldRegion &f = cs.regions[r];
      if (f.kind == RegionKind::Output || f.kind == RegionKind::InOut)
        written[v.tile].add(f.offset, f.offset + f.bytes);
    }
  }
  for (auto &w : written)
    w.finish();
  // A tile's runs move when its vertices run (a buffer always has a vertex on its tile).
  for (const CopyRun &run : cs.copyIn)
    if (run.srcTile >= numTiles || run.dstTile >= numTiles || !hasVertices[run.dstTile] ||
        written[run.srcTile].meets(run.srcOffset, run.srcOffset + run.bytes))
      return nullptr;

  auto copy = std::make_unique<TileCopyIn>();
  // Runs into one tile keep their order (a later run may overwrite an earlier one's bytes).
  std::vector<CopyRun> runs = cs.copyIn;
  std::stable_sort(runs.begin(), runs.end(),
                   [](const CopyRun &a, const CopyRun &b) { return a.dstTile < b.dstTile; });
  copy->groups_ = foldCopyRuns(runs);
  copy->first_.assign(numTiles + 1, 0);
  for (const CopyGroup &g : copy->groups_)
    ++copy->first_[g.dstTile + 1];
  for (std::uint32_t t = 0; t < numTiles; ++t)
    copy->first_[t + 1] += copy->first_[t];
  copy->latticeRows_ = latticeRowsFrom(copy->groups_);
  copy->state_ = std::make_unique<std::atomic<std::uint32_t>[]>(numTiles);
  for (std::uint32_t t = 0; t < numTiles; ++t)
    copy->state_[t].store(0, std::memory_order_relaxed);
  return copy;
}

} // namespace poplar::detail
