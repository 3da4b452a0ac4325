// Tile memory allocation: a bump allocator per tile for always-live data, and regions in which
// not-always-live blocks share addresses (laid out by SharedLayout).
#include "compiler/TileAllocator.hpp"

#include <algorithm>
#include <cstring>
#include <map>

namespace poplar::detail {

std::uint32_t TileAllocator::allocate(unsigned tile, std::uint64_t bytes, std::uint32_t align,
                                      MemoryCategory category) {
  std::uint64_t start = (used_[tile] + align - 1) / align * align;
  usage_[tile].gaps += start - used_[tile];
  usage_[tile].bytes[unsigned(category)] += bytes;
  used_[tile] = start + bytes;
  return std::uint32_t(std::min<std::uint64_t>(start, UINT32_MAX));
}

unsigned TileAllocator::allocateShared(unsigned tile, std::uint64_t bytes, std::uint32_t align,
                                       MemoryCategory category, std::vector<StepRange> live) {
  // The category still counts every block in full (the "By Data Type" view); the tile's
  // occupancy counts the region the blocks share.
  usage_[tile].bytes[unsigned(category)] += bytes;
  usage_[tile].sharedBytes += bytes;
  shared_.push_back({tile, SharedBlock{bytes, align, std::move(live)}});
  return unsigned(shared_.size() - 1);
}

void TileAllocator::placeShared() {
  std::map<unsigned, std::vector<std::size_t>> byTile; // ordered: deterministic
  for (std::size_t h = firstUnplaced_; h < shared_.size(); ++h)
    byTile[shared_[h].tile].push_back(h);
  firstUnplaced_ = shared_.size();
  for (const auto &[tile, handles] : byTile) {
    std::vector<SharedBlock> blocks;
    for (auto h : handles)
      blocks.push_back(shared_[h].block);
    auto layout = layOutShared(blocks);
    std::uint64_t start = (used_[tile] + layout.align - 1) / layout.align * layout.align;
    usage_[tile].gaps += start - used_[tile];
    usage_[tile].notAlwaysLive += layout.size;
    used_[tile] = start + layout.size;
    for (std::size_t i = 0; i < handles.size(); ++i)
      shared_[handles[i]].offset =
          std::uint32_t(std::min<std::uint64_t>(start + layout.offsets[i], UINT32_MAX));
  }
}

void TileAllocator::writeAddressOf(unsigned tile, std::uint32_t offset, unsigned handle,
                                   std::uint32_t base) {
  addressWrites_.push_back({tile, handle, offset, base});
}

void TileAllocator::write(unsigned tile, std::uint32_t offset, const std::uint8_t *data,
                          std::size_t n) {
  if (n)
    writes_.push_back({tile, offset, std::vector<std::uint8_t>(data, data + n)});
}

std::vector<std::vector<std::uint8_t>> TileAllocator::images(std::uint64_t capacity) const {
  std::vector<std::vector<std::uint8_t>> out(used_.size());
  for (std::size_t t = 0; t < used_.size(); ++t)
    if (used_[t] <= capacity)
      out[t].assign(used_[t], 0);
  for (const auto &w : writes_) {
    auto &image = out[w.tile];
    if (w.offset + w.bytes.size() <= image.size())
      std::copy(w.bytes.begin(), w.bytes.end(), image.begin() + w.offset);
  }
  for (const auto &a : addressWrites_) {
    auto &image = out[a.tile];
    std::uint32_t value = a.base + shared_[a.handle].offset;
    if (a.offset + 4 <= image.size())
      std::memcpy(image.data() + a.offset, &value, 4);
  }
  return out;
}

} // namespace poplar::detail
