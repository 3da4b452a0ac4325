// Helpers shared by the benchmarks: hand-written linear tile mapping, the median time of a native
// reference, and the native memcpy reference timed in the same run.
#pragma once

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace popsdk::bench {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Times `engine.run()` once per benchmark iteration (manual time: only the run is on the clock)
/// and returns the mean seconds of one run.
inline double timeEngineRuns(benchmark::State &state, poplar::Engine &engine) {
  double total = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    engine.run();
    double seconds = secondsSince(start);
    state.SetIterationTime(seconds);
    total += seconds;
  }
  return total / double(state.iterations());
}

/// The median of `values` (reordered), 0 if there are none.
inline double median(std::vector<double> &values) {
  if (values.empty())
    return 0;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

/// Calls `run` for kWarmUpSeconds (or $POPSDK_BENCH_WARMUP_S) before a benchmark times it, so
/// that the timed runs are the steady state a long program sees: under the default vertex tier
/// (`auto`) a vertex type that turns hot is compiled to host code on a thread of its own in the
/// first seconds (popops' Reduce takes 3 s of CPU), which shares the host's cores with the runs.
template <class Run> void warmUp(Run &&run) {
  constexpr double kWarmUpSeconds = 5;
  const char *env = std::getenv("POPSDK_BENCH_WARMUP_S");
  const double seconds = env ? std::atof(env) : kWarmUpSeconds;
  const auto start = Clock::now();
  do
    run();
  while (secondsSince(start) < seconds);
}

/// Host seconds of each timed iteration of an Engine's run. A benchmark set beside a native
/// reference's median (medianSeconds) reports their median too, so that neither a busy machine's
/// preemptions nor the executor's runs that time a step on one thread (it retries one thread
/// after 8, 24, 56, ... executions and keeps the faster way) count against one side only.
class RunTimes {
public:
  void add(double seconds) { times_.push_back(seconds); }
  double median() { return popsdk::bench::median(times_); }
  double mean() const {
    double total = 0;
    for (double t : times_)
      total += t;
    return times_.empty() ? 0 : total / double(times_.size());
  }

private:
  std::vector<double> times_;
};

/// Maps the flattened `t` over `numTiles` tiles in equal contiguous slices, tile 0 first, as
/// poputil::mapTensorLinearly does with a grain of one element (done by hand here so the
/// benchmark needs only libpoplar). Returns the number of elements per tile.
inline std::size_t mapLinearly(poplar::Graph &graph, const poplar::Tensor &t, unsigned numTiles) {
  poplar::Tensor flat = t.flatten();
  std::size_t n = flat.numElements();
  std::size_t perTile = (n + numTiles - 1) / numTiles;
  for (unsigned tile = 0; tile < numTiles; ++tile) {
    std::size_t begin = std::min(n, tile * perTile), end = std::min(n, begin + perTile);
    if (begin < end)
      graph.setTileMapping(flat.slice(begin, end), tile);
  }
  return perTile;
}

/// Median seconds of one call of `work`, repeated for about 20 ms (and at least 5 times) after a
/// warm-up call: the median keeps a busy machine's preemptions out of a native reference.
template <class Work> double medianSeconds(Work &&work) {
  work(); // warm-up: fault the pages in, fill the caches
  std::vector<double> times;
  auto begin = Clock::now();
  do {
    auto start = Clock::now();
    work();
    times.push_back(secondsSince(start));
  } while (secondsSince(begin) < 0.02 || times.size() < 5);
  return median(times);
}

/// Median seconds for one memcpy of `bytes` between two warm, 64-byte aligned host buffers:
/// the native reference for moving the same bytes. Alignment is fixed because glibc's
/// `rep movsb` path is up to 20x slower on some AMD CPUs when source and destination are not
/// co-aligned (docs/performance.md). Repeats for about 20 ms; the median keeps a busy
/// machine's preemptions out of the reference.
inline double nativeCopySeconds(std::size_t bytes) {
  struct Free {
    void operator()(void *p) const { std::free(p); }
  };
  std::size_t size = (bytes + 63) / 64 * 64;
  std::unique_ptr<std::uint8_t, Free> src(
      static_cast<std::uint8_t *>(std::aligned_alloc(64, size)));
  std::unique_ptr<std::uint8_t, Free> dst(
      static_cast<std::uint8_t *>(std::aligned_alloc(64, size)));
  std::memset(src.get(), 1, size);
  return medianSeconds([&] {
    std::memcpy(dst.get(), src.get(), bytes);
    benchmark::DoNotOptimize(dst.get());
    benchmark::ClobberMemory();
  });
}

/// Sets the native-reference counters: the reference's own time and host/native.
inline void reportNative(benchmark::State &state, double hostSecondsPerIter, std::size_t bytes) {
  double native = nativeCopySeconds(bytes);
  state.counters["native_us"] = native * 1e6;
  state.counters["host/native"] = hostSecondsPerIter / native;
}

} // namespace popsdk::bench
