// One tile's share of a reduction stage: its pieces gathered into output regions (groups), then
// split between the tile's workers, balanced by the vertex cycle estimators.
#include "ReduceCycles.hpp"
#include "ReducePlan.hpp"

#include <algorithm>
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

/// The first `rows` rows of the rows-piece `p` (single rows are pieces too).
Piece takeRows(Piece &p, std::size_t rows) {
  Piece head = p;
  head.len = rows * p.width;
  p.begin += head.len;
  p.len -= head.len;
  return head;
}

std::uint64_t groupCost(const Group &g, const StageTypes &t) {
  ReduceVertexCost v{t.target, t.op, t.partialsType, t.outType, false, false};
  if (g.continuous)
    return continuousReduceCycles(v, g.width, g.pieces.front().len / g.width);
  ReduceRegionCost r{g.width, {}};
  for (const auto &p : g.pieces)
    r.partialSizes.push_back(p.len);
  return reduceRegionCycles(v, r);
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

// Below this many worker cycles a group is not split: the vertices it would add cost more than
// the balance gains.
constexpr std::uint64_t kMinSplitCycles = 64;
// A split by rows makes partial results that another stage must combine: only worth it for
// groups this large.
constexpr std::uint64_t kMinRowSplitCycles = 256;
// The fewest rows a split by rows leaves in each part.
constexpr std::size_t kMinRowsPerPart = 16;
// numPartials is an unsigned short per output region.
constexpr std::size_t kMaxPiecesPerGroup = 65535;

/// `g` cut into about `parts` groups of consecutive outputs (no new partial results).
void splitByOutputs(const Group &g, std::size_t parts, const StageTypes &t,
                    std::vector<Group> &out) {
  parts = std::min(parts, g.width);
  for (std::size_t i = 0; i < parts; ++i) {
    std::size_t b = g.width * i / parts, e = g.width * (i + 1) / parts;
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
      } else {
        s.begin = p.begin + b;
        s.len = e - b;
      }
      pieces.push_back(s);
    }
    out.push_back(makeGroup(g.outBegin + b, e - b, std::move(pieces), t));
  }
}

/// The rows group `g` cut into `parts` groups of about equal rows for the same outputs: each is a
/// partial result the next stage folds.
void splitByRows(const Group &g, std::size_t parts, const StageTypes &t, std::vector<Group> &out) {
  std::vector<Piece> rest;
  std::size_t totalRows = 0;
  for (const auto &p : g.pieces) {
    rest.push_back(p);
    totalRows += p.rows();
  }
  // Enough rows a part that the next stage folds many times fewer partial results than this
  // one: the stages stay few.
  parts = std::min(parts, totalRows / kMinRowsPerPart);
  std::size_t next = 0;
  for (std::size_t i = 0; i < parts; ++i) {
    std::size_t want = totalRows * (i + 1) / parts - totalRows * i / parts;
    std::vector<Piece> pieces;
    while (want > 0) {
      Piece &p = rest[next];
      std::size_t take = std::min(want, p.rows());
      pieces.push_back(takeRows(p, take));
      want -= take;
      if (p.len == 0)
        ++next;
    }
    out.push_back(makeGroup(g.outBegin, g.width, std::move(pieces), t));
  }
}

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
  for (auto &g : groups) {
    g.cost = groupCost(g, t);
    total += g.cost;
  }
  const std::uint64_t share =
      std::max<std::uint64_t>((total + workers - 1) / workers, kMinSplitCycles);
  std::vector<Group> split;
  for (auto &g : groups) {
    std::size_t parts = (g.cost + share - 1) / share;
    bool byOutputs = g.continuous || allSingleRows(g);
    if (g.pieces.size() > kMaxPiecesPerGroup) {
      splitByRows(g, (g.pieces.size() + kMaxPiecesPerGroup - 1) / kMaxPiecesPerGroup + parts, t,
                  split);
    } else if (parts < 2) {
      split.push_back(std::move(g));
    } else if (byOutputs && g.width >= 2) {
      splitByOutputs(g, parts, t, split);
    } else if (g.cost >= kMinRowSplitCycles && totalRows(g) >= 2 * kMinRowsPerPart) {
      splitByRows(g, parts, t, split);
    } else {
      split.push_back(std::move(g));
    }
  }
  // Consecutive groups to each worker, by where the middle of each falls in the total cost.
  std::uint64_t splitTotal = 0;
  for (const auto &g : split)
    splitTotal += g.cost;
  std::vector<std::vector<Group>> perWorker(workers);
  std::uint64_t before = 0;
  for (auto &g : split) {
    std::uint64_t middle = before + g.cost / 2;
    unsigned w = splitTotal
                     ? unsigned(std::min<std::uint64_t>(workers - 1, middle * workers / splitTotal))
                     : 0;
    before += g.cost;
    perWorker[w].push_back(std::move(g));
  }
  perWorker.erase(std::remove_if(perWorker.begin(), perWorker.end(),
                                 [](const std::vector<Group> &w) { return w.empty(); }),
                  perWorker.end());
  return perWorker;
}

} // namespace popops::internal
