// debug.checkMemoryAccess: a vertex's load or store outside the memory it was given (its
// fields, state, stack and codelet data) stops the run before it lands, naming the nearest
// field; legal accesses of every kind pass; without the option the old behaviour stays.
//
// The vertices are in codelets/Stray.cpp.
#include "CodeletSources.hpp"
#include "TestEnvironment.hpp"

#include <poplar/Engine.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

using namespace popsdk::test;
using namespace poplar;
using namespace poplar::program;

namespace {

const std::string kStray = codeletPath("Stray.cpp");
const OptionFlags kChecked{{"debug.checkMemoryAccess", "true"}};

/// "Stray.cpp:<line>" of the statement tagged `// FAULT:<tag>`.
std::string where(const std::string &tag) {
  std::ifstream in(kStray);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find("// FAULT:" + tag) != std::string::npos)
      return "Stray.cpp:" + std::to_string(n);
  ADD_FAILURE() << "no FAULT:" << tag;
  return "";
}

/// Escapes `text` for a std::regex.
std::string literal(const std::string &text) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(text, special, R"(\$&)");
}

Tensor ints(Graph &graph, const std::string &name, std::vector<int> values, unsigned tile = 1) {
  Tensor t = graph.addVariable(INT, {values.size()}, name);
  graph.setTileMapping(t, tile);
  graph.setInitialValue(t, ArrayRef<int>(values));
  graph.createHostRead(name, t);
  return t;
}

/// A graph of Stray.cpp's vertices with a compute set "checked", run in an Engine.
struct Checked {
  Device device = testDevice(4);
  Graph graph{device.getTarget()};
  ComputeSet cs;
  std::optional<Engine> engine;

  Checked() {
    graph.addCodelets(kStray);
    cs = graph.addComputeSet("checked");
  }
  /// A vertex of `type` on tile 1 in the compute set.
  VertexRef vertex(const std::string &type, ArrayRef<Graph::ConnectionDesc> connections = {}) {
    VertexRef v = graph.addVertex(cs, type, connections);
    graph.setTileMapping(v, 1);
    return v;
  }
  /// Runs `program` (the compute set by default) in a new Engine with `options`: the error's
  /// message, or nullopt if it ran to the end.
  std::optional<std::string> run(const OptionFlags &options = kChecked,
                                 const std::optional<Program> &program = std::nullopt) {
    engine.emplace(graph, program ? *program : Execute(cs), options);
    engine->load(device);
    try {
      engine->run(0);
    } catch (const application_runtime_error &e) {
      return std::string(e.what());
    }
    return std::nullopt;
  }
  std::vector<int> read(const std::string &handle, std::size_t n) {
    std::vector<int> v(n);
    engine->readTensor(handle, v.data(), v.data() + n);
    return v;
  }
};

/// Expects `error` to be exactly the stray-access error of vertex `type` (id 0, tile 1, compute
/// set "checked") at FAULT:`tag`: `access` then the address, then `missed`.
void expectStray(const std::optional<std::string> &error, const std::string &type,
                 const std::string &access, const std::string &missed, const std::string &tag) {
  ASSERT_TRUE(error) << type << " ran to the end";
  const std::string pattern = literal("Engine::run: vertex '" + type +
                                      "' (id 0) on tile 1 in compute set 'checked' "
                                      "faulted: stray access: " +
                                      access) +
                              " at address 0x[0-9a-f]+, " + literal(missed) +
                              " \\(pc [0-9]+ in __runCodelet_" + literal(type) + ", [^ ]*" +
                              literal(where(tag)) + "\\)";
  EXPECT_TRUE(std::regex_match(*error, std::regex(pattern))) << *error;
}

/// Sets POPLAR_ENGINE_OPTIONS (unsets it for null) until the end of the scope. (The memcheck.*
/// run of this suite sets it for the whole process.)
class ScopedEngineOptions {
public:
  explicit ScopedEngineOptions(const char *value) {
    if (const char *old = std::getenv(kName))
      old_ = old;
    if (value)
      setenv(kName, value, 1);
    else
      unsetenv(kName);
  }
  ~ScopedEngineOptions() {
    if (old_)
      setenv(kName, old_->c_str(), 1);
    else
      unsetenv(kName);
  }

private:
  static constexpr const char *kName = "POPLAR_ENGINE_OPTIONS";
  std::optional<std::string> old_;
};

/// WritePastEnd on y (4 ints) with a neighbour z on the same tile.
struct PastEnd : Checked {
  PastEnd() {
    Tensor y = ints(graph, "y", {0, 0, 0, 0});
    ints(graph, "z", {7, 7, 7, 7});
    vertex("WritePastEnd", {{"out", y}});
  }
};

} // namespace

TEST(MemCheck, WritePastTheEndStopsBeforeTheStore) {
  PastEnd t;
  expectStray(t.run(), "WritePastEnd", "store of 4 bytes",
              "4 bytes past the end of Output field 'out' (tensor 'y', 16 bytes)", "past-end");
  EXPECT_EQ(t.read("y", 4), (std::vector<int>{1, 2, 3, 4})) << "the legal stores landed";
  EXPECT_EQ(t.read("z", 4), (std::vector<int>{7, 7, 7, 7})) << "the neighbour is untouched";
}

// The field regions travel in a serialised executable: the same error after a round trip.
TEST(MemCheck, SameErrorFromASerialisedExecutable) {
  PastEnd t;
  auto direct = t.run();
  ASSERT_TRUE(direct);
  std::stringstream bytes;
  compileGraph(t.graph, {Execute(t.cs)}).serialize(bytes);
  Engine engine(Executable::deserialize(bytes), kChecked);
  engine.load(t.device);
  try {
    engine.run(0);
    ADD_FAILURE() << "no error";
  } catch (const application_runtime_error &e) {
    EXPECT_EQ(std::string(e.what()), *direct);
  }
}

// Without the option the vertex runs as on hardware: the stray store lands in whatever lies
// past y (here its neighbour z), and nothing reports it.
TEST(MemCheck, OptionOffKeepsTheOldBehaviour) {
  PastEnd t;
  ScopedEngineOptions none(nullptr);
  EXPECT_FALSE(t.run({}));
  EXPECT_EQ(t.read("y", 4), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(t.read("z", 4), (std::vector<int>{5, 7, 7, 7})) << "z lies just past y";
}

// POPLAR_ENGINE_OPTIONS turns it on like any engine option, and the value is checked.
TEST(MemCheck, OptionFromTheEnvironment) {
  PastEnd t;
  {
    ScopedEngineOptions on(R"({"debug.checkMemoryAccess":"true"})");
    auto error = t.run({});
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("stray access"), std::string::npos) << *error;
  }
  ScopedEngineOptions bad(R"({"debug.checkMemoryAccess":"sometimes"})");
  EXPECT_THROW(Engine(t.graph, Execute(t.cs)), invalid_option);
}

// Memory-checked vertices run on the interpreter whatever the tier: the same error.
TEST(MemCheck, SameErrorOnEveryTier) {
  std::string first;
  for (const char *tier : {"interpreter", "native", "auto"}) {
    PastEnd t;
    auto error = t.run({{"debug.checkMemoryAccess", "true"}, {"executor.vertexTier", tier}});
    ASSERT_TRUE(error) << tier;
    if (first.empty())
      first = *error;
    EXPECT_EQ(*error, first) << tier;
  }
}

TEST(MemCheck, ReadBeforeTheStart) {
  Checked t;
  ints(t.graph, "before", {0}); // what lies before x on its tile is not the vertex's
  Tensor x = ints(t.graph, "x", {1, 2, 3, 4});
  Tensor out = ints(t.graph, "out", {0}, 2);
  t.graph.setInitialValue(t.vertex("ReadAtOffset", {{"in", x}, {"out", out[0]}})["offset"], -1);
  expectStray(t.run(), "ReadAtOffset", "load of 4 bytes",
              "4 bytes before the start of Input field 'in' (tensor 'x', 16 bytes)",
              "before-start");
}

// A pointer kept from one compute set's vertex is used by another's: the tensor it points at
// is not the second vertex's.
TEST(MemCheck, StalePointerIntoAnotherVertexsTensor) {
  Checked t;
  ComputeSet second = t.graph.addComputeSet("use");
  t.vertex("SavePointer", {{"out", ints(t.graph, "a", {0, 0, 0, 0})}});
  VertexRef user =
      t.graph.addVertex(second, "WriteThroughSaved", {{"out", ints(t.graph, "b", {0})[0]}});
  t.graph.setTileMapping(user, 1);
  auto error = t.run(kChecked, Sequence{Execute(t.cs), Execute(second)});
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("vertex 'WriteThroughSaved' (id 1) on tile 1 in compute set 'use' "
                        "faulted: stray access: store of 4 bytes at address 0x"),
            std::string::npos)
      << *error;
  EXPECT_NE(error->find(where("stale") + ")"), std::string::npos) << *error;
  EXPECT_EQ(t.read("a", 4), (std::vector<int>{1, 0, 0, 0}));
}

// A negative index into a local array walks down its frame (its own memory, so allowed) and
// then below the stack pointer, which is no frame's: the first index that does is 4 bytes
// before the start of the live stack.
TEST(MemCheck, StackAccessBelowTheFrame) {
  std::optional<std::string> error;
  for (int index = -1; index >= -16 && !error; --index) {
    Checked t;
    t.graph.setInitialValue(
        t.vertex("StackIndex", {{"out", ints(t.graph, "out", {0})[0]}})["index"], index);
    error = t.run();
  }
  ASSERT_TRUE(error) << "no index down to -16 left the frame";
  EXPECT_TRUE(std::regex_search(
      *error, std::regex("stray access: store of 4 bytes at address 0x[0-9a-f]+, 4 bytes before "
                         "the start of the live stack of worker 0 \\([0-9]+ of [0-9]+ bytes in "
                         "use\\) \\(pc [0-9]+ in __runCodelet_StackIndex, [^ ]*" +
                         literal(where("stack")) + "\\)$")))
      << *error;
}

TEST(MemCheck, StoreIntoAnInputField) {
  Checked t;
  Tensor x = ints(t.graph, "x", {1, 2, 3, 4});
  t.vertex("StoreToInput", {{"in", x}});
  expectStray(t.run(), "StoreToInput", "store of 4 bytes",
              "into Input field 'in' (tensor 'x', 16 bytes), which the vertex may only read",
              "input");
  EXPECT_EQ(t.read("x", 4), (std::vector<int>{1, 2, 3, 4}));
}

// Every kind of field (scalar, list, vector of edges, InOut, the vertex's own vector, data
// copied in from another tile), a global table and the stack: the same results checked or not.
TEST(MemCheck, EveryLegalAccessPasses) {
  std::vector<int> results[2];
  for (int checked = 0; checked < 2; ++checked) {
    Checked t;
    Graph &g = t.graph;
    Tensor acc = ints(g, "acc", {1, 1, 1, 1, 1, 1});
    VertexRef v = t.vertex("EveryLegalAccess", {{"scale", ints(g, "scale", {2})[0]}, {"acc", acc}});
    g.setFieldSize(v["lists"], 2);
    g.connect(v["lists"][0], ints(g, "l0", {1, 2, 3}));
    g.connect(v["lists"][1], ints(g, "l1", {4, 5}, 3)); // on tile 3: copied in
    g.setFieldSize(v["edges"], 2);
    g.connect(v["edges"][0], ints(g, "e0", {100}));
    g.connect(v["edges"][1], ints(g, "e1", {200, 300}));
    g.setInitialValue(v["own"], ArrayRef<int>{1000, 2000});
    auto error = t.run({{"debug.checkMemoryAccess", checked ? "true" : "false"}});
    EXPECT_FALSE(error) << *error;
    results[checked] = t.read("acc", 6);
  }
  // acc[i] = 1 + 2*table[i%4] + own[i%2] + lists + edges
  const std::vector<int> expected = {
      1 + 20 + 1000 + 1 + 4 + 100 + 200, 1 + 40 + 2000 + 2 + 5 + 100 + 300,
      1 + 60 + 1000 + 3 + 4 + 100 + 200, 1 + 80 + 2000 + 1 + 5 + 100 + 300,
      1 + 20 + 1000 + 2 + 4 + 100 + 200, 1 + 40 + 2000 + 3 + 5 + 100 + 300};
  EXPECT_EQ(results[1], expected);
  EXPECT_EQ(results[0], results[1]);
}
