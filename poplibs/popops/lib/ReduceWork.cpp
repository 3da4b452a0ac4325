// One tile's share of a reduction stage: its pieces gathered into output regions (groups), then
// split between the tile's workers, balanced by the vertex cycle estimators.
#include "ReduceCycles.hpp"
#include "ReducePlan.hpp"

#include <algorithm>
#include <deque>
#include <map>

namespace popops::internal {

namespace {

/// `p` cut at every position of `cuts` strictly inside its output region. A multi-row piece is
/// cut into single rows first, as a column of it is not contiguous.
void cutPiece(const Piece &p, const std::vector<std::size_t> &cuts, std::vector<Piece> &out) {
  const std::size_t end = p.outBegin + p.width;
  auto first = std::upper_bound(cuts.begin(), cuts.end(), p.outBegin);
  if (first == cuts.end() || *first >= end) {
    out.push_back(p);
    return;
  }
  std::vector<std::size_t> bounds{p.outBegin};
  for (auto it = first; it != cuts.end() && *it < end; ++it)
    bounds.push_back(*it);
  bounds.push_back(end);
  if (p.continuous) {
    const std::size_t perOutput = p.len / p.width;
    for (std::size_t i = 0; i + 1 < bounds.size(); ++i) {
      std::size_t w = bounds[i + 1] - bounds[i];
      out.push_back({bounds[i], w, p.source, p.begin + (bounds[i] - p.outBegin) * perOutput,
                     w * perOutput, w >= 2});
    }
    return;
  }
  for (std::size_t row = 0; row < p.rows(); ++row)
    for (std::size_t i = 0; i + 1 < bounds.size(); ++i) {
      std::size_t w = bounds[i + 1] - bounds[i];
      out.push_back(
          {bounds[i], w, p.source, p.begin + row * p.width + (bounds[i] - p.outBegin), w, false});
    }
}

/// Pieces cut at every region boundary of any of them, so that two regions either coincide or
/// do not overlap; then gathered by region.
std::map<std::size_t, Group> cutAndGather(const std::vector<Piece> &pieces,
                                          std::vector<std::size_t> cuts) {
  for (const auto &p : pieces) {
    cuts.push_back(p.outBegin);
    cuts.push_back(p.outBegin + p.width);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<Piece> cut;
  for (const auto &p : pieces)
    cutPiece(p, cuts, cut);
  std::map<std::size_t, Group> groups;
  for (auto &p : cut) {
    Group &g = groups[p.outBegin];
    g.outBegin = p.outBegin;
    g.width = p.width;
    g.pieces.push_back(p);
  }
  return groups;
}

std::uint64_t groupCost(const Group &g, const StageTypes &t) {
  ReduceVertexCost v{t.target, t.op, t.partialsType, t.outType, false, false};
  if (g.continuous)
    return continuousReduceCycles(v, g.width, g.pieces.front().len / g.width);
  ReduceRegionCost r{g.width, {}};
  for (const auto &p : g.pieces)
    r.partialSizes.push_back(p.len);
  return regionCycles(v, r);
}

Group makeGroup(std::size_t outBegin, std::size_t width, std::vector<Piece> pieces,
                const StageTypes &t) {
  Group g;
  g.outBegin = outBegin;
  g.width = width;
  g.continuous = pieces.size() == 1 && pieces.front().continuous;
  g.pieces = std::move(pieces);
  g.cost = groupCost(g, t);
  return g;
}

// Below this many worker cycles a worker's share is not split further: the vertices it would add
// cost more than the balance gains.
constexpr std::uint64_t kMinShareCycles = 64;
// A split by rows makes partial results that another stage must combine: only worth it for
// groups this large.
constexpr std::uint64_t kMinRowSplitCycles = 256;
// The fewest outputs a split by outputs of multi-row pieces leaves in each part: each row then
// is a piece of its own, whose overhead needs a few elements to pay for.
constexpr std::size_t kMinColumnsPerPart = 8;
// The Reduce vertex folds this many outputs of a region at once.
constexpr std::size_t kColumnBlock = 8;
// numPartials is an unsigned short per output region.
constexpr std::size_t kMaxPiecesPerGroup = 65535;

std::size_t totalRows(const Group &g) {
  std::size_t rows = 0;
  for (const auto &p : g.pieces)
    rows += p.rows();
  return rows;
}

bool allSingleRows(const Group &g) {
  return std::all_of(g.pieces.begin(), g.pieces.end(),
                     [](const Piece &p) { return !p.continuous && p.len == p.width; });
}

/// Outputs [b, e) of `g` (no new partial results). Each row of a multi-row piece becomes a piece
/// of its own.
Group outputRange(const Group &g, std::size_t b, std::size_t e, const StageTypes &t) {
  std::vector<Piece> pieces;
  for (const auto &p : g.pieces) {
    Piece s = p;
    s.outBegin = p.outBegin + b;
    s.width = e - b;
    if (p.continuous) {
      std::size_t perOutput = p.len / p.width;
      s.begin = p.begin + b * perOutput;
      s.len = (e - b) * perOutput;
      s.continuous = e - b >= 2;
      pieces.push_back(s);
      continue;
    }
    for (std::size_t row = 0; row < p.rows(); ++row) {
      s.begin = p.begin + row * p.width + b;
      s.len = e - b;
      pieces.push_back(s);
    }
  }
  return makeGroup(g.outBegin + b, e - b, std::move(pieces), t);
}

/// Rows [b, e) of the rows group `g`, counted over its pieces in order, for all its outputs: a
/// partial result that the next stage folds with the other rows'.
Group rowRange(const Group &g, std::size_t b, std::size_t e, const StageTypes &t) {
  std::vector<Piece> pieces;
  std::size_t row = 0;
  for (const auto &p : g.pieces) {
    std::size_t pb = std::max(b, row), pe = std::min(e, row + p.rows());
    if (pb < pe) {
      Piece s = p;
      s.begin = p.begin + (pb - row) * p.width;
      s.len = (pe - pb) * p.width;
      pieces.push_back(s);
    }
    row += p.rows();
  }
  return makeGroup(g.outBegin, g.width, std::move(pieces), t);
}

/// Cuts from `g` a first part costing about `budget`, where that can be done: by outputs when
/// the pieces allow it cheaply, else by rows when there are many (a new partial result), else by
/// outputs of each row. Returns false, leaving `g`, when it cannot.
bool cutHead(Group &g, std::uint64_t budget, const StageTypes &t, Group &head) {
  if (g.cost == 0 || budget == 0)
    return false;
  const double fraction = double(budget) / double(g.cost);
  // Where to cut n rows or columns: about `fraction` of them, leaving minPart on each side, at a
  // k with origin + k a multiple of `grain` (anywhere for a grain of 1); 0 for nowhere.
  auto at = [&](std::size_t n, std::size_t minPart, std::size_t grain,
                std::size_t origin = 0) -> std::size_t {
    if (n < 2 * minPart)
      return 0;
    auto k = std::clamp(std::size_t(double(n) * fraction + 0.5), minPart, n - minPart);
    std::size_t aligned = (origin + k + grain / 2) / grain * grain;
    aligned = aligned > origin ? aligned - origin : 0;
    if (aligned >= minPart && aligned + minPart <= n && aligned > 0)
      return aligned;
    return grain == 1 ? k : 0;
  };
  const std::size_t rows = totalRows(g);
  // Two workers never write one word (atomicStoreGranularity): continuous groups are cut at
  // whole words of outputs. Rows groups are cut into whole blocks only: a narrower block costs
  // the vertex as much per partial region for less work.
  const unsigned outBytes =
      std::min(t.target.getTypeSize(t.outType), t.target.getTypeSize(t.finalType));
  const std::size_t word = std::max(1u, t.target.getAtomicStoreGranularity() / outBytes);
  const std::size_t columnGrain = g.continuous ? word : kColumnBlock;
  const std::size_t minColumns = g.continuous ? word : std::size_t(kColumnBlock);
  std::size_t k;
  const std::size_t origin = g.continuous ? g.outBegin % word : 0;
  if ((g.continuous || allSingleRows(g)) &&
      (k = at(g.width, minColumns, columnGrain, origin)) != 0) {
    head = outputRange(g, 0, k, t);
    g = outputRange(g, k, g.width, t);
  } else if (g.continuous) {
    // Its outputs cannot be cut on a word boundary: it stays whole.
    return false;
  } else if (g.cost >= kMinRowSplitCycles && (k = at(rows, kMinRowsPerPart, 1)) != 0) {
    head = rowRange(g, 0, k, t);
    g = rowRange(g, k, rows, t);
  } else if ((k = at(g.width, kMinColumnsPerPart, kColumnBlock)) != 0) {
    head = outputRange(g, 0, k, t);
    g = outputRange(g, k, g.width, t);
  } else {
    return false;
  }
  return true;
}

} // namespace

std::vector<Group> groupPieces(std::vector<Piece> pieces) {
  auto groups = cutAndGather(pieces, {});
  // A continuous piece sharing its region with others: cut that region at every output, so that
  // every piece of it is rows of width 1.
  std::vector<std::size_t> extraCuts;
  for (const auto &[begin, g] : groups)
    if (g.pieces.size() > 1 &&
        std::any_of(g.pieces.begin(), g.pieces.end(), [](const Piece &p) { return p.continuous; }))
      for (std::size_t o = g.outBegin; o <= g.outBegin + g.width; ++o)
        extraCuts.push_back(o);
  if (!extraCuts.empty())
    groups = cutAndGather(pieces, extraCuts);
  std::vector<Group> out;
  for (auto &[begin, g] : groups) {
    g.continuous = g.pieces.size() == 1 && g.pieces.front().continuous;
    out.push_back(std::move(g));
  }
  return out;
}

std::vector<std::vector<Group>> splitForWorkers(std::vector<Group> groups, const StageTypes &t) {
  const unsigned workers = t.target.getNumWorkerContexts();
  std::uint64_t total = 0;
  std::deque<Group> todo;
  for (auto &g : groups) {
    g.cost = groupCost(g, t);
    // A region's partial count is an unsigned short: more pieces are cut into several groups.
    while (g.pieces.size() > kMaxPiecesPerGroup) {
      std::size_t rows = 0;
      for (std::size_t i = 0; i < kMaxPiecesPerGroup; ++i)
        rows += g.pieces[i].rows();
      Group head = rowRange(g, 0, rows, t);
      g = rowRange(g, rows, totalRows(g), t);
      total += head.cost;
      todo.push_back(std::move(head));
    }
    total += g.cost;
    todo.push_back(std::move(g));
  }
  // The groups in order as one line of work, cut into equal shares, one per worker; a group
  // across a cut is split there if it can be. Cutting can change the costs (rows of multi-row
  // pieces become pieces), so each worker's share is what is left over the workers left.
  std::vector<std::vector<Group>> perWorker(workers);
  unsigned w = 0;
  std::uint64_t used = 0, remaining = total;
  auto shareOf = [&] {
    return std::max<std::uint64_t>((remaining + used + (workers - w) - 1) / (workers - w),
                                   kMinShareCycles);
  };
  std::uint64_t share = shareOf();
  auto nextWorker = [&] {
    if (w + 1 < workers) {
      ++w;
      used = 0;
      share = shareOf();
    }
  };
  auto assign = [&](Group g) {
    used += g.cost;
    remaining -= g.cost;
    perWorker[w].push_back(std::move(g));
  };
  while (!todo.empty()) {
    Group g = std::move(todo.front());
    todo.pop_front();
    const std::uint64_t room = share > used ? share - used : 0;
    // The last worker takes what is left; a group that (nearly) fits goes whole.
    if (w + 1 == workers || g.cost <= room + room / 8) {
      assign(std::move(g));
      if (used >= share)
        nextWorker();
      continue;
    }
    const std::uint64_t before = g.cost;
    Group head;
    if (cutHead(g, room, t, head)) {
      remaining = remaining - before + head.cost + g.cost;
      assign(std::move(head));
      todo.push_front(std::move(g));
      nextWorker();
    } else if (used == 0) {
      // Too big and indivisible: a worker of its own.
      assign(std::move(g));
      nextWorker();
    } else {
      todo.push_front(std::move(g));
      nextWorker();
    }
  }
  perWorker.erase(std::remove_if(perWorker.begin(), perWorker.end(),
                                 [](const std::vector<Group> &g) { return g.empty(); }),
                  perWorker.end());
  return perWorker;
}

} // namespace popops::internal
