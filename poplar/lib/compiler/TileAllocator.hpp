// Per-tile memory allocation with categories, gaps and deferred initial contents.
#pragma once

#include "profile/ProfileData.hpp"

#include <cstdint>
#include <vector>

namespace poplar::detail {

class TileAllocator {
public:
  TileAllocator(unsigned numTiles, std::vector<TileMemoryUsage> &usage)
      : used_(numTiles, 0), usage_(usage) {
    usage_.assign(numTiles, TileMemoryUsage());
  }

  /// Places `bytes` on `tile` at the next offset aligned to `align`; returns the offset.
  std::uint32_t allocate(unsigned tile, std::uint64_t bytes, std::uint32_t align,
                         MemoryCategory category);
  /// Counts bytes that occupy the tile but are not addressed by vertex code (vertex code itself,
  /// which the interpreter runs from its decoded form).
  void account(unsigned tile, std::uint64_t bytes, MemoryCategory category) {
    usage_[tile].bytes[unsigned(category)] += bytes;
  }
  /// Initial contents, applied when the images are built.
  void write(unsigned tile, std::uint32_t offset, const std::uint8_t *data, std::size_t n);
  std::uint64_t used(unsigned tile) const { return used_[tile]; }

  /// The initial image of each tile. Tiles over `capacity` get no image: the caller reports
  /// them as out of memory before anything runs.
  std::vector<std::vector<std::uint8_t>> images(std::uint64_t capacity) const;

private:
  struct Write {
    unsigned tile;
    std::uint32_t offset;
    std::vector<std::uint8_t> bytes;
  };
  std::vector<std::uint64_t> used_;
  std::vector<TileMemoryUsage> &usage_;
  std::vector<Write> writes_;
};

} // namespace poplar::detail
