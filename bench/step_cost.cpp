// Host time of a BSP compute step: a Repeat of 30 executions of one compute set holding one tiny
// vertex (AddOneVertex over 8 floats) on each of the first N tiles of a full ipu2.
//
// Family (bench/README.md): BM_StepCost/tiles:N. Counters: ns_per_cs (host wall time of one
// compute step), ns_per_vertex (the same over the N vertices), native_ns_per_vertex (the same
// increments as a plain C++ loop over N separate 8-float buffers, timed in the same run),
// host/native, sim_cycles (one run). The result is checked before timing, so a step that skips
// work cannot look fast.
#include "BenchCommon.hpp"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <string>
#include <vector>

using namespace poplar;

namespace {

constexpr unsigned kRepeats = 30;
constexpr std::size_t kFloatsPerTile = 8;

/// The native reference: one increment of each tile's 8 floats, each tile its own buffer.
double nativeSecondsPerStep(unsigned tiles) {
  std::vector<std::vector<float>> buffers(tiles, std::vector<float>(kFloatsPerTile, 0.0f));
  return popsdk::bench::medianSeconds([&] {
    for (auto &b : buffers) {
      for (auto &x : b)
        x += 1.0f;
      benchmark::DoNotOptimize(b.data());
    }
    benchmark::ClobberMemory();
  });
}

void BM_StepCost(benchmark::State &state) {
  auto tiles = unsigned(state.range(0));
  auto device = IPUModel("ipu2").createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets(POPSDK_BENCH_VERTICES_GP);
  Tensor data = graph.addVariable(FLOAT, {tiles, kFloatsPerTile}, "data");
  ComputeSet cs = graph.addComputeSet("addOne");
  for (unsigned t = 0; t < tiles; ++t) {
    graph.setTileMapping(data[t], t);
    auto v = graph.addVertex(cs, "AddOneVertex", {{"data", data[t]}});
    graph.setTileMapping(v, t);
  }
  graph.createHostRead("data", data);
  Engine engine(graph, program::Repeat(kRepeats, program::Execute(cs)));
  engine.load(device);
  engine.run();
  std::vector<float> out(data.numElements());
  engine.readTensor("data", out.data(), out.data() + out.size());
  for (float x : out)
    if (x != float(kRepeats)) {
      state.SkipWithError("the compute steps gave a wrong result");
      return;
    }

  double perStep = popsdk::bench::timeEngineRuns(state, engine) / kRepeats;
  double native = nativeSecondsPerStep(tiles);
  state.counters["ns_per_cs"] = perStep * 1e9;
  state.counters["ns_per_vertex"] = perStep * 1e9 / tiles;
  state.counters["native_ns_per_vertex"] = native * 1e9 / tiles;
  state.counters["host/native"] = perStep / native;
  state.counters["sim_cycles"] = double(engine.getLastRunCycles());
}

BENCHMARK(BM_StepCost)
    ->ArgName("tiles")
    ->Arg(1)
    ->Arg(2)
    ->Arg(16)
    ->Arg(64)
    ->Arg(256)
    ->Arg(1472)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

} // namespace
