// Tile memory allocation: a bump allocator per tile, which is what Poplar's always-live layout
// amounts to before liveness-based sharing.
#include "compiler/TileAllocator.hpp"

#include <algorithm>

namespace poplar::detail {

std::uint32_t TileAllocator::allocate(unsigned tile, std::uint64_t bytes, std::uint32_t align,
                                      MemoryCategory category) {
  std::uint64_t start = (used_[tile] + align - 1) / align * align;
  usage_[tile].gaps += start - used_[tile];
  usage_[tile].bytes[unsigned(category)] += bytes;
  used_[tile] = start + bytes;
  return std::uint32_t(std::min<std::uint64_t>(start, UINT32_MAX));
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
  return out;
}

} // namespace poplar::detail
