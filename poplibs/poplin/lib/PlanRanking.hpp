// What poplin's planners share: the sync charged per phase, the exchange rate, and which of two
// plans is preferred.
#pragma once

#include "MatMulPlan.hpp"

#include <poplar/Target.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>

namespace poplin::internal {

// Each compute set and each exchange ends in a sync; the planners charge this per phase so that
// needless phases (a reduction of one part) cost something.
constexpr std::uint64_t kPhaseCycles = 100;

/// Cycles to move `bytes` through one tile's exchange.
inline std::uint64_t exchangeCycles(const poplar::Target &target, std::uint64_t bytes) {
  const std::uint64_t rate = std::max(1u, target.getExchangeBytesPerCycle());
  return (bytes + rate - 1) / rate;
}

/// The best of the plans offered so far: the fewest cycles among those that fit in memory;
/// until one fits, the least memory.
class PlanRanking {
public:
  /// Whether a plan of `cost` is now the best (then it is remembered).
  bool offer(const MatMulCost &cost, bool fits) {
    using Rank = std::pair<std::uint64_t, std::uint64_t>;
    auto rank = [fits](const MatMulCost &c) {
      return fits ? Rank{c.cycles(), c.tempBytes} : Rank{c.tempBytes, c.cycles()};
    };
    const bool better =
        !haveAny_ || (fits && !haveFit_) || (fits == haveFit_ && rank(cost) < rank(best_));
    if (better) {
      best_ = cost;
      haveAny_ = true;
      haveFit_ = haveFit_ || fits;
    }
    return better;
  }

private:
  MatMulCost best_;
  bool haveAny_ = false, haveFit_ = false;
};

} // namespace poplin::internal
