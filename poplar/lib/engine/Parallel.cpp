// parallelFor: host threads take chunks of the index range; errors are reported deterministically.
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

void parallelFor(std::size_t n, const std::function<void(std::size_t)> &f) {
  unsigned threads = unsigned(std::min<std::size_t>(numHostThreads(), n));
  if (threads <= 1) {
    for (std::size_t i = 0; i < n; ++i)
      f(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  // The error of the lowest index wins, so the report does not depend on thread timing.
  std::exception_ptr error;
  std::size_t errorIndex = n;
  std::mutex errorMutex;
  // Chunks keep scheduling overhead low for many tiny tasks (one per tile).
  std::size_t chunk = std::max<std::size_t>(1, n / (threads * 8));
  auto work = [&] {
    for (;;) {
      std::size_t begin = next.fetch_add(chunk);
      if (begin >= n)
        return;
      std::size_t end = std::min(n, begin + chunk);
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
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (auto &t : pool)
    t.join();
  if (error)
    std::rethrow_exception(error);
}

} // namespace poplar::detail
