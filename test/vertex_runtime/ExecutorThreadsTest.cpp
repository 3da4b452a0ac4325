// The executor's host threads and vertex tier never show: one program run with 1 to 8 threads,
// or with its vertices interpreted or on the native tier, gives the same bytes, simulated
// cycles, profile and errors; the thread count and tier options are checked.
//
// The program is large enough that its steps go to the worker pool (300 tiles of MultiVertex
// and uneven Vertex work, copies of 7,200 single-element runs, staged and not), so a race or an
// order that depends on the threads would change what is compared.
#include "CodeletSources.hpp"
#include "ProfileCycles.hpp"
#include "TestEnvironment.hpp"

#include <poplar/Engine.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace popsdk::test;
using namespace poplar;
using namespace poplar::program;

namespace {

constexpr unsigned kTiles = 300;
constexpr std::size_t kPerTile = 24;
constexpr unsigned kRepeats = 3;

/// Everything a run shows that could depend on the host threads.
struct Outcome {
  std::vector<float> a, c, sums; // final tensors
  std::vector<float> received;   // what the device-to-host stream delivered, every repeat
  std::uint64_t lastRunCycles = 0, totalCycles = 0;
  std::vector<std::uint64_t> tilePhases; // six phases of every tile, from the profile
  std::vector<std::uint64_t> typeCycles; // every vertex type's cycles, from the profile
  std::string summary;
};

OptionFlags withThreads(OptionFlags options, unsigned threads, const char *tier = "interpreter") {
  options.set("executor.hostThreads", std::to_string(threads));
  options.set("executor.vertexTier", tier);
  return options;
}

/// A [kTiles, kPerTile] float tensor, row t on tile t.
Tensor perTile(Graph &graph, const std::string &name) {
  Tensor t = graph.addVariable(FLOAT, {kTiles, kPerTile}, name);
  for (unsigned tile = 0; tile < kTiles; ++tile)
    graph.setTileMapping(t[tile], tile);
  return t;
}

/// `t` with its elements permuted: element (i, j) of the result is element (j, i) of t viewed
/// as [kPerTile, kTiles], so each element moves to another tile.
Tensor scattered(const Tensor &t) {
  return t.flatten().reshape({kPerTile, kTiles}).transpose().reshape({kTiles, kPerTile});
}

Outcome runWithThreads(unsigned threads, const char *tier = "interpreter") {
  Device device = testDevice(kTiles);
  Graph graph(device.getTarget());
  graph.addCodelets(codeletPath("Shapes.cpp"));
  Tensor a = perTile(graph, "a"), b = perTile(graph, "b"), c = perTile(graph, "c");
  Tensor sums = graph.addVariable(FLOAT, {kTiles}, "sums");
  ComputeSet add = graph.addComputeSet("add"), sum = graph.addComputeSet("sum");
  for (unsigned t = 0; t < kTiles; ++t) {
    graph.setTileMapping(sums[t], t);
    // b's row comes from the next tile: a copy-in before the compute set.
    auto v =
        graph.addVertex(add, "MultiAdd", {{"a", a[t]}, {"b", b[(t + 1) % kTiles]}, {"out", c[t]}});
    graph.setTileMapping(v, t);
    // Uneven work: tile t sums 1 to kPerTile elements.
    auto s = graph.addVertex(sum, "SumVertex",
                             {{"in", c[t].slice(0, t % kPerTile + 1)}, {"out", sums[t]}});
    graph.setTileMapping(s, t);
  }
  auto in = graph.addHostToDeviceFIFO("in", FLOAT, a.numElements());
  auto out = graph.addDeviceToHostFIFO("out", FLOAT, sums.numElements());
  graph.createHostWrite("b", b);
  for (const auto &[name, t] : {std::pair{"a", a}, {"c", c}, {"sums", sums}})
    graph.createHostRead(name, t);
  Sequence body{Copy(in, a),           Execute(add), Copy(c, scattered(a)),
                Copy(a, scattered(a)), Execute(sum), Copy(sums, out)};

  ScopedTempDir profileDir("executor-threads");
  Engine engine(graph, Repeat(kRepeats, body),
                withThreads(profileOptions(profileDir.path()), threads, tier));
  engine.load(device);
  std::vector<float> input(a.numElements()), bValues(b.numElements());
  for (std::size_t i = 0; i < input.size(); ++i) {
    input[i] = float(i % 97) * 0.25f;
    bValues[i] = float(i % 13) - 6.0f;
  }
  Outcome o;
  o.received.resize(sums.numElements() * kRepeats);
  engine.connectStream("in", input.data());
  engine.connectStream("out", o.received.data(), o.received.data() + o.received.size());
  engine.writeTensor("b", bValues.data(), bValues.data() + bValues.size());
  engine.run();

  for (auto [name, values, t] :
       {std::tuple{"a", &o.a, a}, {"c", &o.c, c}, {"sums", &o.sums, sums}}) {
    values->resize(t.numElements());
    engine.readTensor(name, values->data(), values->data() + values->size());
  }
  o.lastRunCycles = engine.getLastRunCycles();
  o.totalCycles = engine.getTotalCycles();
  pva::Report profile = openProfile(profileDir.path());
  for (unsigned t = 0; t < kTiles; ++t) {
    auto p = profile.execution().tileCycles(t);
    o.tilePhases.insert(o.tilePhases.end(),
                        {p.computeIncludingIdle, p.computeExcludingIdle, p.internalExchange,
                         p.globalExchange, p.hostExchange, p.sync});
  }
  for (const auto &type : profile.compilation().vertexTypes())
    o.typeCycles.push_back(type.cycles());
  std::ostringstream summary;
  engine.printProfileSummary(summary, {{"showExecutionSteps", "true"}});
  o.summary = summary.str();
  return o;
}

void expectSame(const Outcome &got, const Outcome &want) {
  EXPECT_EQ(got.a, want.a);
  EXPECT_EQ(got.c, want.c);
  EXPECT_EQ(got.sums, want.sums);
  EXPECT_EQ(got.received, want.received);
  EXPECT_EQ(got.lastRunCycles, want.lastRunCycles);
  EXPECT_EQ(got.totalCycles, want.totalCycles);
  EXPECT_EQ(got.tilePhases, want.tilePhases);
  EXPECT_EQ(got.typeCycles, want.typeCycles);
  EXPECT_EQ(got.summary, want.summary);
}

} // namespace

TEST(ExecutorThreads, ResultsCyclesAndProfileDoNotDependOnHostThreads) {
  Outcome one = runWithThreads(1);
  // The compute steps did run: a changed program could otherwise compare empty outcomes.
  ASSERT_GT(one.lastRunCycles, 0u);
  ASSERT_NE(one.sums, std::vector<float>(kTiles, 0.0f));
  for (unsigned threads : {2u, 3u, 4u, 8u}) {
    SCOPED_TRACE(std::to_string(threads) + " host threads");
    expectSame(runWithThreads(threads), one);
  }
}

TEST(VertexTier, ResultsCyclesAndProfileAreTheSameOnEveryTier) {
  Outcome interpreted = runWithThreads(2);
  ASSERT_GT(interpreted.lastRunCycles, 0u);
  ASSERT_NE(interpreted.sums, std::vector<float>(kTiles, 0.0f));
  for (const char *tier : {"native", "auto"}) {
    SCOPED_TRACE(tier);
    expectSame(runWithThreads(2, tier), interpreted);
  }
}

TEST(VertexTier, UnknownTiersAreRejected) {
  Device device = testDevice(2);
  Graph graph(device.getTarget());
  EXPECT_THROW((Engine(graph, Sequence{}, {{"executor.vertexTier", "jit"}})), invalid_option);
  const char *previous = std::getenv("POPLAR_VERTEX_TIER");
  const std::string saved = previous ? previous : "";
  ::setenv("POPLAR_VERTEX_TIER", "fast", 1);
  try {
    Engine engine(graph, Sequence{});
    ADD_FAILURE() << "POPLAR_VERTEX_TIER='fast' was accepted";
  } catch (const invalid_option &e) {
    EXPECT_NE(std::string(e.what()).find("POPLAR_VERTEX_TIER"), std::string::npos) << e.what();
  }
  // The option wins over the variable, which is then not read.
  EXPECT_NO_THROW((Engine(graph, Sequence{}, {{"executor.vertexTier", "native"}})));
  if (previous)
    ::setenv("POPLAR_VERTEX_TIER", saved.c_str(), 1);
  else
    ::unsetenv("POPLAR_VERTEX_TIER");
}

// Two tiles fault in one compute step: every thread count reports the lower tile, and the other
// tiles' vertices ran all the same.
TEST(ExecutorThreads, TheLowestFaultingTileIsReportedWhateverTheThreads) {
  std::string firstMessage;
  std::vector<float> firstScaled;
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    SCOPED_TRACE(std::to_string(threads) + " host threads");
    Device device = testDevice(kTiles);
    Graph graph(device.getTarget());
    graph.addCodelets(codeletPath("Shapes.cpp"));
    graph.addCodelets(codeletPath("Faults.cpp"));
    Tensor ints = graph.addVariable(INT, {kTiles, 4}, "ints");
    Tensor x = perTile(graph, "x"), y = perTile(graph, "y");
    ComputeSet cs = graph.addComputeSet("check");
    for (unsigned t = 0; t < kTiles; ++t) {
      graph.setTileMapping(ints[t], t);
      auto check = graph.addVertex(cs, "CheckPositive", {{"in", ints[t]}});
      auto scale = graph.addVertex(cs, "Scale<float>", {{"in", x[t]}, {"out", y[t]}});
      graph.setInitialValue(scale["factor"], 2.0f);
      graph.setTileMapping(check, t);
      graph.setTileMapping(scale, t);
    }
    std::vector<int> values(ints.numElements(), 1);
    values[40 * 4 + 2] = -1;
    values[250 * 4] = -5;
    graph.setInitialValue(ints, ArrayRef<int>(values));
    std::vector<float> xs(x.numElements());
    for (std::size_t i = 0; i < xs.size(); ++i)
      xs[i] = float(i);
    graph.setInitialValue(x, ArrayRef<float>(xs));
    graph.createHostRead("y", y);
    Engine engine(graph, Execute(cs), withThreads({}, threads));
    engine.load(device);
    std::string message;
    try {
      engine.run();
    } catch (const application_runtime_error &e) {
      message = e.what();
    }
    EXPECT_NE(message.find("on tile 40 "), std::string::npos) << message;
    std::vector<float> scaled(xs.size());
    engine.readTensor("y", scaled.data(), scaled.data() + scaled.size());
    EXPECT_EQ(scaled[kPerTile * 299 + 1], 2.0f * xs[kPerTile * 299 + 1]);
    if (threads == 1) {
      firstMessage = message;
      firstScaled = scaled;
    }
    EXPECT_EQ(message, firstMessage);
    EXPECT_EQ(scaled, firstScaled);
  }
}

/// What one tile's compute set of long MultiVertex and Vertex runs gives: after its first run
/// the executor splits the tile into parts that threads run side by side (StepPlans.hpp). The
/// fourth run faults in the middle of the tile (a vertex's check fails).
struct OneTileOutcome {
  std::vector<float> out;
  std::vector<float> sums;
  std::vector<std::uint64_t> runCycles;
  std::string message;
};

OneTileOutcome runOneBusyTile(unsigned threads, const char *tier) {
  constexpr std::size_t kN = 12000;
  Device device = testDevice(1);
  Graph graph(device.getTarget());
  graph.addCodelets(codeletPath("Shapes.cpp"));
  graph.addCodelets(codeletPath("Faults.cpp"));
  Tensor a = graph.addVariable(FLOAT, {4, kN}, "a"), out = graph.addVariable(FLOAT, {4, kN}, "out");
  Tensor sums = graph.addVariable(FLOAT, {4}, "sums"), ints = graph.addVariable(INT, {4}, "ints");
  for (const Tensor &t : {a, out, sums, ints})
    graph.setTileMapping(t, 0);
  ComputeSet cs = graph.addComputeSet("busy");
  for (unsigned i = 0; i < 4; ++i) {
    auto add =
        graph.addVertex(cs, "MultiAdd", {{"a", a[i]}, {"b", a[(i + 1) % 4]}, {"out", out[i]}});
    auto sum = graph.addVertex(cs, "SumVertex", {{"in", a[i]}, {"out", sums[i]}});
    auto check = graph.addVertex(cs, "CheckPositive", {{"in", ints.slice(i, i + 1)}});
    for (const auto &v : {add, sum, check})
      graph.setTileMapping(v, 0);
  }
  std::vector<float> values(a.numElements());
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = float(i % 101) * 0.5f;
  graph.setInitialValue(a, ArrayRef<float>(values));
  graph.setInitialValue(ints, ArrayRef<int>(std::vector<int>{1, 1, 1, 1}));
  graph.createHostWrite("ints", ints);
  graph.createHostRead("out", out);
  graph.createHostRead("sums", sums);
  Engine engine(graph, Execute(cs), withThreads({}, threads, tier));
  engine.load(device);
  OneTileOutcome o;
  for (int run = 0; run < 3; ++run) {
    engine.run();
    o.runCycles.push_back(engine.getLastRunCycles());
  }
  const std::vector<int> failing = {1, 1, -1, 1};
  engine.writeTensor("ints", failing.data(), failing.data() + failing.size());
  try {
    engine.run();
  } catch (const application_runtime_error &e) {
    o.message = e.what();
  }
  o.out.resize(out.numElements());
  engine.readTensor("out", o.out.data(), o.out.data() + o.out.size());
  o.sums.resize(sums.numElements());
  engine.readTensor("sums", o.sums.data(), o.sums.data() + o.sums.size());
  return o;
}

TEST(ExecutorThreads, ATileSplitAcrossThreadsGivesWhatOneThreadGives) {
  for (const char *tier : {"interpreter", "native"}) {
    const OneTileOutcome want = runOneBusyTile(1, tier);
    EXPECT_NE(want.message.find("'CheckPositive'"), std::string::npos) << want.message;
    EXPECT_EQ(want.runCycles[1], want.runCycles[0]); // split or not, the same cycles
    EXPECT_EQ(want.out[5], float(5 % 101) * 0.5f + float((12000 + 5) % 101) * 0.5f); // a[0] + a[1]
    for (unsigned threads : {2u, 4u}) {
      SCOPED_TRACE(std::string(tier) + ", " + std::to_string(threads) + " host threads");
      const OneTileOutcome got = runOneBusyTile(threads, tier);
      EXPECT_EQ(got.out, want.out);
      EXPECT_EQ(got.sums, want.sums);
      EXPECT_EQ(got.runCycles, want.runCycles);
      EXPECT_EQ(got.message, want.message);
    }
  }
}

TEST(ExecutorThreads, ThreadCountsOutOfRangeAreRejected) {
  Device device = testDevice(2);
  Graph graph(device.getTarget());
  const char *previous = std::getenv("POPLAR_NUM_THREADS");
  const bool hadPrevious = previous != nullptr;
  const std::string saved = hadPrevious ? previous : "";
  for (const char *bad : {"-1", "1025", "two"})
    EXPECT_THROW((Engine(graph, Sequence{}, {{"executor.hostThreads", bad}})), invalid_option)
        << bad;
  for (const char *bad : {"0", "x", "", "3x"}) {
    ::setenv("POPLAR_NUM_THREADS", bad, 1);
    try {
      Engine engine(graph, Sequence{});
      ADD_FAILURE() << "POPLAR_NUM_THREADS='" << bad << "' was accepted";
    } catch (const invalid_option &e) {
      EXPECT_NE(std::string(e.what()).find("POPLAR_NUM_THREADS"), std::string::npos);
    }
    // The option wins over the variable, which is then not read.
    EXPECT_NO_THROW((Engine(graph, Sequence{}, {{"executor.hostThreads", "2"}})));
  }
  if (hadPrevious)
    ::setenv("POPLAR_NUM_THREADS", saved.c_str(), 1);
  else
    ::unsetenv("POPLAR_NUM_THREADS");
}
