// Field binding tests: alignment, lists, state members, data sections, virtual graphs, executables.
//
// Vertices from codelets/Layout.cpp: alignment through copies, InOut lists with remote and
// fragmented elements, narrow and vector state members, two objects' data sections on one tile,
// supervisor vertices, virtual graphs and codelets inside a serialised executable.
#include "CodeletSources.hpp"
#include "VertexTester.hpp"

#include <poplar/Engine.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>

#include <gtest/gtest.h>

#include <numeric>
#include <sstream>

using namespace popsdk::test;
using namespace poplar;
using namespace poplar::program;

namespace {

const std::string kLayout = codeletPath("Layout.cpp");
const std::string kShapes = codeletPath("Shapes.cpp");

} // namespace

namespace {

struct AlignedSumRun {
  float result = 0;
  std::uint64_t cycles = 0;
};

/// Runs AlignedSum on tile 0 over the 7 elements of `f` and `h` from `start` (variables of
/// `graph`, whose host values are `fHost` and `hHost`) into a scalar made after them.
AlignedSumRun runAlignedSum(Device &device, Graph &graph, const Tensor &f, const Tensor &h,
                            unsigned start, const std::vector<float> &fHost,
                            const std::vector<std::uint16_t> &hHost) {
  Tensor out = graph.addVariable(FLOAT, {}, "out");
  for (const Tensor &t : {f, h, out})
    graph.setTileMapping(t, 0);
  ComputeSet cs = graph.addComputeSet("aligned");
  VertexRef v = graph.addVertex(cs, "AlignedSum");
  graph.connect(v["in"], f.slice(start, start + 7));
  graph.connect(v["halves"], h.slice(start, start + 7));
  graph.connect(v["out"], out);
  graph.setTileMapping(v, 0);
  graph.createHostWrite("f", f);
  graph.createHostWrite("h", h);
  graph.createHostRead("out", out);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  engine.writeTensor("f", fHost.data(), fHost.data() + fHost.size());
  engine.writeTensor("h", hHost.data(), hHost.data() + hHost.size());
  engine.run(0);
  AlignedSumRun run;
  engine.readTensor("out", &run.result, &run.result + 1);
  run.cycles = engine.getLastRunCycles();
  return run;
}

} // namespace

// The vertex returns false if a field asking for 8-byte alignment is not 8-byte aligned; slices
// starting 4 (float) or 2, 4, 6 (half) bytes into a variable must be copied to aligned buffers.
TEST(Layout, AlignmentIsHonouredThroughCopies) {
  for (unsigned start = 0; start < 4; ++start) {
    SCOPED_TRACE("start " + std::to_string(start));
    Device device = testDevice(4);
    Graph graph(device.getTarget());
    graph.addCodelets(kLayout);
    Tensor f = graph.addVariable(FLOAT, {12}, "f"), h = graph.addVariable(HALF, {12}, "h");
    std::vector<float> fHost(12);
    std::iota(fHost.begin(), fHost.end(), 1.0f);
    std::vector<std::uint16_t> hHost(12);
    for (unsigned i = 0; i < 12; ++i)
      hHost[i] = floatToHalf(0.5f * float(i));
    AlignedSumRun run;
    ASSERT_NO_THROW(run = runAlignedSum(device, graph, f, h, start, fHost, hHost));
    float expected = 0;
    for (unsigned i = start; i < start + 7; ++i)
      expected += fHost[i] + 0.5f * float(i);
    EXPECT_EQ(run.result, expected);
  }
}

// A whole variable connected to a field asking for 8-byte alignment is placed to suit it, so it
// is read in place wherever the variables before it end: the run costs the same after a 4-byte
// or an 8-byte variable (a misaligned one would be copied to a buffer first).
TEST(Layout, VariableIsPlacedToSuitItsVerticesAlignment) {
  std::vector<std::uint64_t> cycles;
  for (std::size_t padding : {1u, 2u}) {
    Device device = testDevice(4);
    Graph graph(device.getTarget());
    graph.addCodelets(kLayout);
    Tensor pad = graph.addVariable(FLOAT, {padding}, "pad");
    graph.setTileMapping(pad, 0);
    Tensor f = graph.addVariable(FLOAT, {7}, "f"), h = graph.addVariable(HALF, {7}, "h");
    AlignedSumRun run;
    ASSERT_NO_THROW(run = runAlignedSum(device, graph, f, h, 0, std::vector<float>(7, 1.0f),
                                        std::vector<std::uint16_t>(7, floatToHalf(0.5f))));
    EXPECT_EQ(run.result, 7 * 1.5f);
    cycles.push_back(run.cycles);
  }
  EXPECT_EQ(cycles[0], cycles[1]);
}

// An InOut VectorList whose vectors live locally, on another tile, reversed, and empty: each is
// copied in and out as needed and written back in place.
TEST(Layout, InOutVectorListWithRemoteAndFragmentedElements) {
  Device device = testDevice(4);
  Graph graph(device.getTarget());
  graph.addCodelets(kLayout);
  // Vectors: local, on another tile, reversed, empty, and a concat across two tiles.
  std::vector<std::pair<Tensor, unsigned>> vars;
  for (auto [n, tile] : {std::pair{5u, 1u}, {3u, 3u}, {4u, 1u}, {0u, 1u}, {2u, 0u}, {1u, 1u}}) {
    vars.emplace_back(graph.addVariable(INT, {n}, "v" + std::to_string(vars.size())), n);
    graph.setTileMapping(vars.back().first, tile);
  }
  ComputeSet cs = graph.addComputeSet("lists");
  VertexRef v = graph.addVertex(cs, "ListNegate");
  graph.connect(v["lists"], {vars[0].first, vars[1].first, vars[2].first.reverse(0), vars[3].first,
                             concat(vars[4].first, vars[5].first)});
  graph.setTileMapping(v, 1);
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if (vars[i].second == 0)
      continue;
    graph.createHostWrite("w" + std::to_string(i), vars[i].first);
    graph.createHostRead("r" + std::to_string(i), vars[i].first);
  }
  Engine engine(graph, Execute(cs));
  engine.load(device);
  int next = 1;
  std::vector<std::vector<int>> values(vars.size());
  for (std::size_t i = 0; i < vars.size(); ++i) {
    for (unsigned k = 0; k < vars[i].second; ++k)
      values[i].push_back(next++);
    if (!values[i].empty())
      engine.writeTensor("w" + std::to_string(i), values[i].data(),
                         values[i].data() + values[i].size());
  }
  engine.run(0);
  for (std::size_t i = 0; i < vars.size(); ++i) {
    std::vector<int> got(values[i].size());
    if (!got.empty())
      engine.readTensor("r" + std::to_string(i), got.data(), got.data() + got.size());
    for (auto &x : values[i])
      x = -x;
    EXPECT_EQ(got, values[i]) << "variable " << i;
  }
}

TEST(Layout, NarrowStateMembers) {
  auto r = VertexTester(kLayout, "Ramp")
               .output("out", FLOAT, 6)
               .state("step", HALF, 0.25)
               .state("count", UNSIGNED_SHORT, 4)
               .state("offset", UNSIGNED_CHAR, 200)
               .run();
  EXPECT_EQ(r.output("out"), (std::vector<double>{200, 200.25, 200.5, 200.75, -1, -1}));
}

// Two codelet objects with data sections (lookup tables) used on the same tile, loaded in
// either order: each vertex must find its own object's table.
TEST(Layout, TwoObjectsWithTablesOnOneTile) {
  for (bool shapesFirst : {true, false}) {
    SCOPED_TRACE(shapesFirst ? "Shapes.cpp first" : "Layout.cpp first");
    Device device = testDevice(4);
    Graph graph(device.getTarget());
    graph.addCodelets(shapesFirst ? kShapes : kLayout);
    graph.addCodelets(shapesFirst ? kLayout : kShapes);
    Tensor in = graph.addVariable(UNSIGNED_INT, {4}, "in");
    Tensor bits = graph.addVariable(UNSIGNED_INT, {4}, "bits");
    Tensor cubes = graph.addVariable(INT, {4}, "cubes");
    for (const auto &t : {in, bits, cubes})
      graph.setTileMapping(t, 2);
    ComputeSet cs = graph.addComputeSet("tables");
    VertexRef p = graph.addVertex(cs, "PopcountVertex", {{"in", in}, {"out", bits}});
    VertexRef c = graph.addVertex(cs, "CubeDigits", {{"in", in}, {"out", cubes}});
    graph.setTileMapping(p, 2);
    graph.setTileMapping(c, 2);
    graph.createHostWrite("in", in);
    graph.createHostRead("bits", bits);
    graph.createHostRead("cubes", cubes);
    Engine engine(graph, Execute(cs));
    engine.load(device);
    std::vector<unsigned> inHost{0, 7, 255, 0xffffffffu}, bitsHost(4);
    std::vector<int> cubesHost(4);
    engine.writeTensor("in", inHost.data(), inHost.data() + 4);
    engine.run(0);
    engine.readTensor("bits", bitsHost.data(), bitsHost.data() + 4);
    engine.readTensor("cubes", cubesHost.data(), cubesHost.data() + 4);
    EXPECT_EQ(bitsHost, (std::vector<unsigned>{0, 3, 8, 32}));
    EXPECT_EQ(cubesHost, (std::vector<int>{0, 343, 125, 125})); // last digits 0, 7, 5, 5
  }
}

TEST(Layout, SupervisorVertexRuns) {
  auto in = hostData(INT, 64, -1000, 1000);
  auto r =
      VertexTester(kLayout, "SupervisorCopy").input("in", INT, in).output("out", INT, 64).run();
  std::vector<double> expected;
  for (double v : in)
    expected.push_back(v + 1);
  EXPECT_EQ(r.output("out"), expected);
  EXPECT_GT(r.threadCycles, 64u);
}

// The codelet objects travel inside a serialised executable: a deserialised engine runs the
// vertices with no codelet source or cache at hand.
TEST(Layout, SerialisedExecutableCarriesTheCodelets) {
  std::stringstream blob;
  std::uint64_t cycles = 0;
  auto in = hostData(UNSIGNED_INT, 16, 0, 1e9);
  std::vector<unsigned> inHost(in.begin(), in.end()), first(16), second(16);
  {
    Device device = testDevice(4);
    Graph graph(device.getTarget());
    graph.addCodelets(kShapes);
    Tensor x = graph.addVariable(UNSIGNED_INT, {16}, "x"),
           y = graph.addVariable(UNSIGNED_INT, {16}, "y");
    graph.setTileMapping(x, 1);
    graph.setTileMapping(y, 1);
    ComputeSet cs = graph.addComputeSet("popcount");
    VertexRef v = graph.addVertex(cs, "PopcountVertex", {{"in", x}, {"out", y}});
    graph.setTileMapping(v, 1);
    graph.createHostWrite("x", x);
    graph.createHostRead("y", y);
    Executable exe = compileGraph(graph, {Execute(cs)});
    exe.serialize(blob);
    Engine engine(std::move(exe));
    engine.load(device);
    engine.writeTensor("x", inHost.data(), inHost.data() + 16);
    engine.run(0);
    engine.readTensor("y", first.data(), first.data() + 16);
    cycles = engine.getLastRunCycles();
  }
  Device device = testDevice(4);
  Engine engine(Executable::deserialize(blob));
  engine.load(device);
  engine.writeTensor("x", inHost.data(), inHost.data() + 16);
  engine.run(0);
  engine.readTensor("y", second.data(), second.data() + 16);
  EXPECT_EQ(second, first);
  EXPECT_EQ(engine.getLastRunCycles(), cycles);
  for (unsigned i = 0; i < 16; ++i)
    EXPECT_EQ(first[i], unsigned(__builtin_popcount(inHost[i])));
}

// Inputs bound to a constant, to a broadcast scalar (every element the same address) and to a
// slice of the vertex's own output variable's neighbour: all read through the right bytes.
TEST(Layout, ConstantAndBroadcastInputs) {
  Device device = testDevice(4);
  Graph graph(device.getTarget());
  graph.addCodelets(kShapes);
  Tensor k = graph.addConstant<float>(FLOAT, {4}, {1.5f, -2.0f, 0.25f, 8.0f});
  graph.setTileMapping(k, 0);
  Tensor s = graph.addVariable(FLOAT, {}, "s");
  graph.setTileMapping(s, 2);
  graph.setInitialValue(s, 0.75f);
  Tensor out = graph.addVariable(FLOAT, {2}, "out");
  graph.setTileMapping(out, 1);
  ComputeSet cs = graph.addComputeSet("inputs");
  VertexRef a = graph.addVertex(cs, "DotProductVertex");
  graph.connect(a["a"], k);
  graph.connect(a["b"], s.reshape({1}).broadcast(4, 0));
  graph.connect(a["out"], out[0]);
  graph.setTileMapping(a, 1);
  VertexRef b = graph.addVertex(cs, "SumVertex", {{"in", k.slice(1, 3)}, {"out", out[1]}});
  graph.setTileMapping(b, 0);
  graph.createHostRead("out", out);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  engine.run(0);
  std::vector<float> host(2);
  engine.readTensor("out", host.data(), host.data() + 2);
  EXPECT_EQ(host, (std::vector<float>{0.75f * (1.5f - 2.0f + 0.25f + 8.0f), -1.75f}));
}

// Copy-out lands before the next step: a chain of compute sets through data on other tiles,
// repeated, with an InOut accumulating across iterations.
TEST(Layout, CopiedOutDataFeedsTheNextComputeSet) {
  Device device = testDevice(4);
  Graph graph(device.getTarget());
  graph.addCodelets(kShapes);
  Tensor x = graph.addVariable(FLOAT, {8}, "x"), y = graph.addVariable(FLOAT, {8}, "y");
  Tensor acc = graph.addVariable(FLOAT, {8}, "acc");
  graph.setTileMapping(x, 0);
  graph.setTileMapping(y.slice(0, 4), 1);
  graph.setTileMapping(y.slice(4, 8), 2);
  graph.setTileMapping(acc, 3);
  graph.setInitialValue(acc, ArrayRef<float>(std::vector<float>(8, 0.0f)));
  ComputeSet scale = graph.addComputeSet("scale"), accumulate = graph.addComputeSet("acc");
  VertexRef s = graph.addVertex(scale, "Scale<float>", {{"in", x}, {"out", y}}); // y: 2 tiles
  graph.setInitialValue(s["factor"], 2.0f);
  graph.setTileMapping(s, 0);
  VertexRef a = graph.addVertex(accumulate, "AccumulateVertex", {{"in", y}, {"acc", acc}});
  graph.setTileMapping(a, 2); // acc on tile 3: copied in and out every iteration
  graph.createHostWrite("x", x);
  graph.createHostRead("acc", acc);
  Engine engine(graph, Repeat(5, Sequence{Execute(scale), Execute(accumulate)}));
  engine.load(device);
  std::vector<float> xHost{1, 2, 3, 4, -1, -2, -3, -4}, accHost(8);
  engine.writeTensor("x", xHost.data(), xHost.data() + 8);
  engine.run(0);
  engine.readTensor("acc", accHost.data(), accHost.data() + 8);
  for (unsigned i = 0; i < 8; ++i)
    EXPECT_EQ(accHost[i], 10.0f * xHost[i]) << i;
}

// The last tile of a full-size ipu2 and a vector filling most of a tile's memory.
TEST(Layout, LastTileOfAFullIpuAndALargeVector) {
  IPUModel model("ipu2");
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets(kShapes);
  unsigned last = device.getTarget().getNumTiles() - 1;
  constexpr std::size_t n = 120000; // 480,000 of the tile's 638,976 bytes
  Tensor in = graph.addVariable(FLOAT, {n}, "in"), out = graph.addVariable(FLOAT, {}, "out");
  graph.setTileMapping(in, last);
  graph.setTileMapping(out, last);
  graph.setInitialValue(in, ArrayRef<float>(std::vector<float>(n, 0.5f)));
  ComputeSet cs = graph.addComputeSet("big");
  VertexRef v = graph.addVertex(cs, "SumVertex", {{"in", in}, {"out", out}});
  graph.setTileMapping(v, last);
  graph.createHostRead("out", out);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  engine.run(0);
  float sum = 0;
  engine.readTensor("out", &sum, &sum + 1);
  EXPECT_EQ(sum, 0.5f * float(n));
}

// A vertex added through a virtual graph runs on the virtual graph's tiles: tile 0 of a
// [2, 4) virtual graph is tile 2.
TEST(Layout, VertexInAVirtualGraph) {
  Device device = testDevice(4);
  Graph top(device.getTarget());
  Graph sub = top.createVirtualGraph(2, 4);
  sub.addCodelets(kShapes);
  Tensor in = sub.addVariable(FLOAT, {5}, "in"), out = sub.addVariable(FLOAT, {}, "out");
  sub.setTileMapping(in, 1);  // tile 3
  sub.setTileMapping(out, 0); // tile 2
  ComputeSet cs = sub.addComputeSet("virtual");
  VertexRef v = sub.addVertex(cs, "SumVertex", {{"in", in}, {"out", out}});
  sub.setTileMapping(v, 0);
  EXPECT_EQ(sub.getTileMapping(v), 0u);
  EXPECT_EQ(top.getTileMapping(v), 2u);
  EXPECT_EQ(top.getTileMapping(out)[2].size(), 1u);
  sub.createHostWrite("in", in);
  sub.createHostRead("out", out);
  Engine engine(top, Execute(cs));
  engine.load(device);
  std::vector<float> inHost{1, 2, 3, 4, 5.5f};
  engine.writeTensor("in", inHost.data(), inHost.data() + 5);
  engine.run(0);
  float sum = 0;
  engine.readTensor("out", &sum, &sum + 1);
  EXPECT_EQ(sum, 15.5f);

  // Faults name the physical tile.
  sub.addCodelets(codeletPath("Faults.cpp"));
  ComputeSet bad = sub.addComputeSet("bad");
  Tensor flag = sub.addVariable(INT, {}, "flag");
  sub.setTileMapping(flag, 1);
  sub.setInitialValue(flag, 13);
  VertexRef t = sub.addVertex(bad, "Trapping", {{"in", flag}});
  sub.setTileMapping(t, 1);
  Engine faulty(top, Execute(bad));
  faulty.load(device);
  try {
    faulty.run(0);
    ADD_FAILURE() << "no fault";
  } catch (const application_runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find("on tile 3 "), std::string::npos) << e.what();
  }
}

// Regression: a Vector state member (not an edge) was rejected at compile time ("not supported
// yet") although docs/gp-format.md and popc support it.
TEST(Layout, VectorAndBoolStateMembers) {
  for (bool negate : {false, true}) {
    for (std::vector<float> coeffs :
         {std::vector<float>{}, {2.5f}, {1.0f, -2.0f, 0.5f}, {0, 0, 0, 0, 0, 0, 0, 1}}) {
      SCOPED_TRACE(std::to_string(coeffs.size()) + " coefficients");
      Device device = testDevice(4);
      Graph graph(device.getTarget());
      graph.addCodelets(kLayout);
      Tensor in = graph.addVariable(FLOAT, {4}, "in"), out = graph.addVariable(FLOAT, {4}, "out");
      graph.setTileMapping(in, 1);
      graph.setTileMapping(out, 1);
      graph.setInitialValue(in, ArrayRef<float>{0.0f, 1.0f, -2.0f, 0.5f});
      ComputeSet cs = graph.addComputeSet("poly");
      VertexRef v = graph.addVertex(cs, "Polynomial", {{"in", in}, {"out", out}});
      graph.setTileMapping(v, 1);
      if (!coeffs.empty())
        graph.setInitialValue(v["coeffs"], ArrayRef<float>(coeffs));
      graph.setInitialValue(v["negate"], negate);
      graph.createHostRead("out", out);
      Engine engine(graph, Execute(cs));
      engine.load(device);
      engine.run(0);
      std::vector<float> got(4);
      engine.readTensor("out", got.data(), got.data() + 4);
      for (unsigned i = 0; i < 4; ++i) {
        float x = std::vector<float>{0.0f, 1.0f, -2.0f, 0.5f}[i], y = 0;
        for (std::size_t k = coeffs.size(); k-- > 0;)
          y = y * x + coeffs[k];
        EXPECT_EQ(got[i], negate ? -y : y) << "x = " << x;
      }
    }
  }
}
