// poplin::PlanningCache: plans kept across calls, so equal problems are planned once.
#ifndef poplin_PlanningCache_hpp
#define poplin_PlanningCache_hpp

#include <cstddef>
#include <memory>

namespace poplin {

class PlanningCacheImpl;

/// Pass one to several matMul/convolution calls (or preplan*) to plan each distinct problem
/// once. Not thread-safe.
class PlanningCache {
public:
  PlanningCache();
  ~PlanningCache();
  /// The number of plans held.
  std::size_t size() const;
  std::unique_ptr<PlanningCacheImpl> impl;
};

namespace matmul {
using PlanningCache = poplin::PlanningCache;
} // namespace matmul

} // namespace poplin

#endif
