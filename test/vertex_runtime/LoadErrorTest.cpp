// Codelet loading and wiring errors: popc diagnostics, damaged .gp files, the cache, connections.
//
// Also the codelet cache's hits, rebuilt corrupt entries, concurrent compiles and relative paths.
#include "CodeletSources.hpp"
#include "VertexTester.hpp"

#include <poplar/Engine.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sys/wait.h>
#include <unistd.h>

using namespace popsdk::test;
using namespace poplar;
using namespace poplar::program;
namespace fs = std::filesystem;

namespace {

const std::string kShapes = codeletPath("Shapes.cpp");

std::vector<char> readAll(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

void writeAll(const fs::path &p, const std::vector<char> &bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

/// Runs `f` and returns the message of the `E` it throws (a test failure if it throws nothing).
template <class E> std::string messageOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const E &e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an exception";
  return "";
}

/// The message contains every one of `parts`.
void expectAll(const std::string &message, std::initializer_list<std::string> parts) {
  for (const auto &p : parts)
    EXPECT_NE(message.find(p), std::string::npos) << "missing '" << p << "' in: " << message;
}

/// A .gp of Shapes.cpp, compiled into a private cache by the runtime.
std::vector<char> shapesObject() {
  ScopedCacheDir cache;
  Graph graph(testDevice().getTarget());
  graph.addCodelets(kShapes);
  auto entries = cache.entries();
  EXPECT_EQ(entries.size(), 1u);
  return entries.empty() ? std::vector<char>{} : readAll(entries[0]);
}

/// A graph with Shapes.cpp loaded, on a 4-tile model.
struct ShapesGraph {
  Device device = testDevice(4);
  Graph graph{device.getTarget()};
  ComputeSet cs;
  ShapesGraph() {
    graph.addCodelets(kShapes);
    cs = graph.addComputeSet("cs");
  }
  Tensor var(Type type, std::vector<std::size_t> shape, const std::string &name) {
    Tensor t = graph.addVariable(type, shape, name);
    graph.setTileMapping(t, 0);
    return t;
  }
};

} // namespace

TEST(LoadError, CompileErrorCarriesPopcDiagnostic) {
  Graph graph(testDevice().getTarget());
  auto m =
      messageOf<graph_object_load_error>([&] { graph.addCodelets(codeletPath("BadSyntax.cpp")); });
  expectAll(m, {"BadSyntax.cpp:8:13: error:", "expected expression", "popc"});
  EXPECT_FALSE(graph.hasCodelet("BadSyntax"));
  // Nothing half-loaded: the graph still works.
  graph.addCodelets(kShapes);
  EXPECT_TRUE(graph.hasCodelet("SumVertex"));
}

TEST(LoadError, CompileErrorFromStringStream) {
  std::stringstream source;
  source << "#include <poplar/Vertex.hpp>\n"
            "class V : public poplar::Vertex {\n"
            "public:\n"
            "  bool compute() { return undeclared; }\n"
            "};\n";
  Graph graph(testDevice().getTarget());
  auto m = messageOf<graph_object_load_error>([&] { graph.addCodelets(source); });
  expectAll(m, {":4:27: error:", "undeclared"});
}

TEST(LoadError, TruncatedAndCorruptedObjectsAreCleanErrors) {
  auto good = shapesObject();
  ASSERT_GT(good.size(), 64u);
  fs::path dir = fs::temp_directory_path() / ("codelet_tests-gp-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path gp = dir / "damaged.gp";
  std::vector<std::vector<char>> damaged;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(8), std::size_t(31),
                        std::size_t(32), good.size() / 2, good.size() - 1})
    damaged.emplace_back(good.begin(), good.begin() + std::ptrdiff_t(n));
  for (std::size_t at : {std::size_t(9), std::size_t(40), good.size() / 2, good.size() - 1}) {
    damaged.push_back(good);
    damaged.back()[at] = char(damaged.back()[at] ^ 0x5a);
  }
  damaged.push_back(std::vector<char>(good.size(), 'x'));
  for (std::size_t i = 0; i < damaged.size(); ++i) {
    SCOPED_TRACE("damaged object " + std::to_string(i));
    writeAll(gp, damaged[i]);
    Graph graph(testDevice().getTarget());
    auto m = messageOf<graph_object_load_error>([&] { graph.addCodelets(gp.string()); });
    expectAll(m, {"damaged.gp"});
    EXPECT_FALSE(graph.hasCodelet("SumVertex"));
  }
  // The intact object loads from the same place.
  writeAll(gp, good);
  Graph graph(testDevice().getTarget());
  graph.addCodelets(gp.string());
  EXPECT_TRUE(graph.hasCodelet("Scale<half>"));
  fs::remove_all(dir);
}

TEST(LoadError, CorruptCacheEntryIsRebuilt) {
  ScopedCacheDir cache;
  {
    Graph graph(testDevice().getTarget());
    graph.addCodelets(kShapes);
  }
  auto entries = cache.entries();
  ASSERT_EQ(entries.size(), 1u);
  auto good = readAll(entries[0]);
  for (std::size_t keep : {good.size() / 3, std::size_t(0)}) {
    writeAll(entries[0], std::vector<char>(good.begin(), good.begin() + std::ptrdiff_t(keep)));
    auto r = VertexTester(kShapes, "SumVertex")
                 .input("in", FLOAT, {1, 2, 3.5})
                 .scalarOutput("out", FLOAT)
                 .run();
    EXPECT_EQ(r.output("out"), std::vector<double>{6.5});
    ASSERT_EQ(cache.entries().size(), 1u);
    EXPECT_EQ(readAll(cache.entries()[0]), good) << "the entry was rebuilt";
  }
}

TEST(LoadError, SecondAddCodeletsHitsTheCache) {
  ScopedCacheDir cache;
  {
    Graph graph(testDevice().getTarget());
    graph.addCodelets(kShapes);
  }
  auto entries = cache.entries();
  ASSERT_EQ(entries.size(), 1u);
  auto written = fs::last_write_time(entries[0]);
  // Were popc to run again, it would write a new file and rename it over the entry.
  {
    Graph graph(testDevice().getTarget());
    graph.addCodelets(kShapes);
    EXPECT_TRUE(graph.hasCodelet("PopcountVertex"));
  }
  ASSERT_EQ(cache.entries().size(), 1u);
  EXPECT_EQ(fs::last_write_time(cache.entries()[0]), written);
  // A different flag is a different key.
  {
    Graph graph(testDevice().getTarget());
    graph.addCodelets(kShapes, CodeletFileType::Auto, "-O1");
  }
  EXPECT_EQ(cache.entries().size(), 2u);
}

TEST(LoadError, RelativePathsResolveAgainstTheWorkingDirectory) {
  fs::path saved = fs::current_path();
  fs::current_path(CODELET_SOURCE_DIR);
  {
    Graph graph(testDevice().getTarget());
    EXPECT_NO_THROW(graph.addCodelets("codelets/Shapes.cpp"));
    EXPECT_TRUE(graph.hasCodelet("SumVertex"));
  }
  fs::current_path(fs::path(CODELET_SOURCE_DIR) / "codelets");
  {
    Graph graph(testDevice().getTarget());
    EXPECT_NO_THROW(graph.addCodelets("Shapes.cpp"));
    auto m = messageOf<graph_object_load_error>([&] { graph.addCodelets("codelets/Shapes.cpp"); });
    expectAll(m, {"codelets/Shapes.cpp", fs::current_path().string()});
  }
  fs::current_path(saved);
}

TEST(LoadError, UnknownVertexTypeNamesTheLoadedTypes) {
  ShapesGraph g;
  auto m = messageOf<unknown_vertex_type>([&] { g.graph.addVertex(g.cs, "SumVertx"); });
  expectAll(m, {"'SumVertx'", "SumVertex", "DotProductVertex", "Scale<float>"});
}

TEST(LoadError, ConnectWithTheWrongType) {
  ShapesGraph g;
  VertexRef v = g.graph.addVertex(g.cs, "SumVertex");
  auto m = messageOf<type_error>([&] { g.graph.connect(v["in"], g.var(INT, {4}, "ints")); });
  expectAll(m, {"'in'", "'SumVertex'", "float", "int"});
  VertexRef h = g.graph.addVertex(g.cs, "Scale<half>");
  m = messageOf<type_error>([&] { g.graph.connect(h["out"], g.var(FLOAT, {4}, "floats")); });
  expectAll(m, {"'out'", "'Scale<half>'", "half", "float"});
}

TEST(LoadError, ScalarFieldGivenTwoElements) {
  ShapesGraph g;
  VertexRef v = g.graph.addVertex(g.cs, "SumVertex");
  auto m = messageOf<graph_connection_error>(
      [&] { g.graph.connect(v["out"], g.var(FLOAT, {2}, "two")); });
  expectAll(m, {"'out'", "'SumVertex'", "scalar", "2 elements"});
}

TEST(LoadError, UnknownFieldNamesTheFields) {
  ShapesGraph g;
  VertexRef v = g.graph.addVertex(g.cs, "DotProductVertex");
  auto m = messageOf<unknown_field>([&] { g.graph.connect(v["c"], g.var(FLOAT, {4}, "c")); });
  expectAll(m, {"'c'", "'DotProductVertex'", "a, b, out"});
}

TEST(LoadError, UnconnectedFieldAtEngineConstruction) {
  ShapesGraph g;
  VertexRef v = g.graph.addVertex(g.cs, "DotProductVertex");
  g.graph.connect(v["a"], g.var(FLOAT, {4}, "a"));
  g.graph.connect(v["out"], g.var(FLOAT, {}, "out"));
  g.graph.setTileMapping(v, 0);
  auto m = messageOf<graph_connection_error>([&] { Engine engine(g.graph, Execute(g.cs)); });
  expectAll(m, {"field 'b'", "'DotProductVertex'", "not connected"});
}

TEST(LoadError, UnmappedVertexAtEngineConstruction) {
  ShapesGraph g;
  VertexRef v = g.graph.addVertex(g.cs, "SumVertex");
  g.graph.connect(v["in"], g.var(FLOAT, {4}, "in"));
  g.graph.connect(v["out"], g.var(FLOAT, {}, "out"));
  auto m = messageOf<graph_connection_error>([&] { Engine engine(g.graph, Execute(g.cs)); });
  expectAll(m, {"'SumVertex'", "compute set 'cs'", "not mapped to a tile"});
}

TEST(LoadError, SameSourceTwiceIsAcceptedAndADuplicateTypeIsNot) {
  Graph graph(testDevice().getTarget());
  graph.addCodelets(kShapes);
  EXPECT_NO_THROW(graph.addCodelets(kShapes)); // Poplar lets programs add the same codelets again
  std::stringstream clash;
  clash << "#include <poplar/Vertex.hpp>\n"
           "class SumVertex : public poplar::Vertex {\n"
           "public:\n"
           "  bool compute() { return true; }\n"
           "};\n";
  auto m = messageOf<graph_object_load_error>([&] { graph.addCodelets(clash); });
  expectAll(m, {"'SumVertex'", "already defined"});
}

// Two processes compiling the same source into one empty cache at once both succeed and leave
// one entry and its dependency list (popc writes private temporaries renamed into place).
TEST(LoadError, ConcurrentCompilesShareTheCache) {
  ScopedCacheDir cache;
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int status = 0;
    try {
      Graph graph(testDevice().getTarget());
      graph.addCodelets(kShapes);
      status = graph.hasCodelet("SumVertex") ? 0 : 2;
    } catch (...) {
      status = 3;
    }
    ::_exit(status);
  }
  Graph graph(testDevice().getTarget());
  EXPECT_NO_THROW(graph.addCodelets(kShapes));
  int status = -1;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(cache.entries().size(), 1u);
  for (const auto &e : fs::directory_iterator(cache.path()))
    EXPECT_TRUE(e.path().extension() == ".gp" || e.path().extension() == ".d")
        << "left behind: " << e.path();
}
