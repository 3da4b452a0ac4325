// The plan cache behind poplin::PlanningCache, and the one lookup every matmul entry uses.
#pragma once

#include "MatMulPlan.hpp"

#include <poplin/PlanningCache.hpp>

#include <map>
#include <tuple>

namespace poplin {

class PlanningCacheImpl {
public:
  // Key: the target's figures that a plan reads, the problem and the options.
  using TargetKey = std::tuple<unsigned, unsigned, unsigned, unsigned, bool>;
  using Key = std::tuple<TargetKey, internal::MatMulProblem, internal::MatMulOptions>;
  std::map<Key, internal::MatMulPlan> matMulPlans;
};

namespace internal {

/// The plan for `problem`, from `cache` when it holds one (planned and stored otherwise).
const MatMulPlan &getMatMulPlan(const poplar::Target &target, const MatMulProblem &problem,
                                const MatMulOptions &options, PlanningCache *cache);

} // namespace internal

} // namespace poplin
