// The memory of every tile of a loaded device, in one block of host memory that the kernel is
// asked to back with huge pages when it is large enough.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace poplar::detail {

/// Why one block: a compute step touches a few kilobytes of each tile, a few pages a tile, so
/// thousands of 4 KiB pages a step on a full IPU, more than the host's TLB maps; on 2 MiB pages
/// a 1472-tile popops add took about 7% less host time. Each tile starts on a cache line.
class TileMemories {
public:
  /// One tile's memory.
  struct Tile {
    std::uint8_t *bytes;
    std::uint32_t count;
    std::uint8_t *data() const { return bytes; }
    std::uint32_t size() const { return count; }
  };

  /// Replaces every tile's memory by a copy of `images` (tile t's is images[t]).
  void assign(const std::vector<std::vector<std::uint8_t>> &images);

  std::size_t size() const { return tiles_.size(); }
  Tile operator[](std::size_t tile) const { return tiles_[tile]; }

private:
  struct Free {
    void operator()(std::uint8_t *p) const;
  };
  std::unique_ptr<std::uint8_t, Free> block_;
  std::vector<Tile> tiles_;
};

} // namespace poplar::detail
