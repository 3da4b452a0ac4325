// Tile mapping of variables as sorted, non-overlapping intervals.
#include "graph/Mapping.hpp"

#include <algorithm>

namespace poplar::detail {

void assignTile(VariableDesc &var, std::size_t begin, std::size_t end, unsigned tile) {
  if (begin >= end)
    return;
  auto &m = var.mapping;
  // Fast path: mappings are usually built in element order.
  if (m.empty() || m.back().end <= begin) {
    if (!m.empty() && m.back().end == begin && m.back().tile == tile)
      m.back().end = end;
    else
      m.push_back({begin, end, tile});
    return;
  }
  std::vector<TileInterval> out;
  out.reserve(m.size() + 2);
  bool inserted = false;
  auto push = [&out](TileInterval ti) {
    if (ti.begin >= ti.end)
      return;
    if (!out.empty() && out.back().end == ti.begin && out.back().tile == ti.tile)
      out.back().end = ti.end;
    else
      out.push_back(ti);
  };
  for (const auto &ti : m) {
    if (ti.end <= begin || ti.begin >= end) {
      if (!inserted && ti.begin >= end) {
        push({begin, end, tile});
        inserted = true;
      }
      push(ti);
      continue;
    }
    push({ti.begin, std::max(ti.begin, std::min(ti.end, begin)), ti.tile});
    if (!inserted) {
      push({begin, end, tile});
      inserted = true;
    }
    push({std::max(ti.begin, end), ti.end, ti.tile});
  }
  if (!inserted)
    push({begin, end, tile});
  m = std::move(out);
}

void forEachMappedPiece(const VariableDesc &var, std::size_t begin, std::size_t end,
                        const std::function<void(std::size_t, std::size_t, unsigned)> &f) {
  const auto &m = var.mapping;
  auto it = std::upper_bound(m.begin(), m.end(), begin,
                             [](std::size_t v, const TileInterval &ti) { return v < ti.end; });
  std::size_t pos = begin;
  for (; it != m.end() && pos < end; ++it) {
    if (it->begin > pos) {
      auto stop = std::min(end, it->begin);
      f(pos, stop, kUnmapped);
      pos = stop;
      if (pos >= end)
        break;
    }
    auto stop = std::min(end, it->end);
    f(pos, stop, it->tile);
    pos = stop;
  }
  if (pos < end)
    f(pos, end, kUnmapped);
}

} // namespace poplar::detail
