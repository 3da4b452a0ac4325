// Step plans: a compute set's tiles and a copy's runs cut into chunks of about equal host time.
#include "engine/StepPlans.hpp"

#include "engine/WorkerPool.hpp"

#include <algorithm>

namespace poplar::detail {

namespace {

/// Cuts items [0, n) of the given costs into chunks of about equal cost (HostCost says how
/// many); parallel when the total pays for a hand-off.
template <class Cost> Chunks cutByCost(std::size_t n, unsigned threads, Cost cost) {
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
    if (sum >= total * double(c.begin.size()) / double(pieces))
      c.begin.push_back(i + 1);
  }
  if (c.begin.back() != n)
    c.begin.push_back(n);
  return c;
}

void cutTiles(ComputePlan &plan, unsigned threads) {
  plan.chunks =
      cutByCost(plan.tiles.size(), threads, [&](std::size_t t) { return plan.tiles[t].costNs; });
}

} // namespace

namespace {
/// Chunks of `items` cut by their host cost, with each chunk's packed byte offset.
template <class Item, class Cost, class Bytes>
CopyPlan planItems(const std::vector<Item> &items, unsigned threads, Cost cost, Bytes bytes) {
  CopyPlan plan;
  plan.chunks = cutByCost(items.size(), threads, [&](std::size_t i) { return cost(items[i]); });
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
      [](const MemRun &r) { return std::size_t(r.bytes); });
}

CopyPlan planCopy(const std::vector<CopyRun> &runs, unsigned threads) {
  std::vector<CopyGroup> groups = foldCopyRuns(runs);
  CopyPlan plan = planItems(
      groups, threads,
      [](const CopyGroup &g) {
        return HostCost::kCopyRunNs + HostCost::kGroupRunNs * double(g.count - 1) +
               HostCost::kCopyByteNs * double(g.bytes) * double(g.count);
      },
      [](const CopyGroup &g) { return std::size_t(g.bytes) * g.count; });
  plan.groups = std::move(groups);
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
    unsigned runs = cg.vertexTypes[v.vertexType].multiVertex ? cg.target.numWorkerContexts : 1;
    tile.costNs += HostCost::kWorkerRunNs * runs;
    if (plan.typeSpans.empty() || plan.typeSpans.back().type != v.vertexType)
      plan.typeSpans.push_back({v.vertexType, i, i});
    plan.typeSpans.back().end = i + 1;
  }
  plan.vertexCycles.assign(cs.vertices.size(), 0);
  cutTiles(plan, threads);
  plan.copyIn = planCopy(cs.copyIn, threads);
  plan.copyOut = planCopy(cs.copyOut, threads);
  return plan;
}

void replanFromMeasurement(ComputePlan &plan, unsigned threads) {
  for (auto &t : plan.tiles)
    t.costNs += HostCost::kThreadCycleNs * double(t.busyCycles);
  plan.measured = true;
  cutTiles(plan, threads);
}

} // namespace poplar::detail
