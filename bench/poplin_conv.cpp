// A poplin forward convolution as poplin::convolution plans it, beside the same layer as the
// im2col matmul (the lowering every convolution used before ConvPartialnx1): simulated cycles and
// tile memory of each, in one run. Arguments: tiles, batch, input channels, kernel size (square,
// 'same' padding, 28x28 field, 16 output channels, float).
//
// Counters: conv_cycles / im2col_cycles (Engine::getLastRunCycles), conv_max_tile /
// im2col_max_tile and conv_total / im2col_total (bytes with gaps, from the profile); the im2col
// counters are 0 where its gathered copies do not fit in tile memory.
#include "BenchCommon.hpp"

#include "HostData.hpp"
#include "TestEnvironment.hpp"

#include "poplin/lib/ConvLowering.hpp"
#include "poplin/lib/MatMulLowering.hpp"

#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <pva/pva.hpp>

#include <algorithm>
#include <vector>

using namespace poplar;

namespace {

constexpr std::size_t kField = 28, kOutChans = 16;

struct Measured {
  std::uint64_t cycles = 0, maxTile = 0, total = 0;
};

Measured runLayer(unsigned tiles, const poplin::ConvParams &p, bool im2col) {
  namespace pi = poplin::internal;
  Device device = popsdk::test::testDevice(tiles);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  program::Sequence prog;
  Tensor in = poplin::createInput(graph, p, "in");
  Tensor w = poplin::createWeights(graph, p, "w");
  Tensor out;
  if (im2col) {
    const auto plan = pi::planMatMul(graph.getTarget(), pi::matMulProblemOf(p), {});
    Tensor product = pi::createOperand(graph, plan, pi::MatMulOperand::Output, FLOAT, "out");
    pi::addMatMul(graph, plan, pi::inputAsMatrix(graph, p, in), pi::weightsAsMatrix(graph, p, w),
                  product, prog, "im2col");
    out = pi::outputFromMatrix(p, product);
  } else {
    out = poplin::convolution(graph, in, w, p, false, prog, "conv");
  }
  graph.createHostWrite("in", in);
  graph.createHostWrite("w", w);
  graph.createHostRead("out", out);
  popsdk::test::ScopedTempDir dir("poplin-conv-bench");
  Engine engine(graph, prog,
                {{"autoReport.outputGraphProfile", "true"}, {"autoReport.directory", dir.path()}});
  engine.load(device);
  const auto x =
      popsdk::test::toDevice(FLOAT, popsdk::test::hostData(FLOAT, in.numElements(), -1, 1, 1));
  const auto k =
      popsdk::test::toDevice(FLOAT, popsdk::test::hostData(FLOAT, w.numElements(), -1, 1, 2));
  engine.writeTensor("in", x.data(), x.data() + x.size());
  engine.writeTensor("w", k.data(), k.data() + k.size());
  engine.run(0);
  Measured m;
  m.cycles = engine.getLastRunCycles();
  for (const auto &t : pva::openReport(dir.path() + "/profile.pop").compilation().tiles()) {
    const std::uint64_t bytes = t.memory().total().includingGaps();
    m.maxTile = std::max(m.maxTile, bytes);
    m.total += bytes;
  }
  return m;
}

void BM_ConvForward(benchmark::State &state) {
  const unsigned tiles = unsigned(state.range(0)), kernel = unsigned(state.range(3));
  poplin::ConvParams::InputTransform pad(2);
  pad.paddingLower = pad.paddingUpper = {kernel / 2, kernel / 2};
  const poplin::ConvParams p(FLOAT, FLOAT, std::size_t(state.range(1)), {kField, kField},
                             {kernel, kernel}, std::size_t(state.range(2)), kOutChans, 1, pad,
                             poplin::ConvParams::InputTransform(2),
                             poplin::ConvParams::OutputTransform(2));
  Measured conv, im2col;
  for (auto _ : state) {
    auto start = popsdk::bench::Clock::now();
    conv = runLayer(tiles, p, false);
    try {
      im2col = runLayer(tiles, p, true);
    } catch (const poplar::graph_memory_allocation_error &) {
      im2col = {}; // does not fit: its counters stay 0
    }
    state.SetIterationTime(popsdk::bench::secondsSince(start));
  }
  state.counters["conv_cycles"] = double(conv.cycles);
  state.counters["im2col_cycles"] = double(im2col.cycles);
  state.counters["conv_max_tile"] = double(conv.maxTile);
  state.counters["im2col_max_tile"] = double(im2col.maxTile);
  state.counters["conv_total"] = double(conv.total);
  state.counters["im2col_total"] = double(im2col.total);
}

} // namespace

// Layers on four tiles, where walking the kernel on the tile wins (the 5x5 layer's im2col does
// not fit), and popxl_conv's layers on a full ipu2, where im2col's estimate is the lower.
BENCHMARK(BM_ConvForward)
    ->ArgNames({"tiles", "batch", "chans", "kernel"})
    ->Args({4, 1, 16, 3})
    ->Args({4, 2, 16, 5})
    ->Args({1472, 8, 16, 5})
    ->Args({1472, 32, 1, 5})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
