// One training step of a convolution layer (5x5 kernel, 'same' padding, 16 output channels:
// the forward pass, the input and weight gradients from a given output gradient, and an SGD
// update of the weights) built through the PopXL C++ API (a called forward graph, autodiff, a
// called gradient graph, scaled_add_) beside the same step written directly against poplin on
// the same full ipu2 model: simulated cycles and host time of one run of each, and their ratio,
// which is what PopXL's lowering (linear layouts, copies at the call boundaries) costs.
//
// Counters: popxl_cycles, poplibs_cycles, cycles_ratio (popxl / poplibs); popxl_ms and
// poplibs_ms (host time of one Engine run), compile_s (the popxl Session). The two results
// (input gradient and updated weights) are checked against each other before timing.
#include "BenchCommon.hpp"

#include <popxl/Autodiff.hpp>
#include <popxl/Ir.hpp>
#include <popxl/Session.hpp>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace poplar;
using popsdk::bench::Clock;
using popsdk::bench::secondsSince;

namespace {

constexpr float kLearningRate = 0.01f;
constexpr std::size_t kField = 28, kKernel = 5, kOutChans = 16;

std::vector<float> values(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) // multiples of 1/64 in [-1, 1)
    v[i] = float(int((i * 2654435761u + seed * 40503u) % 128) - 64) / 64.0f;
  return v;
}

std::vector<std::uint8_t> bytesOf(const std::vector<float> &v) {
  std::vector<std::uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<float> floatsOf(const std::vector<std::uint8_t> &b) {
  std::vector<float> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

struct StepData {
  std::size_t batch, chans;
  std::vector<float> x, w, dy;
  std::vector<std::size_t> xShape() const { return {batch, chans, kField, kField}; }
  std::vector<std::size_t> wShape() const { return {kOutChans, chans, kKernel, kKernel}; }
  std::vector<std::size_t> yShape() const { return {batch, kOutChans, kField, kField}; }
};

struct StepResult {
  std::vector<float> dx, w;
  std::uint64_t cycles;
  double runSeconds;
};

std::vector<std::int64_t> ints(const std::vector<std::size_t> &s) {
  return std::vector<std::int64_t>(s.begin(), s.end());
}

/// The step through PopXL; `compileSeconds` is the Session's construction.
StepResult popxlStep(const StepData &d, double &compileSeconds) {
  using namespace popxl;
  Ir ir;
  const TensorSpec xSpec{ints(d.xShape()), DType::Float32}, wSpec{ints(d.wShape()), DType::Float32};
  const GraphId layer = ir.createGraph("conv_layer");
  const TensorId gx = ir.addGraphInput(layer, "x", xSpec), gw = ir.addGraphInput(layer, "w", wSpec);
  const std::int64_t pad = kKernel / 2;
  const Attributes conv{{"stride", std::vector<std::int64_t>{1, 1}},
                        {"padding", std::vector<std::int64_t>{pad, pad, pad, pad}},
                        {"dilation", std::vector<std::int64_t>{1, 1}},
                        {"groups", std::int64_t(1)}};
  ir.addGraphOutput(layer, ir.createOp(layer, "conv", {gx, gw}, conv, "conv").at(0));
  const GradGraphInfo grad = autodiff(ir, layer, {}, {gx, gw});

  const GraphId main = ir.mainGraph();
  const TensorId x = ir.addVariable(main, "x", xSpec, bytesOf(d.x));
  const TensorId w = ir.addVariable(main, "w", wSpec, bytesOf(d.w));
  const TensorId dy = ir.addVariable(main, "dy", {ints(d.yShape()), DType::Float32}, bytesOf(d.dy));
  const auto fwdOuts = ir.createOp(main, "call", {x, w}, {}, "fwd", {layer});
  std::vector<TensorId> gradIns;
  for (const auto &e : grad.expectedInputs) {
    const auto &outs = ir.graph(layer).outputs;
    if (e.isGrad)
      gradIns.push_back(dy);
    else if (e.fwd == gx || e.fwd == gw)
      gradIns.push_back(e.fwd == gx ? x : w);
    else
      gradIns.push_back(
          fwdOuts.at(std::size_t(std::find(outs.begin(), outs.end(), e.fwd) - outs.begin())));
  }
  const auto grads = ir.createOp(main, "call", gradIns, {}, "bwd", {grad.graph});
  const StreamId dxOut = ir.addStream("dx", xSpec, false);
  ir.createOp(main, "host_store", {grads.at(0)}, {{"stream", std::int64_t(dxOut)}}, "dx");
  ir.createOp(main, "scaled_add_", {w, grads.at(1)}, {{"a", 1.0}, {"b", double(-kLearningRate)}},
              "sgd");

  auto compileStart = Clock::now();
  Session session(ir, "ipu_model");
  compileSeconds = secondsSince(compileStart);
  StepResult r;
  auto start = Clock::now();
  r.dx = floatsOf(session.run({}).at(dxOut));
  r.runSeconds = secondsSince(start);
  r.cycles = session.lastRunCycles();
  r.w = floatsOf(session.tensorData(w));
  return r;
}

/// The step written against poplin, with its planned layouts.
StepResult poplibsStep(const StepData &d) {
  Device device = IPUModel("ipu2").createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  const unsigned pad = kKernel / 2;
  poplin::ConvParams::InputTransform in(2);
  in.paddingLower = {pad, pad};
  in.paddingUpper = {pad, pad};
  const poplin::ConvParams params(FLOAT, FLOAT, d.batch, {kField, kField}, {kKernel, kKernel},
                                  d.chans, kOutChans, 1, in, poplin::ConvParams::InputTransform(2),
                                  poplin::ConvParams::OutputTransform(2));
  program::Sequence prog;
  Tensor x = poplin::createInput(graph, params, "x");
  Tensor w = poplin::createWeights(graph, params, "w");
  Tensor dy = poplin::createConvOutput(graph, params, "dy");
  poplin::convolution(graph, x, w, params, false, prog, "fwd", {{"pass", "TRAINING_FWD"}});
  Tensor dx = poplin::convolution(graph, dy, w, poplin::getGradientParams(params), true, prog,
                                  "bwd", {{"pass", "TRAINING_BWD"}});
  poplin::convolutionWeightUpdate(graph, dy, w, x, params, -kLearningRate, prog, "wu",
                                  {{"pass", "TRAINING_WU"}});
  for (auto [name, t] : {std::pair<const char *, Tensor>{"x", x}, {"w", w}, {"dy", dy}})
    graph.createHostWrite(name, t);
  graph.createHostRead("dx", dx);
  graph.createHostRead("w_out", w);
  Engine engine(graph, prog);
  engine.load(device);
  // With one group, poplin's weights [1, out, in, kernel...] hold popxl's [out, in, kernel...].
  auto write = [&](const char *name, const std::vector<float> &v) {
    engine.writeTensor(name, v.data(), v.data() + v.size());
  };
  write("x", d.x);
  write("w", d.w);
  write("dy", d.dy);
  StepResult r;
  auto start = Clock::now();
  engine.run(0);
  r.runSeconds = secondsSince(start);
  r.cycles = engine.getLastRunCycles();
  r.dx.resize(d.x.size());
  r.w.resize(d.w.size());
  engine.readTensor("dx", r.dx.data(), r.dx.data() + r.dx.size());
  engine.readTensor("w_out", r.w.data(), r.w.data() + r.w.size());
  return r;
}

bool close(const std::vector<float> &a, const std::vector<float> &b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::fabs(a[i] - b[i]) > 1e-3f * std::max(1.0f, std::fabs(b[i])))
      return false;
  return a.size() == b.size();
}

void BM_ConvTrainingStep(benchmark::State &state) {
  StepData d;
  d.batch = std::size_t(state.range(0));
  d.chans = std::size_t(state.range(1));
  auto count = [](const std::vector<std::size_t> &s) {
    std::size_t n = 1;
    for (auto v : s)
      n *= v;
    return n;
  };
  d.x = values(count(d.xShape()), 1);
  d.w = values(count(d.wShape()), 2);
  d.dy = values(count(d.yShape()), 3);
  double compileSeconds = 0;
  StepResult px, pl;
  for (auto _ : state) {
    px = popxlStep(d, compileSeconds);
    pl = poplibsStep(d);
    state.SetIterationTime(px.runSeconds);
  }
  if (!close(px.dx, pl.dx) || !close(px.w, pl.w)) {
    state.SkipWithError("popxl and poplin steps differ");
    return;
  }
  state.counters["popxl_cycles"] = double(px.cycles);
  state.counters["poplibs_cycles"] = double(pl.cycles);
  state.counters["cycles_ratio"] = double(px.cycles) / double(pl.cycles);
  state.counters["popxl_ms"] = px.runSeconds * 1e3;
  state.counters["poplibs_ms"] = pl.runSeconds * 1e3;
  state.counters["compile_s"] = compileSeconds;
}

} // namespace

// batch, input channels: the first layer of a Fashion-MNIST CNN, and a layer deeper in.
BENCHMARK(BM_ConvTrainingStep)
    ->ArgNames({"batch", "chans"})
    ->Args({32, 1})
    ->Args({8, 16})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
