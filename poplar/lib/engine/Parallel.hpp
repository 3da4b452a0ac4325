// Parallel loops over a persistent pool of host threads (POPLAR_NUM_THREADS sets the count).
#pragma once

#include <cstddef>
#include <functional>

namespace poplar::detail {

/// Calls f(i) for i in [0, n), spread over the host threads. Calls must be independent: BSP
/// guarantees tiles do not race within a step. If calls throw, the exception of the lowest
/// index propagates, so errors do not depend on thread timing.
void parallelFor(std::size_t n, const std::function<void(std::size_t)> &f);

/// Calls f(begin, end) over [0, n) in chunks of at least `grain` indices; f must not throw.
/// For many tiny items (byte runs of a copy), where a call per item would dominate.
void parallelChunks(std::size_t n, std::size_t grain,
                    const std::function<void(std::size_t, std::size_t)> &f);

/// Threads the pool uses, including the caller's.
unsigned numHostThreads();

} // namespace poplar::detail
