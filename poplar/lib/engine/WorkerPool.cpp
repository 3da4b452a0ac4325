// The worker pool's hand-off: chunks claimed from one atomic ticket, a spin before sleeping.
#include "engine/WorkerPool.hpp"

#include "engine/CpuRelax.hpp"

#include <chrono>

namespace poplar::detail {

namespace {

// An idle worker watches for the next step this long before it sleeps: long enough to span
// the host work between the compute sets of a program, short enough not to hold a core that
// other processes or a serial step want.
constexpr auto kWorkerSpin = std::chrono::microseconds(30);
// The caller waits this long for the last chunks (running on workers) before it sleeps.
constexpr auto kCallerSpin = std::chrono::microseconds(200);

std::uint32_t endOf(std::uint64_t ticket) { return std::uint32_t(ticket >> 16) & 0xffff; }
std::uint32_t nextOf(std::uint64_t ticket) { return std::uint32_t(ticket) & 0xffff; }

/// Spins until `ready()` or `limit` has passed (the clock is read every 64 tries); returns
/// whether `ready()` held.
template <class Ready> bool spinUntil(Ready ready, std::chrono::microseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  for (unsigned i = 1;; ++i) {
    if (ready())
      return true;
    cpuRelax();
    if (i % 64 == 0 && std::chrono::steady_clock::now() > deadline)
      return ready();
  }
}

} // namespace

WorkerPool::WorkerPool(unsigned threads) {
  for (unsigned t = 1; t < threads; ++t)
    workers_.emplace_back([this, t] { workerLoop(t); });
}

WorkerPool::~WorkerPool() {
  stop_.store(true);
  notifyAfterUnlock(wake_);
  for (auto &w : workers_)
    w.join();
}

/// Wakes the waiters of `cv`. Taking and releasing the mutex orders this after a waiter's check
/// of its predicate (a waiter checks under the mutex and releases it only inside the wait), so it
/// cannot be missed; notifying after the release spares the woken thread blocking again on the
/// mutex the notifier still holds, a second futex wake-up per hand-off.
void WorkerPool::notifyAfterUnlock(std::condition_variable &cv) {
  { std::lock_guard<std::mutex> lock(mutex_); }
  cv.notify_all();
}

bool WorkerPool::claimable() const {
  auto t = ticket_.load();
  return nextOf(t) < endOf(t);
}

/// Claims a chunk of the current step, from the front or the back, and runs it; false when none
/// is left. The claim is a compare-and-swap on the whole ticket, so a thread holding a stale ticket
/// (an earlier step's) can never claim a chunk of a later one, and `task_` is the claimed step's:
/// it is written before the ticket is published and rewritten only after every chunk has returned.
bool WorkerPool::claimAndRun(unsigned thread) {
  const bool first = thread == 0;
  auto t = ticket_.load(std::memory_order_acquire);
  while (nextOf(t) < endOf(t)) {
    const std::uint64_t claimed = first ? t + 1 : t - (std::uint64_t(1) << 16);
    if (!ticket_.compare_exchange_weak(t, claimed, std::memory_order_acq_rel,
                                       std::memory_order_acquire))
      continue;
    const std::uint32_t chunks = chunks_; // read before done_ lets the caller publish the next
    task_(first ? nextOf(t) : endOf(t) - 1, thread);
    if (done_.fetch_add(1) + 1 == chunks && callerSleeping_.load())
      notifyAfterUnlock(finished_);
    return true;
  }
  return false;
}

void WorkerPool::workerLoop(unsigned thread) {
  for (;;) {
    if (claimAndRun(thread))
      continue;
    if (spinUntil([this] { return claimable() || stop_.load(); }, kWorkerSpin)) {
      if (stop_.load())
        return;
      continue;
    }
    // Sleep. sleepers_ is raised before the ticket is checked and the caller reads it after
    // publishing a step (both sequentially consistent), so either the caller sees a sleeper and
    // notifies under the mutex, or this check sees the new step.
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.fetch_add(1);
    wake_.wait(lock, [this] { return stop_.load() || claimable(); });
    sleepers_.fetch_sub(1);
    if (stop_.load())
      return;
  }
}

void WorkerPool::run(std::uint32_t chunks, ChunkTask task) {
  if (workers_.empty() || chunks <= 1) {
    for (std::uint32_t c = 0; c < chunks; ++c)
      task(c, 0);
    return;
  }
  task_ = task;
  chunks_ = chunks;
  done_.store(0);
  ++generation_;
  ticket_.store(std::uint64_t(generation_) << 32 | std::uint64_t(chunks) << 16);
  if (sleepers_.load() > 0)
    notifyAfterUnlock(wake_);
  while (claimAndRun(0)) {
  }
  auto finished = [&] { return done_.load() == chunks; };
  if (spinUntil(finished, kCallerSpin))
    return;
  std::unique_lock<std::mutex> lock(mutex_);
  callerSleeping_.store(true);
  finished_.wait(lock, finished);
  callerSleeping_.store(false);
}

} // namespace poplar::detail
