// A compute set's copy-in moved tile by tile, each tile's just before its vertices run, so the
// data a vertex reads is still in the host's cache (a 1472-tile matmul's blocks are far larger
// than the last-level cache: copied all at once, every tile's were back in memory by the time
// its vertices read them).
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "engine/CopyGroups.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace poplar::detail {

/// The copy-in of one compute set, grouped by destination tile. Results are those of the whole
/// copy-in before any vertex: a tile's vertices read only their own tile, and tileCopyIn() is
/// only made when no vertex of the set writes what the copy-in reads.
class TileCopyIn {
public:
  /// Moves tile `tile`'s copy-in unless this run already has: the first of the tile's parts
  /// (split tiles run as parts on several threads) to get here moves it while the others wait.
  void bringIn(std::uint8_t *const *base, std::uint32_t tile) {
    std::atomic<std::uint32_t> &state = state_[tile];
    std::uint32_t seen = state.load(std::memory_order_acquire);
    if (seen == done_)
      return;
    if (seen != done_ + 1 &&
        state.compare_exchange_strong(seen, done_ + 1, std::memory_order_acq_rel)) {
      move(base, tile);
      state.store(done_, std::memory_order_release);
      return;
    }
    waitUntilMoved(state);
  }

  /// Starts a run: every tile's copy-in is still to be moved.
  void startRun();

  /// Tiles whose copy-in this holds (its destination tiles, ascending).
  std::vector<std::uint32_t> tiles() const {
    std::vector<std::uint32_t> tiles;
    for (std::uint32_t t = 0; t + 1 < first_.size(); ++t)
      if (first_[t + 1] > first_[t])
        tiles.push_back(t);
    return tiles;
  }

private:
  friend std::unique_ptr<TileCopyIn> tileCopyIn(const CompiledComputeSet &cs,
                                                std::uint32_t numTiles);
  void move(std::uint8_t *const *base, std::uint32_t tile) const;
  void waitUntilMoved(const std::atomic<std::uint32_t> &state) const;

  std::vector<CopyGroup> groups_;          // sorted by destination tile
  std::vector<std::uint32_t> latticeRows_; // per group (copyLattice)
  std::vector<std::uint32_t> first_;       // per tile: its groups [first_[t], first_[t+1])
  std::unique_ptr<std::atomic<std::uint32_t>[]> state_; // per tile: done_ once moved this run
  std::uint32_t done_ = 0; // even; done_ + 1 while a thread moves a tile
};

/// `cs`'s copy-in by tile, or null when it must move as one phase: some vertex of the set writes
/// bytes the copy-in reads (the copy of another tile would then see them written), or a tile it
/// writes runs no vertex of the set.
std::unique_ptr<TileCopyIn> tileCopyIn(const CompiledComputeSet &cs, std::uint32_t numTiles);

} // namespace poplar::detail
