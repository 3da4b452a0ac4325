// popops on a full ipu2 (1472 tiles), built with the test support's OpHarness: element-wise work
// over 1M floats, timed per Engine::run() against a native loop doing the same work in the same
// run, and its simulated cycles against the tiles' peak.
//
// Families (bench/README.md):
//   BM_Add        popops::add(a, b): one op per element, the precompiled BinaryOp1D vertices.
//   BM_Map3       popops::map((_1 + _2) * _3, {a, b, c}): one fused codelet generated for the
//                 expression (two ops per element, one pass over memory).
//   BM_ReduceAdd  popops::reduce(a, {0}, ADD): the sum of the 1M elements (one op per element).
// Each checks its result against the native loop once before timing. Counters: host_ns/elem and
// native_ns/elem (host wall time per element of one run, and of the native loop: the medians of
// the timed runs and of the loop's), host/native; layout_ns/elem (element-wise work: the native
// loop over the data laid out as the tiles hold it, tileLayoutSeconds);
// sim_cycles (Engine::getLastRunCycles), ops/cycle, and of_peak = ops/cycle over the tiles' peak
// (vector width x tiles: 2 float ops a cycle on each of 1472 tiles).
#include "BenchCommon.hpp"
#include "OpHarness.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace poplar;
using popsdk::bench::Clock;
using popsdk::bench::secondsSince;

namespace {

constexpr std::size_t kElements = 1u << 20;
constexpr unsigned kTiles = 1472;

/// One workload: how many inputs, the popops call, and the same work as a native loop over the
/// inputs as floats (writing `out`); for element-wise work also that loop as a function of
/// pointers, which the tile-layout reference calls.
struct Workload {
  unsigned inputs;
  unsigned opsPerElement;
  std::function<Tensor(Graph &, const std::vector<Tensor> &, program::Sequence &)> build;
  std::function<void(const std::vector<std::vector<float>> &, std::vector<float> &)> native;
  void (*elementwise)(const float *const *in, float *out, std::size_t n) = nullptr;
};

/// The element-wise loop over the data laid out as the device holds it: each tile's slice of
/// every input and of the output in a buffer of its own (as a tile's memory), the tiles one after
/// another, each in six calls (its workers' shares). What this costs beyond the native loop over
/// whole arrays is the layout's, which any simulator of the tiles pays.
double tileLayoutSeconds(const Workload &w, std::size_t elements, unsigned tiles) {
  constexpr unsigned kMaxInputs = 3;
  const std::size_t perTile = (elements + tiles - 1) / tiles, arrays = w.inputs + 1u;
  std::vector<std::vector<float>> memory(tiles, std::vector<float>(arrays * perTile, 1.0f));
  return popsdk::bench::medianSeconds([&] {
    for (auto &tile : memory) {
      float *out = tile.data() + w.inputs * perTile;
      for (unsigned worker = 0; worker < 6; ++worker) {
        const std::size_t from = perTile * worker / 6, to = perTile * (worker + 1) / 6;
        const float *in[kMaxInputs];
        for (unsigned i = 0; i < w.inputs; ++i)
          in[i] = tile.data() + i * perTile + from;
        w.elementwise(in, out + from, to - from);
      }
      benchmark::DoNotOptimize(out);
    }
    benchmark::ClobberMemory();
  });
}

void runWorkload(benchmark::State &state, const Workload &w) {
  popsdk::test::OpHarness h(kTiles);
  std::vector<Tensor> ins;
  std::vector<std::vector<float>> host;
  for (unsigned i = 0; i < w.inputs; ++i) {
    // Multiples of 1/64 in [-4, 4]: sums and products stay exact in float in any order, so the
    // device's and the native results can be compared bit for bit.
    auto values = popsdk::test::hostData(FLOAT, kElements, -4, 4, i + 1);
    host.emplace_back(values.begin(), values.end());
    ins.push_back(h.input("in" + std::to_string(i), FLOAT, {kElements}, values));
  }
  Tensor out = w.build(h.graph(), ins, h.prog());
  h.output("out", out);
  h.run();

  std::vector<float> expected(out.numElements());
  w.native(host, expected);
  const auto &got = h.result("out");
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (float(got[i]) != expected[i]) {
      state.SkipWithError(
          ("device and native results differ at element " + std::to_string(i)).c_str());
      return;
    }

  popsdk::bench::warmUp([&] { h.runAgain(); });
  popsdk::bench::RunTimes times;
  std::uint64_t cycles = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    cycles = h.runAgain();
    double seconds = secondsSince(start);
    state.SetIterationTime(seconds);
    times.add(seconds);
  }
  double perRun = times.median();
  double native = popsdk::bench::medianSeconds([&] {
    w.native(host, expected);
    benchmark::DoNotOptimize(expected.data());
    benchmark::ClobberMemory();
  });
  double ops = double(kElements) * w.opsPerElement;
  double peak = double(h.target().getVectorWidth(FLOAT)) * kTiles;
  state.counters["elements"] = double(kElements);
  state.counters["sim_cycles"] = double(cycles);
  state.counters["ops/cycle"] = ops / double(cycles);
  state.counters["of_peak"] = ops / double(cycles) / peak;
  state.counters["host_ns/elem"] = perRun * 1e9 / double(kElements);
  state.counters["native_ns/elem"] = native * 1e9 / double(kElements);
  state.counters["host/native"] = perRun / native;
  if (w.elementwise)
    state.counters["layout_ns/elem"] =
        tileLayoutSeconds(w, kElements, kTiles) * 1e9 / double(kElements);
}

void BM_Add(benchmark::State &state) {
  runWorkload(state, {2, 1,
                      [](Graph &g, const std::vector<Tensor> &in, program::Sequence &prog) {
                        return popops::add(g, in[0], in[1], prog);
                      },
                      [](const std::vector<std::vector<float>> &in, std::vector<float> &out) {
                        const float *a = in[0].data(), *b = in[1].data();
                        for (std::size_t i = 0; i < out.size(); ++i)
                          out[i] = a[i] + b[i];
                      },
                      [](const float *const *in, float *out, std::size_t n) {
                        for (std::size_t i = 0; i < n; ++i)
                          out[i] = in[0][i] + in[1][i];
                      }});
}

void BM_Map3(benchmark::State &state) {
  using namespace popops::expr;
  runWorkload(state, {3, 2,
                      [](Graph &g, const std::vector<Tensor> &in, program::Sequence &prog) {
                        return popops::map(g, (_1 + _2) * _3, in, prog);
                      },
                      [](const std::vector<std::vector<float>> &in, std::vector<float> &out) {
                        const float *a = in[0].data(), *b = in[1].data(), *c = in[2].data();
                        for (std::size_t i = 0; i < out.size(); ++i)
                          out[i] = (a[i] + b[i]) * c[i];
                      },
                      [](const float *const *in, float *out, std::size_t n) {
                        for (std::size_t i = 0; i < n; ++i)
                          out[i] = (in[0][i] + in[1][i]) * in[2][i];
                      }});
}

void BM_ReduceAdd(benchmark::State &state) {
  runWorkload(state, {1, 1,
                      [](Graph &g, const std::vector<Tensor> &in, program::Sequence &prog) {
                        return popops::reduce(g, in[0], {0}, {popops::Operation::ADD}, prog);
                      },
                      [](const std::vector<std::vector<float>> &in, std::vector<float> &out) {
                        float sum = 0;
                        for (float x : in[0])
                          sum += x;
                        out[0] = sum;
                      }});
}

BENCHMARK(BM_Add)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Map3)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReduceAdd)->UseManualTime()->Unit(benchmark::kMillisecond);

} // namespace
