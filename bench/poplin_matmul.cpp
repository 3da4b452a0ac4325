// poplin::matMul on a full ipu2 (1472 tiles): square products of 256, 512 and 1024 in float and
// half, with operands laid out by createMatMulInputLHS/RHS. Per Engine::run() host time beside
// a native single-thread OpenBLAS sgemm of the same shape in the same run; simulated cycles
// beside the AMP peak; and the plan and compile times.
//
// Counters: host_ms and native_ms (one product: the medians of the timed runs and of the sgemm
// calls; host_mean_ms the runs' mean), host/native; sim_cycles, est_cycles (the
// planner's estimate, from matMulReportPlan), peak_cycles
// (MACs / (tiles x MACs per tile-cycle: 16 float, 64 half)) and of_peak = peak_cycles /
// sim_cycles; plan_s (graph construction with planning) and compile_s (the Engine constructor).
// The result is checked against sgemm once before timing (exactly for float: the inputs are
// multiples of 1/64 in [-2, 2], so every sum is exact in any order).
#include "BenchCommon.hpp"

#include "HostData.hpp"
#include "TestEnvironment.hpp"

#include <poplar/Engine.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>

#include <cblas.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using popsdk::bench::Clock;
using popsdk::bench::secondsSince;

extern "C" void openblas_set_num_threads(int);

namespace {

constexpr unsigned kTiles = 1472;

void BM_MatMul(benchmark::State &state) {
  const std::size_t n = std::size_t(state.range(0));
  const Type type = state.range(1) ? HALF : FLOAT;
  Device device = popsdk::test::testDevice(kTiles);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);

  auto planStart = Clock::now();
  program::Sequence prog;
  Tensor a = poplin::createMatMulInputLHS(graph, type, {n, n}, {n, n}, "a");
  Tensor b = poplin::createMatMulInputRHS(graph, type, {n, n}, {n, n}, "b");
  Tensor c = poplin::matMul(graph, a, b, prog, FLOAT, "c");
  const double planSeconds = secondsSince(planStart);
  // The planner's estimate of the whole product, from its report, beside the simulation.
  std::ostringstream plan;
  poplin::matMulReportPlan(plan, graph, type, FLOAT, {n, n}, {n, n});
  const std::string report = plan.str(), key = "Estimated cycles: ";
  const auto at = report.find(key);
  const double estimated = at == std::string::npos ? 0 : std::stod(report.substr(at + key.size()));
  graph.createHostWrite("a", a);
  graph.createHostWrite("b", b);
  graph.createHostRead("c", c);

  auto compileStart = Clock::now();
  Engine engine(graph, prog);
  const double compileSeconds = secondsSince(compileStart);
  engine.load(device);

  const auto av = popsdk::test::hostData(type, n * n, -2, 2, 1);
  const auto bv = popsdk::test::hostData(type, n * n, -2, 2, 2);
  const auto ab = popsdk::test::toDevice(type, av), bb = popsdk::test::toDevice(type, bv);
  engine.writeTensor("a", ab.data(), ab.data() + ab.size());
  engine.writeTensor("b", bb.data(), bb.data() + bb.size());
  engine.run(0);
  std::vector<float> got(n * n);
  engine.readTensor("c", got.data(), got.data() + got.size());

  openblas_set_num_threads(1);
  const std::vector<float> af(av.begin(), av.end()), bf(bv.begin(), bv.end());
  std::vector<float> want(n * n);
  auto sgemm = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(n), int(n), int(n), 1.0f, af.data(),
                int(n), bf.data(), int(n), 0.0f, want.data(), int(n));
  };
  sgemm();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      state.SkipWithError(("device and sgemm differ at element " + std::to_string(i)).c_str());
      return;
    }

  popsdk::bench::warmUp([&] { engine.run(0); });
  popsdk::bench::RunTimes times;
  std::uint64_t cycles = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    engine.run(0);
    const double seconds = secondsSince(start);
    cycles = engine.getLastRunCycles();
    state.SetIterationTime(seconds);
    times.add(seconds);
  }
  const double perRun = times.median();
  const double native = popsdk::bench::medianSeconds([&] {
    sgemm();
    benchmark::DoNotOptimize(want.data());
    benchmark::ClobberMemory();
  });
  const double macs = double(n) * double(n) * double(n);
  const double peakCycles = macs / (double(kTiles) * (type == FLOAT ? 16 : 64));
  state.counters["host_ms"] = perRun * 1e3;
  state.counters["host_mean_ms"] = times.mean() * 1e3;
  state.counters["native_ms"] = native * 1e3;
  state.counters["host/native"] = perRun / native;
  state.counters["sim_cycles"] = double(cycles);
  state.counters["est_cycles"] = estimated;
  state.counters["peak_cycles"] = peakCycles;
  state.counters["of_peak"] = peakCycles / double(cycles);
  state.counters["plan_s"] = planSeconds;
  state.counters["compile_s"] = compileSeconds;
}

BENCHMARK(BM_MatMul)
    ->ArgsProduct({{256, 512, 1024}, {0, 1}})
    ->ArgNames({"n", "half"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

} // namespace
