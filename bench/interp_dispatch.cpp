// Interpreter dispatch rate: ISA loops (dot product, sum) against the same loops native in C++.
//
// Counters: insns_per_s (interpreted ISA instructions per host second), ns_per_elem_isa and
// ns_per_elem_native (one loop iteration), slowdown (interpreted / native time, same run).
#include "interp/Interpreter.hpp"
#include "isa/Asm.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace poplar;

constexpr uint32_t kElems = 4096;
constexpr uint32_t kBase = isa::kTileMemoryBase;
constexpr uint32_t kX = kBase, kY = kBase + 4 * kElems;

// Per element: two post-increment loads, one fma, one brnzdec (4 instructions).
const std::string kDotLoop = "movi r10, " + std::to_string(kElems - 1) + "\nmovi r4, " +
                             std::to_string(kX) + "\nmovi r5, " + std::to_string(kY) +
                             "\nloop: ld32p r6, [r4+=4]\nld32p r7, [r5+=4]\n"
                             "fma r3, r6, r7, r3\nbrnzdec r10, loop\nexit r3\n";
// The same with a zero-overhead rpt loop (3 instructions per element).
const std::string kDotRpt = "movi r10, " + std::to_string(kElems) + "\nmovi r4, " +
                            std::to_string(kX) + "\nmovi r5, " + std::to_string(kY) +
                            "\nrpt r10, 3\nld32p r6, [r4+=4]\nld32p r7, [r5+=4]\n"
                            "fma r3, r6, r7, r3\nexit r3\n";
// Per element: one load, one add, one brnzdec (3 instructions).
const std::string kSumLoop = "movi r10, " + std::to_string(kElems - 1) + "\nmovi r4, " +
                             std::to_string(kX) +
                             "\nloop: ld32p r6, [r4+=4]\nfadd r3, r3, r6\nbrnzdec r10, loop\n"
                             "exit r3\n";

float nativeDot(const float *x, const float *y, uint32_t n) {
  float acc = 0;
  for (uint32_t i = 0; i < n; ++i)
    acc = std::fma(x[i], y[i], acc);
  return acc;
}

float nativeSum(const float *x, const float *, uint32_t n) {
  float acc = 0;
  for (uint32_t i = 0; i < n; ++i)
    acc += x[i];
  return acc;
}

double nativeNsPerElem(float (*fn)(const float *, const float *, uint32_t), const float *x,
                       const float *y) {
  constexpr int kReps = 2000;
  auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < kReps; ++r) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(fn(x, y, kElems));
  }
  std::chrono::duration<double, std::nano> t = std::chrono::steady_clock::now() - start;
  return t.count() / (double(kReps) * kElems);
}

void runLoop(benchmark::State &state, const std::string &text,
             float (*native)(const float *, const float *, uint32_t)) {
  const auto dispatch = state.range(0) ? interp::Dispatch::Switch : interp::Dispatch::ComputedGoto;
  isa::AsmResult as = isa::assemble(text);
  if (!as.ok())
    throw std::runtime_error(as.error);
  const interp::DecodedCode code = interp::decodeCode(as.words);
  std::vector<float> data(2 * kElems);
  for (uint32_t i = 0; i < 2 * kElems; ++i)
    data[i] = float(i % 17) * 0.25f;
  interp::TileMemory mem{kBase, reinterpret_cast<uint8_t *>(data.data()), 8 * kElems};

  uint64_t instructions = 0;
  auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    interp::WorkerState ws;
    interp::RunResult r = interp::execute(code, 0, mem, ws, 1'000'000'000, dispatch);
    if (r.trap != interp::Trap::None)
      throw std::runtime_error(interp::trapName(r.trap));
    instructions += r.instructions;
    benchmark::DoNotOptimize(r.result);
  }
  std::chrono::duration<double, std::nano> t = std::chrono::steady_clock::now() - start;
  const double isaNs = t.count() / (double(state.iterations()) * kElems);
  const double nativeNs = nativeNsPerElem(native, data.data(), data.data() + kElems);
  state.counters["insns_per_s"] =
      benchmark::Counter(double(instructions), benchmark::Counter::kIsRate);
  state.counters["ns_per_elem_isa"] = isaNs;
  state.counters["ns_per_elem_native"] = nativeNs;
  state.counters["slowdown"] = isaNs / nativeNs;
  state.SetLabel(state.range(0) ? "switch" : "goto");
}

void BM_DotLoop(benchmark::State &state) { runLoop(state, kDotLoop, nativeDot); }
void BM_DotRpt(benchmark::State &state) { runLoop(state, kDotRpt, nativeDot); }
void BM_SumLoop(benchmark::State &state) { runLoop(state, kSumLoop, nativeSum); }

// Argument: 0 = computed goto, 1 = switch.
BENCHMARK(BM_DotLoop)->Arg(0)->Arg(1);
BENCHMARK(BM_DotRpt)->Arg(0)->Arg(1);
BENCHMARK(BM_SumLoop)->Arg(0)->Arg(1);

} // namespace
