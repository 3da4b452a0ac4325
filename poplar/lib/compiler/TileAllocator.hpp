// Per-tile memory allocation with categories, gaps and deferred initial contents.
#pragma once

#include "compiler/SharedLayout.hpp"
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

  /// Places `bytes` on `tile` at the next offset aligned to `align`, for the whole run
  /// (always-live); returns the offset.
  std::uint32_t allocate(unsigned tile, std::uint64_t bytes, std::uint32_t align,
                         MemoryCategory category);
  /// Counts bytes that occupy the tile but are not addressed by vertex code (vertex code itself,
  /// which the interpreter runs from its decoded form).
  void account(unsigned tile, std::uint64_t bytes, MemoryCategory category) {
    usage_[tile].bytes[unsigned(category)] += bytes;
  }
  /// Asks for `bytes` on `tile` needed only at the steps `live` (not-always-live); returns a
  /// handle whose offset is known after the next placeShared(). Such memory has no initial
  /// contents: it may hold another block's data before its first write.
  unsigned allocateShared(unsigned tile, std::uint64_t bytes, std::uint32_t align,
                          MemoryCategory category, std::vector<StepRange> live);
  /// Lays out, on each tile, the blocks asked for since the last call in one region after what
  /// is allocated so far, blocks that are never live together sharing addresses.
  void placeShared();
  std::uint32_t sharedOffset(unsigned handle) const { return shared_[handle].offset; }
  /// At `offset` on `tile`, the 32-bit tile address (`base` + offset) of shared block `handle`,
  /// written when the images are built (after the block is placed).
  void writeAddressOf(unsigned tile, std::uint32_t offset, unsigned handle, std::uint32_t base);
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
  struct Shared {
    unsigned tile;
    SharedBlock block;
    std::uint32_t offset = 0;
  };
  struct AddressWrite {
    unsigned tile, handle;
    std::uint32_t offset, base;
  };
  std::vector<std::uint64_t> used_;
  std::vector<Shared> shared_;
  std::size_t firstUnplaced_ = 0;
  std::vector<AddressWrite> addressWrites_;
  std::vector<TileMemoryUsage> &usage_;
  std::vector<Write> writes_;
};

} // namespace poplar::detail
