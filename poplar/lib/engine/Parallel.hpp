// parallelFor over host threads (POPLAR_NUM_THREADS to override the count).
#pragma once

#include <cstddef>
#include <functional>

namespace poplar::detail {

/// Calls f(i) for i in [0, n), spread over the host threads. Calls must be independent: BSP
/// guarantees tiles do not race within a step. If calls throw, the exception of the lowest index propagates.
void parallelFor(std::size_t n, const std::function<void(std::size_t)> &f);

/// Threads parallelFor uses.
unsigned numHostThreads();

} // namespace poplar::detail
