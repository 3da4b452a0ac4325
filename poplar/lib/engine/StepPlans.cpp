// Step plans: a compute set's tiles and a copy's runs cut into chunks of about equal host time.
#include "engine/StepPlans.hpp"

#include "engine/WorkerPool.hpp"

#include <algorithm>

namespace poplar::detail {

namespace {

/// Cuts items [0, n) of the given costs into chunks of about equal cost (HostCost says how
/// many), a chunk starting only at an item i where canStart(i); parallel when the total pays for
/// a hand-off.
template <class Cost, class CanStart>
Chunks cutByCost(std::size_t n, unsigned threads, Cost cost, CanStart canStart) {
  Chunks c;
  double total = 0;
  for (std::size_t i = 0; i < n; ++i)
    total += cost(i);
  c.parallel = threads > 1 && n > 1 && total >= HostCost::kMinParallelNs;
  std::size_t pieces = 1;
  if (c.parallel)
    pieces = std::min<std::size_t>({n, WorkerPool::kMaxChunks,
                                    std::max(std::size_t(threads) * HostCost::kChunksPerThread,
                                             std::size_t(total / HostCost::kChunkNs))});
  c.begin.push_back(0);
  double sum = 0;
  for (std::size_t i = 0; i < n && c.begin.size() < pieces; ++i) {
    sum += cost(i);
    if (sum >= total * double(c.begin.size()) / double(pieces) && canStart(i + 1))
      c.begin.push_back(i + 1);
  }
  if (c.begin.back() != n)
    c.begin.push_back(n);
  return c;
}

bool anywhere(std::size_t) { return true; }

void cutTiles(ComputePlan &plan, unsigned threads) {
  plan.chunks = cutByCost(
      plan.tiles.size(), threads, [&](std::size_t t) { return plan.tiles[t].costNs; }, anywhere);
}

} // namespace

namespace {
/// Chunks of `items` cut by their host cost, with each chunk's packed byte offset.
template <class Item, class Cost, class Bytes, class CanStart>
CopyPlan planItems(const std::vector<Item> &items, unsigned threads, Cost cost, Bytes bytes,
                   CanStart canStart) {
  CopyPlan plan;
  plan.chunks = cutByCost(
      items.size(), threads, [&](std::size_t i) { return cost(items[i]); }, canStart);
  std::size_t c = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    while (c < plan.chunks.count() && plan.chunks.begin[c] == i) {
      plan.offset.push_back(plan.bytes);
      ++c;
    }
    plan.bytes += bytes(items[i]);
  }
  plan.offset.resize(plan.chunks.count(), plan.bytes);
  return plan;
}
} // namespace

CopyPlan planCopy(const std::vector<MemRun> &runs, unsigned threads) {
  return planItems(
      runs, threads,
      [](const MemRun &r) {
        return HostCost::kCopyRunNs + HostCost::kCopyByteNs * double(r.bytes);
      },
      [](const MemRun &r) { return std::size_t(r.bytes); }, anywhere);
}

CopyPlan planCopy(const std::vector<CopyRun> &runs, unsigned threads) {
  std::vector<CopyGroup> groups = foldCopyRuns(runs);
  // A chunk starts at a lattice's start or at one of its blocks of rows, so that the lattice
  // still moves in whole blocks (copyLattice).
  std::vector<std::uint32_t> rowsFrom = latticeRowsFrom(groups);
  std::vector<bool> canStart(groups.size() + 1, true);
  for (std::size_t i = 0; i < groups.size(); i += rowsFrom[i])
    for (std::size_t r = 0; r < rowsFrom[i]; ++r)
      canStart[i + r] = r % kLatticeBlock == 0;
  CopyPlan plan = planItems(
      groups, threads,
      [](const CopyGroup &g) {
        return HostCost::kCopyRunNs + HostCost::kGroupRunNs * double(g.count - 1) +
               HostCost::kCopyByteNs * double(g.bytes) * double(g.count);
      },
      [](const CopyGroup &g) { return std::size_t(g.bytes) * g.count; },
      [&](std::size_t i) { return bool(canStart[i]); });
  plan.groups = std::move(groups);
  plan.latticeRows = std::move(rowsFrom);
  return plan;
}

ComputePlan planCompute(const CompiledGraph &cg, const CompiledComputeSet &cs, unsigned threads) {
  ComputePlan plan;
  // Vertices are sorted by tile: one item per tile, since tiles never share memory.
  for (std::uint32_t i = 0; i < cs.vertices.size(); ++i) {
    const auto &v = cs.vertices[i];
    if (plan.tiles.empty() || plan.tiles.back().tile != v.tile)
      plan.tiles.push_back({v.tile, i, i});
    auto &tile = plan.tiles.back();
    tile.end = i + 1;
    // Before a first run, all a tile's cost is known from is how many interpreter runs it makes.
    tile.costNs += HostCost::kWorkerRunNs * cg.runsOf(cg.vertexTypes[v.vertexType]);
    if (plan.typeSpans.empty() || plan.typeSpans.back().type != v.vertexType)
      plan.typeSpans.push_back({v.vertexType, i, i});
    plan.typeSpans.back().end = i + 1;
  }
  plan.vertexCycles.assign(cs.vertices.size(), 0);
  cutTiles(plan, threads);
  if (!cs.copyIn.empty())
    plan.tileCopyIn = tileCopyIn(cs, cg.target.numTiles());
  if (!plan.tileCopyIn)
    plan.copyIn = planCopy(cs.copyIn, threads);
  plan.copyOut = planCopy(cs.copyOut, threads);
  return plan;
}

namespace {
/// One worker run of a vertex on a tile being split.
struct Run {
  std::uint32_t vertex = 0, worker = 0;
  double costNs = 0;
};

/// The parts of tile `t` (at least two): its runs cut into `parts` of about equal cost.
void addParts(std::vector<TileWork> &out, const TileWork &t, const std::vector<Run> &runs,
              std::size_t parts, const std::vector<std::uint32_t> &runsOf) {
  double total = 0;
  for (const Run &r : runs)
    total += r.costNs;
  double sum = 0, partCost = 0;
  std::size_t from = 0, made = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    sum += runs[i].costNs;
    partCost += runs[i].costNs;
    // A part ends where the parts so far reach their share; the last takes what is left.
    const bool last = i + 1 == runs.size();
    if (!last && (made + 1 == parts || sum < total * double(made + 1) / double(parts)))
      continue;
    const Run &first = runs[from], &end = runs[i];
    TileWork part;
    part.tile = t.tile;
    part.begin = first.vertex;
    part.end = end.vertex + 1;
    part.part = true;
    part.context = std::uint16_t(made);
    part.beginWorker = first.worker;
    part.endWorker = end.worker + 1 == runsOf[end.vertex] ? 0 : end.worker + 1;
    part.costNs = partCost;
    out.push_back(part);
    ++made;
    from = i + 1;
    partCost = 0;
  }
}

/// Each tile that costs more than kSplitTileNs becomes parts of about equal cost, cut between
/// worker runs (each run's cost its share of its vertex's measured thread cycles), at most one
/// per worker context, so that no two runs of one context share a stack.
void splitTiles(ComputePlan &plan, const CompiledGraph &cg, const CompiledComputeSet &cs) {
  const unsigned contexts = cg.target.numWorkerContexts;
  std::vector<std::uint32_t> runsOf(cs.vertices.size());
  for (std::size_t i = 0; i < cs.vertices.size(); ++i)
    runsOf[i] = cg.runsOf(cg.vertexTypes[cs.vertices[i].vertexType]);
  std::vector<TileWork> tiles;
  std::vector<Run> runs;
  for (const TileWork &t : plan.tiles) {
    runs.clear();
    if (t.costNs >= HostCost::kSplitTileNs)
      for (std::uint32_t v = t.begin; v < t.end; ++v)
        for (std::uint32_t w = 0; w < runsOf[v]; ++w)
          runs.push_back({v, w,
                          HostCost::kWorkerRunNs +
                              HostCost::kThreadCycleNs * double(plan.vertexCycles[v]) / runsOf[v]});
    const std::size_t parts = std::min<std::size_t>(
        {contexts, runs.size(), std::size_t(t.costNs / HostCost::kTilePartNs)});
    if (parts < 2) {
      tiles.push_back(t);
      continue;
    }
    plan.splits.push_back({std::uint32_t(tiles.size()), 0});
    addParts(tiles, t, runs, parts, runsOf);
    plan.splits.back().count = std::uint32_t(tiles.size()) - plan.splits.back().first;
  }
  if (plan.splits.empty())
    return;
  plan.tiles = std::move(tiles);
  plan.runOffset.resize(cs.vertices.size());
  std::uint32_t offset = 0;
  for (std::size_t i = 0; i < cs.vertices.size(); ++i) {
    plan.runOffset[i] = offset;
    offset += runsOf[i];
  }
  plan.runCycles.assign(offset, 0);
}
} // namespace

void replanFromMeasurement(ComputePlan &plan, const CompiledGraph &cg, const CompiledComputeSet &cs,
                           unsigned threads) {
  for (auto &t : plan.tiles)
    t.costNs += HostCost::kThreadCycleNs * double(t.busyCycles);
  plan.measured = true;
  splitTiles(plan, cg, cs);
  cutTiles(plan, threads);
}

} // namespace poplar::detail
