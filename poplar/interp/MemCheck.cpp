// The memory map of a memory-checked run (debug.checkMemoryAccess): ranges sorted and merged
// once per run, so that each access is one binary search.
#include "interp/MemCheck.hpp"

#include <algorithm>

namespace poplar::interp {

void AccessMap::clear() {
  given_.clear();
  loads_.clear();
  stores_.clear();
}

void AccessMap::allow(std::uint32_t addr, std::uint32_t bytes, bool writable) {
  if (bytes)
    given_.push_back({addr, std::uint64_t(addr) + bytes, writable});
}

// Sorted, overlapping or touching ranges become one: an access may span two adjacent tensors
// (both of them the vertex's) as hardware lets it.
void AccessMap::merge(std::vector<Range> &ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const Range &a, const Range &b) { return a.lo < b.lo; });
  std::size_t n = 0;
  for (const Range &r : ranges) {
    if (n && r.lo <= ranges[n - 1].hi)
      ranges[n - 1].hi = std::max(ranges[n - 1].hi, r.hi);
    else
      ranges[n++] = r;
  }
  ranges.resize(n);
}

void AccessMap::seal() {
  loads_ = given_;
  stores_.clear();
  for (const Range &r : given_)
    if (r.writable)
      stores_.push_back(r);
  merge(loads_);
  merge(stores_);
}

namespace ops {

bool RecentRanges::find(std::uint32_t addr, std::uint32_t n) {
  for (unsigned i = 2; i < kSize; ++i)
    if (holds(hits[i], addr, n)) {
      const AccessMap::Hit h = hits[i];
      std::copy_backward(hits, hits + i, hits + i + 1);
      hits[0] = h;
      return true;
    }
  return false;
}

void RecentRanges::add(const AccessMap::Hit &h) {
  std::copy_backward(hits, hits + kSize - 1, hits + kSize);
  hits[0] = h;
}

bool CheckedWindow::mayMiss(std::uint32_t addr, std::uint32_t n, bool store) const {
  RecentRanges &recent = store ? stores : loads;
  if (recent.find(addr, n))
    return true;
  if (addr >= *sp && std::uint64_t(addr) + n <= stackHi)
    return true;
  AccessMap::Hit h;
  if (!map->find(addr, n, store, h))
    return false;
  recent.add(h);
  return true;
}

} // namespace ops
} // namespace poplar::interp
