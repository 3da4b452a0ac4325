// poplin::PlanningCache and the plan lookup.
#include "PlanningCache.hpp"

#include "support/Logging.hpp"

#include <mutex>

namespace poplin {

PlanningCache::PlanningCache() : impl(std::make_unique<PlanningCacheImpl>()) {}
PlanningCache::~PlanningCache() = default;
std::size_t PlanningCache::size() const { return impl->matMulPlans.size(); }

namespace internal {

const MatMulPlan &getMatMulPlan(const poplar::Target &target, const MatMulProblem &problem,
                                const MatMulOptions &options, PlanningCache *cache) {
  // Without a cache, plans still live for the process: a program plans the same layer for
  // its inputs, its product and its output, and each must agree.
  static PlanningCache processCache;
  static std::mutex processCacheMutex;
  std::unique_lock<std::mutex> lock(processCacheMutex, std::defer_lock);
  if (!cache) {
    cache = &processCache;
    lock.lock();
  }
  const PlanningCacheImpl::Key key{
      {target.getNumTiles(), target.getBytesPerTile(), target.getExchangeBytesPerCycle(),
       target.getTilesPerSharedExchangeBus(), target.supportsExchangeBusSharing()},
      problem,
      options};
  auto &plans = cache->impl->matMulPlans;
  auto it = plans.find(key);
  if (it == plans.end()) {
    it = plans.emplace(key, planMatMul(target, problem, options)).first;
    popsdk::support::poplibsLogger("POPLIN").debug(
        "matmul plan for G={} M={} K={} N={}: split g{} m{} n{} k{}, {} cycles, {} bytes/tile",
        problem.groups, problem.m, problem.k, problem.n, it->second.split.groups,
        it->second.split.m, it->second.split.n, it->second.split.k, it->second.cost.cycles(),
        it->second.cost.tempBytes);
  }
  return it->second;
}

} // namespace internal

} // namespace poplin
