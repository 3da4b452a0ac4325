// Vertex faults stop the run with an error naming vertex, id, tile, compute set, pc and line,
// the same on the interpreter and on the native tier.
//
// The faulting vertices are in codelets/Faults.cpp; after a fault the host carries on.
#include "CodeletSources.hpp"
#include "VertexTester.hpp"

#include <poplar/Engine.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>

using namespace popsdk::test;
using namespace poplar;
using namespace poplar::program;

namespace {

const std::string kFaults = codeletPath("Faults.cpp");

/// The line of codelets/Faults.cpp whose comment is `// FAULT:<tag>`.
unsigned lineOf(const std::string &tag) {
  std::ifstream in(kFaults);
  std::string line, marker = "// FAULT:" + tag;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    auto at = line.find(marker);
    if (at != std::string::npos &&
        (at + marker.size() == line.size() || line[at + marker.size()] == ' '))
      return n;
  }
  ADD_FAILURE() << "no FAULT:" << tag << " in " << kFaults;
  return 0;
}

std::string where(const std::string &tag) { return "Faults.cpp:" + std::to_string(lineOf(tag)); }

/// One faulting vertex of `type` on `tile` (after a harmless vertex on tile 0, so its id is 1)
/// in compute set "faulty" on vertex tier `tier`; `setUp` connects its fields. Returns the
/// error message.
std::string faultMessageOn(const std::string &tier, const std::string &type, unsigned tile,
                           const std::function<void(Graph &, VertexRef)> &setUp) {
  Device device = testDevice(4);
  Graph graph(device.getTarget());
  graph.addCodelets(kFaults);
  ComputeSet cs = graph.addComputeSet("faulty");
  Tensor ok = graph.addVariable(INT, {2}, "ok");
  graph.setTileMapping(ok, 0);
  graph.setInitialValue(ok, ArrayRef<int>{1, 2});
  VertexRef fine = graph.addVertex(cs, "CheckPositive", {{"in", ok}});
  graph.setTileMapping(fine, 0);
  VertexRef v = graph.addVertex(cs, type);
  graph.setTileMapping(v, tile);
  setUp(graph, v);
  Engine engine(graph, Execute(cs), {{"executor.vertexTier", tier}});
  engine.load(device);
  try {
    engine.run(0);
  } catch (const application_runtime_error &e) {
    // The same engine faults the same way when run again.
    try {
      engine.run(0);
      ADD_FAILURE() << "the second run did not fault";
    } catch (const application_runtime_error &again) {
      EXPECT_STREQ(again.what(), e.what());
    }
    return e.what();
  }
  ADD_FAILURE() << type << " did not fault";
  return "";
}

/// The fault's message on the interpreter, which the native tier must give word for word (the
/// same trap, pc, address and source line).
std::string faultMessage(const std::string &type, unsigned tile,
                         const std::function<void(Graph &, VertexRef)> &setUp) {
  const std::string interpreted = faultMessageOn("interpreter", type, tile, setUp);
  EXPECT_EQ(faultMessageOn("native", type, tile, setUp), interpreted) << "on the native tier";
  return interpreted;
}

Tensor scalarOn(Graph &graph, Type type, unsigned tile, int value, const std::string &name) {
  Tensor t = graph.addVariable(type, {}, name);
  graph.setTileMapping(t, tile);
  graph.setInitialValue(t, value);
  return t;
}

void expectNames(const std::string &message, const std::string &type, unsigned tile,
                 const std::string &trap, const std::string &line) {
  EXPECT_NE(message.find("vertex '" + type + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("(id 1)"), std::string::npos) << message;
  EXPECT_NE(message.find("on tile " + std::to_string(tile)), std::string::npos) << message;
  EXPECT_NE(message.find("compute set 'faulty'"), std::string::npos) << message;
  EXPECT_NE(message.find(trap), std::string::npos) << message;
  EXPECT_NE(message.find("(pc "), std::string::npos) << message;
  EXPECT_NE(message.find(line + ")"), std::string::npos) << message;
}

} // namespace

TEST(Fault, OutOfBoundsRead) {
  auto m = faultMessage("OobRead", 2, [](Graph &g, VertexRef v) {
    Tensor in = g.addVariable(INT, {4}, "in");
    g.setTileMapping(in, 2);
    g.setInitialValue(in, ArrayRef<int>{1, 2, 3, 4});
    g.connect(v["in"], in);
    g.connect(v["out"], scalarOn(g, INT, 2, 0, "out"));
    g.setInitialValue(v["index"], 1000000u); // in[1000000]: 4 MB past the data, off the tile
  });
  expectNames(m, "OobRead", 2, "out-of-bounds access at address 0x", where("oob-read"));
}

TEST(Fault, OutOfBoundsWrite) {
  auto m = faultMessage("OobWrite", 3, [](Graph &g, VertexRef v) {
    Tensor out = g.addVariable(INT, {4}, "out");
    g.setTileMapping(out, 3);
    g.connect(v["out"], out);
    g.setInitialValue(v["index"], 1000000u);
  });
  expectNames(m, "OobWrite", 3, "out-of-bounds access at address 0x", where("oob-write"));
}

TEST(Fault, NullPointerDereference) {
  auto m = faultMessage("NullDeref", 1, [](Graph &g, VertexRef v) {
    g.connect(v["out"], scalarOn(g, INT, 1, 0, "out"));
    g.setInitialValue(v["address"], 0u);
  });
  expectNames(m, "NullDeref", 1, "out-of-bounds access at address 0x0 ", where("null"));
}

TEST(Fault, IntegerDivisionByZero) {
  auto m = faultMessage("DivideInts", 2, [](Graph &g, VertexRef v) {
    g.connect(v["a"], scalarOn(g, INT, 2, 7, "a"));
    g.connect(v["b"], scalarOn(g, INT, 2, 0, "b"));
    g.connect(v["out"], scalarOn(g, INT, 2, 0, "out"));
  });
  expectNames(m, "DivideInts", 2, "integer division by zero", where("div"));
}

TEST(Fault, RunawayLoopExceedsTheBudget) {
  auto m = faultMessage("Runaway", 1, [](Graph &g, VertexRef v) {
    g.connect(v["flag"], scalarOn(g, INT, 1, 0, "flag"));
  });
  expectNames(m, "Runaway", 1, "instruction budget exceeded", where("runaway"));
}

TEST(Fault, ComputeReturningFalse) {
  auto m = faultMessage("CheckPositive", 3, [](Graph &g, VertexRef v) {
    Tensor in = g.addVariable(INT, {3}, "in");
    g.setTileMapping(in, 3);
    g.setInitialValue(in, ArrayRef<int>{5, -1, 2});
    g.connect(v["in"], in);
  });
  EXPECT_NE(m.find("returned false"), std::string::npos) << m;
  // The optimiser merges both returns into one `ret`, at the closing brace of compute().
  expectNames(m, "CheckPositive", 3, "returned false", where("false-merged"));
}

TEST(Fault, MultiVertexNamesTheWorker) {
  auto m = faultMessage("WorkerFault", 2, [](Graph &g, VertexRef v) {
    Tensor out = g.addVariable(INT, {6}, "out");
    g.setTileMapping(out, 2);
    g.connect(v["out"], out);
  });
  expectNames(m, "WorkerFault", 2, "out-of-bounds access", where("worker"));
  EXPECT_NE(m.find("worker 3"), std::string::npos) << m;
}

// Three tiles fault in one compute set; whichever host thread gets there first, the error is
// the lowest tile's, every time.
TEST(Fault, SeveralFaultingTilesReportTheLowestTile) {
  std::string first;
  for (int attempt = 0; attempt < 5; ++attempt) {
    Device device = testDevice(4);
    Graph graph(device.getTarget());
    graph.addCodelets(kFaults);
    ComputeSet cs = graph.addComputeSet("faulty");
    for (unsigned tile : {3u, 1u, 2u}) {
      VertexRef v = graph.addVertex(cs, "DivideInts");
      graph.connect(v["a"], scalarOn(graph, INT, tile, 1, "a" + std::to_string(tile)));
      graph.connect(v["b"], scalarOn(graph, INT, tile, 0, "b" + std::to_string(tile)));
      graph.connect(v["out"], scalarOn(graph, INT, tile, 0, "o" + std::to_string(tile)));
      graph.setTileMapping(v, tile);
    }
    Engine engine(graph, Execute(cs));
    engine.load(device);
    try {
      engine.run(0);
      FAIL() << "no fault";
    } catch (const application_runtime_error &e) {
      std::string m = e.what();
      EXPECT_NE(m.find("on tile 1 "), std::string::npos) << m;
      EXPECT_NE(m.find("(id 1)"), std::string::npos) << m; // the tile-1 vertex was added second
      if (attempt == 0)
        first = m;
      EXPECT_EQ(m, first);
    }
  }
}

// A fault is an exception like any other: the process, the graph API and new engines go on.
TEST(Fault, HostSurvivesAndRunsAgain) {
  std::string first;
  for (int i = 0; i < 3; ++i) {
    auto m = faultMessage("OobWrite", 1, [](Graph &g, VertexRef v) {
      Tensor out = g.addVariable(INT, {4}, "out");
      g.setTileMapping(out, 1);
      g.connect(v["out"], out);
      g.setInitialValue(v["index"], 1000000u);
    });
    EXPECT_FALSE(m.empty());
    if (i == 0)
      first = m;
    EXPECT_EQ(m, first) << "a fault in a new engine reads the same";
  }
  auto r = VertexTester(codeletPath("Shapes.cpp"), "SumVertex")
               .input("in", FLOAT, {1, 2, 3})
               .scalarOutput("out", FLOAT)
               .run();
  EXPECT_EQ(r.output("out"), std::vector<double>{6});
}

// Faults are caught however the vertex's tile is placed: the fault names the vertex's tile
// even when its data was copied in from another one.
TEST(Fault, FaultWithCopiedInData) {
  auto m = faultMessage("OobRead", 2, [](Graph &g, VertexRef v) {
    Tensor in = g.addVariable(INT, {4}, "in");
    g.setTileMapping(in, 3); // on another tile: read through a copy-in buffer
    g.setInitialValue(in, ArrayRef<int>{1, 2, 3, 4});
    g.connect(v["in"], in);
    g.connect(v["out"], scalarOn(g, INT, 0, 0, "out")); // written back by copy-out
    g.setInitialValue(v["index"], 1000000u);
  });
  expectNames(m, "OobRead", 2, "out-of-bounds access", where("oob-read"));
}

// A fault inside a helper that was not inlined names the helper (demangled) and its line.
TEST(Fault, FaultInsideANoinlineHelper) {
  auto m = faultMessage("HelperFault", 1, [](Graph &g, VertexRef v) {
    Tensor in = g.addVariable(INT, {4}, "in");
    g.setTileMapping(in, 1);
    g.connect(v["in"], in);
    g.connect(v["out"], scalarOn(g, INT, 1, 0, "out"));
    g.setInitialValue(v["index"], 1000000u);
  });
  expectNames(m, "HelperFault", 1, "out-of-bounds access", where("helper"));
  EXPECT_NE(m.find(" in loadAt(int const*, unsigned int), "), std::string::npos) << m;
}

TEST(Fault, MisalignedAccess) {
  auto m = faultMessage("MisalignedLoad", 2, [](Graph &g, VertexRef v) {
    Tensor in = g.addVariable(INT, {4}, "in");
    g.setTileMapping(in, 2);
    g.connect(v["in"], in);
    g.connect(v["out"], scalarOn(g, INT, 2, 0, "out"));
  });
  expectNames(m, "MisalignedLoad", 2, "misaligned access at address 0x", where("misaligned"));
}

TEST(Fault, BuiltinTrap) {
  auto m = faultMessage("Trapping", 3, [](Graph &g, VertexRef v) {
    g.connect(v["in"], scalarOn(g, INT, 3, 13, "in"));
  });
  expectNames(m, "Trapping", 3, "trap instruction", where("trap"));
}
