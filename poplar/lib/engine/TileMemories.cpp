// Every tile's memory in one block, advised as huge pages (TileMemories.hpp says why).
#include "engine/TileMemories.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace poplar::detail {

namespace {

constexpr std::size_t kLine = 64;
constexpr std::size_t kHugePage = std::size_t(2) << 20;

std::size_t roundUp(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

} // namespace

void TileMemories::Free::operator()(std::uint8_t *p) const { std::free(p); }

void TileMemories::assign(const std::vector<std::vector<std::uint8_t>> &images) {
  std::size_t total = 0;
  for (const auto &image : images)
    total += roundUp(image.size(), kLine);
  // A block smaller than a huge page stays on small pages: a huge one would be mostly unused
  // and still resident (a test or a one-tile program makes many small devices).
  const bool huge = total >= kHugePage;
  const std::size_t align = huge ? kHugePage : kLine;
  const std::size_t bytes = roundUp(total ? total : 1, align);
  void *p = nullptr;
  if (posix_memalign(&p, align, bytes) != 0)
    throw std::bad_alloc();
  block_.reset(static_cast<std::uint8_t *>(p));
  // Before the block is first touched, so the kernel backs it with huge pages as it faults in
  // (when transparent huge pages are enabled "always" or "madvise"; otherwise this is a no-op).
  if (huge)
    madvise(p, bytes, MADV_HUGEPAGE);
  tiles_.clear();
  tiles_.reserve(images.size());
  std::uint8_t *at = block_.get();
  for (const auto &image : images) {
    const std::size_t padded = roundUp(image.size(), kLine);
    if (!image.empty())
      std::memcpy(at, image.data(), image.size());
    std::memset(at + image.size(), 0, padded - image.size());
    tiles_.push_back({at, std::uint32_t(image.size())});
    at += padded;
  }
}

} // namespace poplar::detail
