// A persistent pool of host threads that runs the chunks of one BSP step at a time.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace poplar::detail {

/// A borrowed callable of (chunk index, thread index): std::function without its allocation.
/// The thread index (0 for the caller, then 1 to threads() - 1) lets a task keep scratch state
/// per thread.
class ChunkTask {
public:
  ChunkTask() = default;
  template <class F>
  ChunkTask(F &f) // NOLINT(google-explicit-constructor): a parameter type, like a lambda's
      : object_(&f), call_([](void *o, std::uint32_t chunk, unsigned thread) {
          (*static_cast<F *>(o))(chunk, thread);
        }) {}
  void operator()(std::uint32_t chunk, unsigned thread) const { call_(object_, chunk, thread); }

private:
  void *object_ = nullptr;
  void (*call_)(void *, std::uint32_t, unsigned) = nullptr;
};

/// Host threads that stay alive between steps. A step publishes its chunks in one atomic word;
/// the caller claims them one at a time from the first, the workers from the last, and the
/// caller returns once every chunk has run. Claiming from the two ends keeps a chunk on the same
/// thread from step to step (the two meet about where they met before), so the tile memory a
/// chunk writes stays in that core's cache: handed between cores at every step, those lines cost
/// more than the work. The caller never waits for a worker that has not claimed a chunk, so a
/// worker that is slow to wake costs nothing. An idle worker spins for a few microseconds
/// (consecutive steps follow that closely) and then sleeps, so an idle engine uses no CPU.
class WorkerPool {
public:
  /// Chunks one step may have (the ticket word holds the count in 16 bits).
  static constexpr std::uint32_t kMaxChunks = 0xffff;

  /// `threads` counts the caller: a pool of 1 runs everything on the caller.
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool &) = delete;
  WorkerPool &operator=(const WorkerPool &) = delete;

  unsigned threads() const { return unsigned(workers_.size()) + 1; }

  /// Calls task(c, thread) for every c in [0, chunks) (chunks <= kMaxChunks) on the pool's
  /// threads and the caller's; returns when all have returned. `task` must not throw. One
  /// caller at a time.
  void run(std::uint32_t chunks, ChunkTask task);

private:
  /// Claims the first unclaimed chunk (the caller) or the last (a worker) and runs it.
  bool claimAndRun(unsigned thread);
  bool claimable() const;
  void notifyAfterUnlock(std::condition_variable &cv);
  void workerLoop(unsigned thread);

  std::vector<std::thread> workers_;
  // generation (32 bits) | end of the unclaimed chunks (16) | first unclaimed chunk (16). It and
  // done_ each have a cache line: every claim writes the one, every finished chunk the other.
  alignas(64) std::atomic<std::uint64_t> ticket_{0};
  alignas(64) std::atomic<std::uint32_t> done_{0}; // chunks of this step that have returned
  alignas(64) ChunkTask task_;                     // written before the ticket is published
  std::uint32_t chunks_ = 0;                       // the same
  std::uint32_t generation_ = 0;
  // Sleeping: workers wait on wake_ for a new step, the caller on finished_ for the last chunk.
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::atomic<unsigned> sleepers_{0};
  std::atomic<bool> callerSleeping_{false}, stop_{false};
};

} // namespace poplar::detail
