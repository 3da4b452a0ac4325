// One exchange (Copy) step over all 1472 ipu2 tiles, and host stream copies, timed per run().
//
// Families (arguments in bench/README.md; E = float elements per tile):
//   BM_ExchangeRotate/elems_per_tile:E     each tile's slice moves to the next tile: one
//                                          contiguous run per tile.
//   BM_ExchangeTranspose/elems_per_tile:E  a [tiles, E] tensor (row t on tile t) copied onto the
//                                          transpose of a linearly mapped [E, tiles] tensor: every
//                                          element is its own 4-byte run to another tile.
//   BM_StreamToDevice/elems_per_tile:E     one host->device stream copy of the whole tensor.
//   BM_StreamFromDevice/elems_per_tile:E   one device->host stream copy.
// Each benchmark checks its result once before timing, so a wrong exchange cannot look fast.
#include "BenchCommon.hpp"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <numeric>
#include <string>
#include <vector>

using namespace poplar;

namespace {

/// Times `engine.run()` and reports host time against simulated cycles and the native memcpy
/// of the `bytes` the step moves.
void timeRuns(benchmark::State &state, Engine &engine, std::size_t bytes, unsigned tiles) {
  double perIter = popsdk::bench::timeEngineRuns(state, engine);
  std::uint64_t cycles = engine.getLastRunCycles();
  double simSeconds = double(cycles) / engine.getTileClockFrequency();
  state.counters["tiles"] = tiles;
  state.counters["bytes"] = double(bytes);
  state.counters["sim_cycles"] = double(cycles);
  state.counters["bytes/cycle"] = double(bytes) / double(cycles);
  state.counters["host_ns/cycle"] = perIter * 1e9 / double(cycles);
  state.counters["sim_us"] = simSeconds * 1e6;
  state.counters["host/sim"] = perIter / simSeconds;
  popsdk::bench::reportNative(state, perIter, bytes);
}

std::vector<float> iota(std::size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

/// Builds src and dst (both [tiles * E], linearly mapped), copies src onto `view(dst)`, checks
/// dst against `expected(i)` once, then times the runs.
template <class View, class Expected>
void runExchange(benchmark::State &state, View view, Expected expected) {
  auto device = IPUModel("ipu2").createDevice();
  Graph graph(device.getTarget());
  unsigned tiles = device.getTarget().getNumTiles();
  std::size_t perTile = std::size_t(state.range(0)), n = tiles * perTile;
  Tensor src = graph.addVariable(FLOAT, {n}, "src");
  Tensor dst = graph.addVariable(FLOAT, {n}, "dst");
  popsdk::bench::mapLinearly(graph, src, tiles);
  popsdk::bench::mapLinearly(graph, dst, tiles);
  graph.createHostWrite("src", src);
  graph.createHostRead("dst", dst);
  Engine engine(graph, program::Copy(src, view(dst, tiles, perTile)));
  engine.load(device);

  auto in = iota(n);
  std::vector<float> out(n);
  engine.writeTensor("src", in.data(), in.data() + n);
  engine.run();
  engine.readTensor("dst", out.data(), out.data() + n);
  for (std::size_t i = 0; i < n; ++i)
    if (out[i] != float(expected(i, tiles, perTile))) {
      state.SkipWithError(("wrong result at element " + std::to_string(i)).c_str());
      return;
    }
  timeRuns(state, engine, n * sizeof(float), tiles);
}

void BM_ExchangeRotate(benchmark::State &state) {
  // dst element (i + E) mod n receives src element i: tile t's slice lands on tile t + 1.
  runExchange(
      state,
      [](const Tensor &dst, unsigned, std::size_t e) {
        std::size_t n = dst.numElements();
        return concat(dst.slice(e, n), dst.slice(0, e));
      },
      [](std::size_t i, unsigned tiles, std::size_t e) {
        std::size_t n = tiles * e;
        return (i + n - e) % n;
      });
}

void BM_ExchangeTranspose(benchmark::State &state) {
  // src viewed as [tiles, E]; dst viewed as [E, tiles] and transposed: src (t, j) -> dst (j, t).
  runExchange(
      state,
      [](const Tensor &dst, unsigned tiles, std::size_t e) {
        return dst.reshape({e, tiles}).transpose().flatten();
      },
      [](std::size_t i, unsigned tiles, std::size_t e) {
        std::size_t j = i / tiles, t = i % tiles; // dst (j, t) holds src (t, j)
        return t * e + j;
      });
}

/// One stream copy of a [tiles * E] float tensor, to or from the device.
void runStream(benchmark::State &state, bool toDevice) {
  auto device = IPUModel("ipu2").createDevice();
  Graph graph(device.getTarget());
  unsigned tiles = device.getTarget().getNumTiles();
  std::size_t n = tiles * std::size_t(state.range(0));
  Tensor t = graph.addVariable(FLOAT, {n}, "t");
  popsdk::bench::mapLinearly(graph, t, tiles);
  program::Program prog;
  if (toDevice) {
    auto stream = graph.addHostToDeviceFIFO("s", FLOAT, n);
    graph.createHostRead("t", t);
    prog = program::Copy(stream, t);
  } else {
    auto stream = graph.addDeviceToHostFIFO("s", FLOAT, n);
    graph.createHostWrite("t", t);
    prog = program::Copy(t, stream);
  }
  Engine engine(graph, prog);
  engine.load(device);
  auto host = iota(n);
  std::vector<float> other(n, -1.0f);
  engine.connectStream("s", toDevice ? host.data() : other.data());
  if (!toDevice)
    engine.writeTensor("t", host.data(), host.data() + n);
  engine.run();
  if (toDevice)
    engine.readTensor("t", other.data(), other.data() + n);
  if (other != host) {
    state.SkipWithError("stream copy moved the wrong bytes");
    return;
  }
  timeRuns(state, engine, n * sizeof(float), tiles);
}

void BM_StreamToDevice(benchmark::State &state) { runStream(state, true); }
void BM_StreamFromDevice(benchmark::State &state) { runStream(state, false); }

// Sizes: 16 floats (64 B) per tile is latency-bound; 4096 floats (16 KiB, 24 MB in all) is
// bandwidth-bound and larger than a typical last-level cache.
#define EXCHANGE_SIZES(b)                                                                          \
  BENCHMARK(b)                                                                                     \
      ->ArgName("elems_per_tile")                                                                  \
      ->Arg(16)                                                                                    \
      ->Arg(256)                                                                                   \
      ->Arg(4096)                                                                                  \
      ->UseManualTime()                                                                            \
      ->Unit(benchmark::kMicrosecond)

EXCHANGE_SIZES(BM_ExchangeRotate);
EXCHANGE_SIZES(BM_ExchangeTranspose);
EXCHANGE_SIZES(BM_StreamToDevice);
EXCHANGE_SIZES(BM_StreamFromDevice);

} // namespace
