// The Session's layout pass: a tensor no op makes (variable, constant, called graph's input)
// takes the layout of the first op that prefers one for it (a matmul operand's is poplin's
// createMatMulInputLHS/RHS), through views and calls; an inlined graph's inputs take no tile
// memory of their own; results stay right.
#include "TestEnvironment.hpp"

#include <popxl/Ir.hpp>
#include <popxl/Session.hpp>

#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poputil/TileMapping.hpp>
#include <pva/pva.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace popxl;

namespace {

using Mapping = std::vector<std::vector<poplar::Interval>>;

constexpr std::size_t kM = 8, kK = 512, kN = 512;
// The layouts under test spread tensors over tiles: the Sessions run on a whole ipu2 model ("cpu"
// is one tile, where every layout is the same).
constexpr const char *kDevice = "ipu_model";

std::vector<float> ramp(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = scale * float(int(i % 17) - 8);
  return v;
}

std::vector<std::uint8_t> bytes(const std::vector<float> &v) {
  std::vector<std::uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<float> floats(const std::vector<std::uint8_t> &b) {
  std::vector<float> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

/// Row-major [m, k] x [k, n] on the host.
std::vector<float> product(const std::vector<float> &a, const std::vector<float> &b, std::size_t m,
                           std::size_t k, std::size_t n) {
  std::vector<float> c(m * n, 0.0f);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p)
      for (std::size_t j = 0; j < n; ++j)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

/// The tile mapping poplin gives a matmul operand on the tests' Session device (a whole ipu2),
/// created alone in a graph of its own; `transposed` views it back as [N, K].
Mapping poplinLayout(bool rhs, std::vector<std::size_t> a, std::vector<std::size_t> b,
                     bool transposed = false) {
  poplar::IPUModel model("ipu2");
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  poplar::Tensor t = rhs ? poplin::createMatMulInputRHS(graph, poplar::FLOAT, a, b, "rhs")
                         : poplin::createMatMulInputLHS(graph, poplar::FLOAT, a, b, "lhs");
  return graph.getTileMapping(transposed ? t.transpose() : t);
}

Mapping linearLayout(std::vector<std::size_t> shape) {
  poplar::IPUModel model("ipu2");
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  poplar::Tensor t = graph.addVariable(poplar::FLOAT, shape, "linear");
  poputil::mapTensorLinearly(graph, t);
  return graph.getTileMapping(t);
}

void expectNear(const std::vector<float> &got, const std::vector<float> &want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-3f * (1.0f + std::fabs(want[i]))) << "element " << i;
}

/// A main graph reading x [kM, kK] from a stream and writing one result to another.
struct Program {
  Ir ir;
  GraphId main = ir.mainGraph();
  StreamId xStream =
      ir.addStream("x", {{std::int64_t(kM), std::int64_t(kK)}, DType::Float32}, true);
  std::vector<float> x = ramp(kM * kK, 0.01f);

  TensorId op(GraphId g, const std::string &type, const std::vector<TensorId> &in,
              const Attributes &attrs = {}, const std::vector<GraphId> &called = {}) {
    return ir.createOp(g, type, in, attrs, type, called).at(0);
  }
  TensorId load() { return op(main, "host_load", {}, {{"stream", std::int64_t(xStream)}}); }
  StreamId store(TensorId t) {
    const StreamId s = ir.addStream("out" + std::to_string(t), ir.tensor(t).spec, false);
    ir.createOp(main, "host_store", {t}, {{"stream", std::int64_t(s)}}, "store");
    return s;
  }
  std::vector<float> run(Session &session, StreamId out) {
    return floats(session.run({{xStream, bytes(x)}}).at(out));
  }
};

/// The profile of the Session's program (written by its Engine).
pva::Report profileOf(const Ir &ir) {
  popsdk::test::ScopedTempDir dir("popxl-layout");
  {
    popsdk::test::ScopedEnvVar options(
        "POPLAR_ENGINE_OPTIONS",
        R"({"autoReport.outputGraphProfile": "true", "autoReport.directory": ")" + dir.path() +
            "\"}");
    Session session(ir, kDevice);
  }
  return pva::openReport(dir.path() + "/profile.pop");
}

/// What the Session's program takes of tile memory, summed over the tiles.
std::uint64_t tileMemoryBytes(const Ir &ir) {
  std::uint64_t bytes = 0;
  for (const pva::Tile &tile : profileOf(ir).compilation().tiles())
    bytes += tile.memory().total().excludingGaps();
  return bytes;
}

/// The names of the exchanges (copies) of the Session's program.
std::vector<std::string> exchangeNames(const Ir &ir) {
  std::vector<std::string> names;
  for (const auto &program : profileOf(ir).compilation().programs())
    if (program->type() == pva::Program::Type::DoExchange)
      names.push_back(program->name());
  return names;
}

/// relu(x) * 2, in `g`.
TensorId reluTimesTwo(Program &p, GraphId g, TensorId x) {
  const TensorId two = p.ir.addConstant(g, "two", {{}, DType::Float32}, bytes({2.0f}));
  return p.op(g, "mul", {p.op(g, "relu", {x}), two});
}

/// One model, written directly in the main graph or as a graph called once (lowered inline): x
/// a variable [kM, kK] made relu(x) * 2, then, loaded from the stream, times w [kK, kN].
struct TwoWays {
  Program p;
  const std::vector<float> w = ramp(kK * kN, 0.02f);
  TensorId x = p.ir.addVariable(p.main, "x", {{std::int64_t(kM), std::int64_t(kK)}, DType::Float32},
                                bytes(p.x));
  TensorId wt = p.ir.addVariable(p.main, "w",
                                 {{std::int64_t(kK), std::int64_t(kN)}, DType::Float32}, bytes(w));
  StreamId relu, product;

  explicit TwoWays(bool called) {
    if (!called) {
      relu = p.store(reluTimesTwo(p, p.main, x));
      product = p.store(p.op(p.main, "matmul", {p.load(), wt}));
      return;
    }
    const GraphId body = p.ir.createGraph("body");
    const TensorId gx = p.ir.addGraphInput(body, "x", p.ir.tensor(x).spec);
    const TensorId gl = p.ir.addGraphInput(body, "loaded", p.ir.tensor(x).spec);
    const TensorId gw = p.ir.addGraphInput(body, "w", p.ir.tensor(wt).spec);
    p.ir.addGraphOutput(body, reluTimesTwo(p, body, gx));
    p.ir.addGraphOutput(body, p.op(body, "matmul", {gl, gw}));
    const std::vector<TensorId> outs =
        p.ir.createOp(p.main, "call", {x, p.load(), wt}, {}, "call", {body});
    relu = p.store(outs.at(0));
    product = p.store(outs.at(1));
  }
};

} // namespace

TEST(PopxlLayout, AnInlinedGraphsInputsTakeNoTileMemoryOfTheirOwn) {
  EXPECT_EQ(tileMemoryBytes(TwoWays(true).p.ir), tileMemoryBytes(TwoWays(false).p.ir));
}

TEST(PopxlLayout, AnInlinedGraphsInputPassesItsConsumersLayoutToTheCallersTensor) {
  TwoWays model(true);
  Session session(model.p.ir, kDevice);
  EXPECT_EQ(session.tileMapping(model.wt), poplinLayout(true, {kM, kK}, {kK, kN}));
  const auto outs = session.run({{model.p.xStream, bytes(model.p.x)}});
  std::vector<float> relu(model.p.x.size());
  for (std::size_t i = 0; i < relu.size(); ++i)
    relu[i] = std::max(model.p.x[i], 0.0f) * 2.0f;
  expectNear(floats(outs.at(model.relu)), relu);
  expectNear(floats(outs.at(model.product)), product(model.p.x, model.w, kM, kK, kN));
}

TEST(PopxlLayout, MatMulVariableOperandTakesCreateMatMulInputRHSLayout) {
  Program p;
  const std::vector<float> w = ramp(kK * kN, 0.02f);
  const TensorId wt = p.ir.addVariable(
      p.main, "w", {{std::int64_t(kK), std::int64_t(kN)}, DType::Float32}, bytes(w));
  const StreamId out = p.store(p.op(p.main, "matmul", {p.load(), wt}));
  Session session(p.ir, kDevice);
  EXPECT_EQ(session.tileMapping(wt), poplinLayout(true, {kM, kK}, {kK, kN}));
  EXPECT_NE(session.tileMapping(wt), linearLayout({kK, kN}));
  expectNear(p.run(session, out), product(p.x, w, kM, kK, kN));
}

TEST(PopxlLayout, OperandReadThroughTransposeTakesTheTransposedLayout) {
  // y = x @ w.T with w [kN, kK]: w is laid out as the RHS [kK, kN] viewed back.
  Program p;
  const std::vector<float> w = ramp(kN * kK, 0.03f);
  const TensorId wt = p.ir.addVariable(
      p.main, "w", {{std::int64_t(kN), std::int64_t(kK)}, DType::Float32}, bytes(w));
  const TensorId wT =
      p.op(p.main, "transpose", {wt}, {{"permutation", std::vector<std::int64_t>{1, 0}}});
  const StreamId out = p.store(p.op(p.main, "matmul", {p.load(), wT}));
  Session session(p.ir, kDevice);
  EXPECT_EQ(session.tileMapping(wt), poplinLayout(true, {kM, kK}, {kK, kN}, true));
  std::vector<float> wTransposed(w.size());
  for (std::size_t i = 0; i < kN; ++i)
    for (std::size_t j = 0; j < kK; ++j)
      wTransposed[j * kN + i] = w[i * kK + j];
  expectNear(p.run(session, out), product(p.x, wTransposed, kM, kK, kN));
}

namespace {
/// x @ w and x @ w.T with w [kK, kK] a variable laid out by the first product: the second reads
/// it transposed, its rows contiguous.
struct SquareTwice {
  Program p;
  const std::vector<float> w = ramp(kK * kK, 0.02f);
  TensorId wt = p.ir.addVariable(p.main, "w",
                                 {{std::int64_t(kK), std::int64_t(kK)}, DType::Float32}, bytes(w));
  TensorId x = p.load();
  StreamId first = p.store(p.op(p.main, "matmul", {x, wt}));
  TensorId wT = p.op(p.main, "transpose", {wt}, {{"permutation", std::vector<std::int64_t>{1, 0}}});
  StreamId second = p.store(p.op(p.main, "matmul", {x, wT}));
};
} // namespace

TEST(PopxlLayout, WeightReadTransposedIsReadWhereItLiesNotCopiedIntoThePlansLayout) {
  // (w.T as the right operand, its elements in runs of one) x @ w.T is computed as (w @ x.T).T:
  // w is the left operand in its own orientation, so no copy arranges it into the plan's layout
  // (x, read transposed, may be).
  SquareTwice t;
  const std::vector<std::string> exchanges = exchangeNames(t.p.ir);
  const auto arranged = [&](TensorId operand) {
    return std::count(exchanges.begin(), exchanges.end(),
                      "matmul/arranged/" + t.p.ir.tensor(operand).name);
  };
  EXPECT_EQ(arranged(t.wT), 0);
  EXPECT_EQ(arranged(t.x), 1); // the name the check looks for is the one the lowering gives

  Session session(t.p.ir, kDevice);
  const auto outs = session.run({{t.p.xStream, bytes(t.p.x)}});
  std::vector<float> wTransposed(t.w.size());
  for (std::size_t i = 0; i < kK; ++i)
    for (std::size_t j = 0; j < kK; ++j)
      wTransposed[j * kK + i] = t.w[i * kK + j];
  expectNear(floats(outs.at(t.first)), product(t.p.x, t.w, kM, kK, kK));
  expectNear(floats(outs.at(t.second)), product(t.p.x, wTransposed, kM, kK, kK));
}

TEST(PopxlLayout, CalledGraphInputTakesItsConsumersLayoutAndPassesItToTheCaller) {
  Program p;
  const GraphId layer = p.ir.createGraph("layer");
  const TensorId gx =
      p.ir.addGraphInput(layer, "x", {{std::int64_t(kM), std::int64_t(kK)}, DType::Float32});
  const TensorId gw =
      p.ir.addGraphInput(layer, "w", {{std::int64_t(kK), std::int64_t(kN)}, DType::Float32});
  p.ir.addGraphOutput(layer, p.op(layer, "matmul", {gx, gw}));
  const std::vector<float> w = ramp(kK * kN, 0.02f), v = ramp(kK * kN, 0.05f);
  const TensorSpec spec{{std::int64_t(kK), std::int64_t(kN)}, DType::Float32};
  const TensorId wt = p.ir.addVariable(p.main, "w", spec, bytes(w));
  // v is updated in place (an optimiser's variable): it keeps a linear layout, and the call
  // copies it into the graph's.
  const TensorId vt = p.ir.addVariable(p.main, "v", spec, bytes(v));
  const TensorId x = p.load();
  const StreamId outW = p.store(p.op(p.main, "call", {x, wt}, {}, {layer}));
  const StreamId outV = p.store(p.op(p.main, "call", {x, vt}, {}, {layer}));
  p.ir.createOp(p.main, "accumulator_scale_", {vt}, {{"f", 2.0}}, "scale");
  Session session(p.ir, kDevice);
  const Mapping rhs = poplinLayout(true, {kM, kK}, {kK, kN});
  EXPECT_EQ(session.tileMapping(gw), rhs);
  EXPECT_EQ(session.tileMapping(wt), rhs);
  EXPECT_EQ(session.tileMapping(vt), linearLayout({kK, kN}));
  const auto x0 = p.x;
  const auto outs = session.run({{p.xStream, bytes(x0)}});
  expectNear(floats(outs.at(outW)), product(x0, w, kM, kK, kN));
  // The call was made before the in-place scale, so it runs before it (Ir::schedule).
  expectNear(floats(outs.at(outV)), product(x0, v, kM, kK, kN));
}

TEST(PopxlLayout, TensorUsedByTwoOpsGetsTheFirstOnesLayoutAndBothResultsAreRight) {
  // w [kK, kN] is the RHS of x @ w, then (in sequence) the LHS of w @ u.
  Program p;
  const std::vector<float> w = ramp(kK * kN, 0.02f), u = ramp(kN * kM, 0.04f);
  const TensorId wt = p.ir.addVariable(
      p.main, "w", {{std::int64_t(kK), std::int64_t(kN)}, DType::Float32}, bytes(w));
  const TensorId ut = p.ir.addConstant(
      p.main, "u", {{std::int64_t(kN), std::int64_t(kM)}, DType::Float32}, bytes(u));
  StreamId first, second;
  {
    InSequence sequence(p.ir);
    first = p.store(p.op(p.main, "matmul", {p.load(), wt}));
    second = p.store(p.op(p.main, "matmul", {wt, ut}));
  }
  Session session(p.ir, kDevice);
  EXPECT_EQ(session.tileMapping(wt), poplinLayout(true, {kM, kK}, {kK, kN}));
  const auto outs = session.run({{p.xStream, bytes(p.x)}});
  expectNear(floats(outs.at(first)), product(p.x, w, kM, kK, kN));
  expectNear(floats(outs.at(second)), product(w, u, kK, kN, kM));
}
