// The executor's worker pool: every chunk of every step runs exactly once, and the caller's share
// is claimed from the front.
#include "engine/WorkerPool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <vector>

namespace {

using poplar::detail::WorkerPool;

// Steps of every size from 0 to 300 chunks, back to back, on 1 to 4 threads: each chunk runs
// once (the two-ended ticket neither skips nor repeats one where the ends meet).
TEST(WorkerPool, EveryChunkOfEveryStepRunsExactlyOnce) {
  for (unsigned threads = 1; threads <= 4; ++threads) {
    WorkerPool pool(threads);
    for (std::uint32_t chunks = 0; chunks <= 300; ++chunks) {
      std::vector<std::atomic<unsigned>> runs(chunks);
      auto task = [&](std::uint32_t c, unsigned thread) {
        ASSERT_LT(thread, threads);
        runs[c].fetch_add(1);
      };
      pool.run(chunks, task);
      for (std::uint32_t c = 0; c < chunks; ++c)
        ASSERT_EQ(1u, runs[c].load())
            << "chunk " << c << " of " << chunks << ", " << threads << " threads";
    }
  }
}

// The caller takes chunks in order from the first: whatever the workers took, the chunks the
// caller ran form a prefix of the step (so a chunk tends to stay on one thread from step to
// step: the caller's from the front, the workers' from the back).
TEST(WorkerPool, TheCallerClaimsFromTheFront) {
  WorkerPool pool(2);
  for (int step = 0; step < 200; ++step) {
    constexpr std::uint32_t kChunks = 64;
    std::vector<std::atomic<int>> by(kChunks);
    // Each chunk takes a few microseconds, so that the worker claims some.
    auto task = [&](std::uint32_t c, unsigned thread) {
      const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(5);
      while (std::chrono::steady_clock::now() < until) {
      }
      by[c].store(int(thread));
    };
    pool.run(kChunks, task);
    std::uint32_t prefix = 0;
    while (prefix < kChunks && by[prefix].load() == 0)
      ++prefix;
    for (std::uint32_t c = prefix; c < kChunks; ++c)
      ASSERT_NE(0, by[c].load()) << "chunk " << c << " ran on the caller after a worker's "
                                 << prefix;
  }
}

} // namespace
