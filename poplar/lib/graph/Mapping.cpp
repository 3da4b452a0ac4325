// Tile mapping of variables as sorted, non-overlapping intervals.
#include "graph/Mapping.hpp"

#include <algorithm>

namespace poplar::detail {

namespace {

/// Splits the interval that strictly contains `pos`, so that one starts at `pos`.
void splitAt(std::map<std::size_t, TileInterval> &m, std::size_t pos) {
  auto it = m.upper_bound(pos);
  if (it == m.begin())
    return;
  auto &prev = std::prev(it)->second;
  if (prev.begin < pos && pos < prev.end) {
    TileInterval high = prev;
    high.begin = pos;
    prev.end = pos;
    m.emplace_hint(it, pos, high);
  }
}

} // namespace

void assignTile(VariableDesc &var, std::size_t begin, std::size_t end, unsigned tile) {
  if (begin >= end)
    return;
  auto &m = var.mapping;
  splitAt(m, begin);
  splitAt(m, end);
  m.erase(m.lower_bound(begin), m.lower_bound(end));
  auto it = m.emplace(begin, TileInterval{begin, end, tile}).first;
  // Merge with neighbours on the same tile, so mapping in order stays one interval per run.
  if (auto next = std::next(it);
      next != m.end() && next->first == end && next->second.tile == tile) {
    it->second.end = next->second.end;
    m.erase(next);
  }
  if (it != m.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end == begin && prev->second.tile == tile) {
      prev->second.end = it->second.end;
      m.erase(it);
    }
  }
}

void forEachMappedPiece(const VariableDesc &var, std::size_t begin, std::size_t end,
                        const std::function<void(std::size_t, std::size_t, unsigned)> &f) {
  const auto &m = var.mapping;
  auto it = m.upper_bound(begin);
  if (it != m.begin() && std::prev(it)->second.end > begin)
    --it;
  std::size_t pos = begin;
  for (; it != m.end() && pos < end; ++it) {
    const TileInterval &ti = it->second;
    if (ti.begin > pos) {
      auto stop = std::min(end, ti.begin);
      f(pos, stop, kUnmapped);
      pos = stop;
      if (pos >= end)
        break;
    }
    auto stop = std::min(end, ti.end);
    f(pos, stop, ti.tile);
    pos = stop;
  }
  if (pos < end)
    f(pos, end, kUnmapped);
}

} // namespace poplar::detail
