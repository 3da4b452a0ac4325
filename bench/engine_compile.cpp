// Engine construction (graph compile) time for graphs of growing size on a full ipu2 target.
//
// Families (arguments in bench/README.md):
//   BM_CompileVariables/vars:V/elems_per_tile:E  V float variables, each spread over all tiles
//                                                 (E elements per tile), an empty program.
//   BM_CompileCopies/copies:C/elems_per_tile:E   two such variables and a Sequence of C Copy
//                                                 programs, each rotating one onto the other.
// Only Engine construction is timed (manual time); graph building is reported as a counter.
#include "BenchCommon.hpp"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <string>
#include <vector>

using namespace poplar;
using popsdk::bench::Clock;
using popsdk::bench::secondsSince;

namespace {

struct CompileShape {
  Device device;
  Graph graph;
  program::Sequence prog;
  std::size_t variables = 0, bytesLaidOut = 0, intervals = 0, copies = 0;

  CompileShape() : device(IPUModel("ipu2").createDevice()), graph(device.getTarget()) {}
  unsigned numTiles() const { return device.getTarget().getNumTiles(); }
};

/// Adds `count` float variables of `elemsPerTile` elements on every tile.
std::vector<Tensor> addSpreadVariables(CompileShape &s, std::size_t count,
                                       std::size_t elemsPerTile) {
  std::vector<Tensor> vars;
  for (std::size_t v = 0; v < count; ++v) {
    Tensor t = s.graph.addVariable(FLOAT, {s.numTiles() * elemsPerTile}, "v" + std::to_string(v));
    popsdk::bench::mapLinearly(s.graph, t, s.numTiles());
    s.bytesLaidOut += t.numElements() * sizeof(float);
    s.intervals += s.numTiles();
    ++s.variables;
    vars.push_back(t);
  }
  return vars;
}

/// Times Engine construction for `s` and reports the compile counters.
void timeCompile(benchmark::State &state, CompileShape &s, double buildSeconds) {
  double total = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    Engine engine(s.graph, s.prog);
    double seconds = secondsSince(start);
    state.SetIterationTime(seconds);
    total += seconds;
    benchmark::DoNotOptimize(&engine);
  }
  double perIter = total / double(state.iterations());
  state.counters["tiles"] = s.numTiles();
  state.counters["variables"] = double(s.variables);
  state.counters["intervals"] = double(s.intervals);
  state.counters["copy_steps"] = double(s.copies); // one exchange step per Copy
  state.counters["bytes_laid_out"] = double(s.bytesLaidOut);
  state.counters["build_graph_ms"] = buildSeconds * 1e3;
  state.counters["ns_per_interval"] = perIter * 1e9 / double(s.intervals);
  popsdk::bench::reportNative(state, perIter, s.bytesLaidOut);
}

void BM_CompileVariables(benchmark::State &state) {
  CompileShape s;
  auto start = Clock::now();
  addSpreadVariables(s, std::size_t(state.range(0)), std::size_t(state.range(1)));
  double build = secondsSince(start);
  timeCompile(state, s, build);
}

void BM_CompileCopies(benchmark::State &state) {
  CompileShape s;
  auto start = Clock::now();
  std::size_t copies = std::size_t(state.range(0)), perTile = std::size_t(state.range(1));
  auto vars = addSpreadVariables(s, 2, perTile);
  std::size_t n = vars[1].numElements();
  // Each Copy is its own program node, so each is planned: rotate by (c % tiles) + 1 tiles.
  for (std::size_t c = 0; c < copies; ++c) {
    std::size_t shift = (c % s.numTiles() + 1) * perTile % n;
    Tensor rotated = shift ? concat(vars[1].slice(shift, n), vars[1].slice(0, shift)) : vars[1];
    s.prog.add(program::Copy(vars[0], rotated));
  }
  s.copies = copies;
  double build = secondsSince(start);
  timeCompile(state, s, build);
  state.counters["exchange_bytes"] = double(copies * n * sizeof(float));
}

} // namespace

BENCHMARK(BM_CompileVariables)
    ->ArgNames({"vars", "elems_per_tile"})
    ->Args({1, 16})
    ->Args({16, 16})
    ->Args({64, 16})
    ->Args({256, 16})
    ->Args({16, 1024})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK(BM_CompileCopies)
    ->ArgNames({"copies", "elems_per_tile"})
    ->Args({1, 256})
    ->Args({16, 256})
    ->Args({64, 256})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
