// The reduction input as pieces: its dimensions in memory order, merged into groups, and each
// tile's contiguous runs cut into output regions' worth of partials.
#include "ReducePlan.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace popops::internal {

using namespace poplar;

MemoryOrder memoryOrder(const Tensor &in) {
  MemoryOrder m;
  m.order.resize(in.rank());
  std::iota(m.order.begin(), m.order.end(), 0u);
  m.backwards.assign(in.rank(), false);
  if (in.numElements() < 2)
    return m;
  auto shape = in.shape();
  Tensor flat = in.flatten();
  // Where the element at flat index f lives: its variable and offset there.
  auto locate = [&](std::size_t f) { return flat.slice(f, f + 1).getVarRegions().front(); };
  const VariableInterval origin = locate(0);
  std::vector<long long> stride(in.rank(), 0);
  std::size_t flatStride = 1;
  for (unsigned d = in.rank(); d-- > 0;) {
    if (shape[d] >= 2) {
      VariableInterval next = locate(flatStride);
      if (next.var != origin.var)
        return m;
      stride[d] = static_cast<long long>(next.interval.begin()) -
                  static_cast<long long>(origin.interval.begin());
    }
    flatStride *= shape[d];
  }
  // The probes only see one step per dimension: check the far corner is where constant strides
  // put it, else the view is not affine (a concatenation, a reversal of part, ...).
  long long corner = 0;
  for (unsigned d = 0; d < in.rank(); ++d)
    corner += stride[d] * static_cast<long long>(shape[d] - 1);
  VariableInterval last = locate(in.numElements() - 1);
  if (last.var != origin.var || static_cast<long long>(last.interval.begin()) -
                                        static_cast<long long>(origin.interval.begin()) !=
                                    corner)
    return m;
  std::stable_sort(m.order.begin(), m.order.end(), [&](unsigned a, unsigned b) {
    return std::llabs(stride[a]) > std::llabs(stride[b]);
  });
  for (unsigned d = 0; d < in.rank(); ++d)
    m.backwards[d] = stride[d] < 0;
  return m;
}

std::vector<DimGroup> dimGroups(const std::vector<std::size_t> &shape,
                                const std::vector<bool> &reduced) {
  std::vector<DimGroup> groups;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1)
      continue;
    if (!groups.empty() && groups.back().reduced == reduced[d])
      groups.back().size *= shape[d];
    else
      groups.push_back({shape[d], reduced[d]});
  }
  if (groups.empty())
    groups.push_back({1, false});
  return groups;
}

namespace {

/// The shortest average contiguous run of a tile's interval that is worth pieces of its own.
constexpr std::size_t kMinAverageRun = 4;

/// The flat output index of the input element at flat index f.
std::size_t outIndex(const std::vector<DimGroup> &groups, std::size_t f) {
  std::size_t out = 0, scale = 1;
  for (std::size_t g = groups.size(); g-- > 0;) {
    std::size_t digit = f % groups[g].size;
    f /= groups[g].size;
    if (!groups[g].reduced) {
      out += digit * scale;
      scale *= groups[g].size;
    }
  }
  return out;
}

/// Appends the pieces of input interval [a, b) (contiguous, on one tile) to `pieces`. The input
/// is rows of the innermost group: a kept innermost group of W makes each row (or part of one)
/// a run for W consecutive outputs, and consecutive rows for the same outputs one multi-row
/// piece; a reduced innermost group of N makes each row one output's partials, and consecutive
/// whole rows for consecutive outputs one continuous piece.
void appendPieces(const std::vector<DimGroup> &groups, std::size_t a, std::size_t b,
                  std::vector<Piece> &pieces) {
  const std::size_t rowLen = groups.back().size;
  const bool rowIsOneOutput = groups.back().reduced;
  std::size_t pos = a;
  while (pos < b) {
    std::size_t rowStart = pos - pos % rowLen;
    std::size_t c0 = pos - rowStart, c1 = std::min(b - rowStart, rowLen);
    bool wholeRow = c0 == 0 && c1 == rowLen;
    std::size_t rowOut = outIndex(groups, rowStart);
    Piece *last = pieces.empty() ? nullptr : &pieces.back();
    bool follows = last && last->source == 0 && last->begin + last->len == pos;
    if (!rowIsOneOutput) {
      if (wholeRow && follows && !last->continuous && last->width == rowLen &&
          last->outBegin == rowOut) {
        last->len += rowLen;
      } else {
        pieces.push_back({rowOut + c0, c1 - c0, 0, pos, c1 - c0, false});
      }
    } else {
      // Whole rows only: a piece made of whole rows has len == width * rowLen.
      if (wholeRow && follows && last->len == last->width * rowLen &&
          last->outBegin + last->width == rowOut) {
        last->width += 1;
        last->len += rowLen;
        last->continuous = true;
      } else {
        pieces.push_back({rowOut, 1, 0, pos, c1 - c0, false});
      }
    }
    pos = rowStart + c1;
  }
}

} // namespace

std::vector<std::vector<Piece>> inputPieces(const Graph &graph, const Tensor &flatIn,
                                            const std::vector<DimGroup> &groups) {
  auto mapping = graph.getTileMapping(flatIn);
  // Where runs contiguous in memory start: a piece never straddles one of these.
  std::vector<std::size_t> cuts;
  for (const auto &r : flatIn.getContiguousRegions())
    cuts.push_back(r.begin());
  std::sort(cuts.begin(), cuts.end());

  std::vector<std::vector<Piece>> pieces(mapping.size());
  for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
    auto intervals = mapping[tile];
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval &x, const Interval &y) { return x.begin() < y.begin(); });
    for (const auto &iv : intervals) {
      std::size_t pos = iv.begin();
      auto cut = std::upper_bound(cuts.begin(), cuts.end(), pos);
      // Runs of a few elements (a subsampled view, ...) would cost more as pieces of their own
      // than as one piece that the engine gathers before the compute set.
      const auto runs = std::size_t(std::lower_bound(cut, cuts.end(), iv.end()) - cut) + 1;
      if (iv.size() < kMinAverageRun * runs) {
        appendPieces(groups, pos, iv.end(), pieces[tile]);
        continue;
      }
      while (pos < iv.end()) {
        std::size_t end = iv.end();
        if (cut != cuts.end() && *cut < end)
          end = *cut++;
        appendPieces(groups, pos, end, pieces[tile]);
        pos = end;
      }
    }
  }
  return pieces;
}

} // namespace popops::internal
