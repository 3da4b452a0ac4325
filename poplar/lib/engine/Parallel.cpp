// A persistent thread pool: workers sleep between jobs, so a step costs a wake-up rather than
// thread creation (which dominated small copies, docs/performance.md).
#include "engine/Parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace poplar::detail {

unsigned numHostThreads() {
  static const unsigned n = [] {
    if (const char *env = std::getenv("POPLAR_NUM_THREADS")) {
      int v = std::atoi(env);
      if (v > 0)
        return unsigned(v);
    }
    return std::max(1u, std::thread::hardware_concurrency());
  }();
  return n;
}

namespace {

class Pool {
public:
  explicit Pool(unsigned threads) {
    for (unsigned t = 1; t < threads; ++t)
      workers_.emplace_back([this] { workerLoop(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto &w : workers_)
      w.join();
  }

  /// Runs job(begin, end) over chunks of [0, n) on every thread, the caller's included.
  void run(std::size_t n, std::size_t chunk,
           const std::function<void(std::size_t, std::size_t)> &job) {
    std::lock_guard<std::mutex> one(submit_); // one job at a time, whichever engine asks
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      n_ = n;
      chunk_ = chunk;
      next_ = 0;
      busy_ = unsigned(workers_.size());
      ++generation_;
    }
    wake_.notify_all();
    work();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return busy_ == 0; });
    job_ = nullptr;
  }

private:
  void work() {
    for (;;) {
      std::size_t begin = next_.fetch_add(chunk_);
      if (begin >= n_)
        return;
      (*job_)(begin, std::min(n_, begin + chunk_));
    }
  }

  void workerLoop() {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_)
          return;
        seen = generation_;
      }
      work();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        --busy_;
      }
      done_.notify_one();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex submit_, mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(std::size_t, std::size_t)> *job_ = nullptr;
  std::size_t n_ = 0, chunk_ = 1;
  std::atomic<std::size_t> next_{0};
  unsigned busy_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};

Pool &pool() {
  static Pool instance(numHostThreads());
  return instance;
}

} // namespace

void parallelChunks(std::size_t n, std::size_t grain,
                    const std::function<void(std::size_t, std::size_t)> &f) {
  unsigned threads = numHostThreads();
  if (n == 0)
    return;
  if (threads <= 1 || n <= grain) {
    f(0, n);
    return;
  }
  // A few chunks per thread balance uneven items without many hand-offs.
  std::size_t chunk = std::max(grain, n / (std::size_t(threads) * 4) + 1);
  pool().run(n, chunk, f);
}

void parallelFor(std::size_t n, const std::function<void(std::size_t)> &f) {
  std::exception_ptr error;
  std::size_t errorIndex = n;
  std::mutex errorMutex;
  parallelChunks(n, 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      try {
        f(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (i < errorIndex) {
          errorIndex = i;
          error = std::current_exception();
        }
      }
    }
  });
  if (error)
    std::rethrow_exception(error);
}

} // namespace poplar::detail
