// Vertex code a tile is charged: the entry functions of the vertices it runs and what they call.
#include "TestEnvironment.hpp"
#include "compiler/Compile.hpp"
#include "graph/GraphState.hpp"

#include <poplar/Graph.hpp>

#include <gtest/gtest.h>

#include <sstream>

using namespace poplar;
using namespace poplar::program;

namespace {

/// Two vertices, each calling a helper of its own that the optimiser must not inline.
const char *const kTwoVerticesWithHelpers = R"(
#include <poplar/Vertex.hpp>
using namespace poplar;

__attribute__((noinline)) int twiceOf(int x) { return 2 * x; }
__attribute__((noinline)) int mixOf(int x) { return ((x * 7 + 3) ^ (x >> 2)) - (x & 5); }

class Twice : public Vertex {
public:
  InOut<Vector<int>> v;
  bool compute() {
    for (unsigned i = 0; i < v.size(); ++i)
      v[i] = twiceOf(v[i]);
    return true;
  }
};

class Mix : public Vertex {
public:
  InOut<Vector<int>> v;
  bool compute() {
    for (unsigned i = 0; i < v.size(); ++i)
      v[i] = mixOf(v[i]);
    return true;
  }
};
)";

struct TwoVertices {
  poplar::Device device = popsdk::test::testDevice(3);
  Graph graph{device.getTarget()};
  ComputeSet cs = graph.addComputeSet("cs");

  TwoVertices() {
    std::stringstream source(kTwoVerticesWithHelpers);
    graph.addCodelets(source);
  }
  /// A vertex of `type` on `tile`, on a variable of its own there.
  void place(const std::string &type, unsigned tile) {
    Tensor v = graph.addVariable(INT, {4}, type + std::to_string(tile));
    graph.setTileMapping(v, tile);
    auto vertex = graph.addVertex(cs, type, {{"v", v}});
    graph.setTileMapping(vertex, tile);
  }
  const gp::GpFile &object() const {
    return *graph.getState().codeletObjects.at(
        graph.getState().vertexTypes.at("Twice").codeletObject);
  }
  /// Instructions of the code symbol whose name contains `part` (a test failure if none).
  std::uint64_t symbolSize(const std::string &part) const {
    for (const auto &s : object().symbols)
      if (s.section == gp::Section::Code && s.name.find(part) != std::string::npos)
        return s.size;
    ADD_FAILURE() << "no code symbol named like " << part;
    return 0;
  }
  /// Instructions of vertex `type`'s entry function.
  std::uint64_t entrySize(const std::string &type) const {
    const auto *sym = object().symbolFor(object().findVertex(type)->entry);
    EXPECT_NE(sym, nullptr) << type;
    return sym ? sym->size : 0;
  }
  /// Instructions no code symbol covers: charged to every tile running a vertex of the object.
  std::uint64_t uncovered() const {
    std::uint64_t covered = 0;
    for (const auto &s : object().symbols)
      if (s.section == gp::Section::Code)
        covered += s.size;
    return object().numInstructions() - covered;
  }
  std::vector<std::uint64_t> codeBytesPerTile() {
    auto compiled = detail::compile(graph.getState(), {Execute(cs)});
    std::vector<std::uint64_t> bytes;
    for (const auto &tile : compiled->profile.tileMemory)
      bytes.push_back(tile.bytes[unsigned(detail::MemoryCategory::vertexCode)]);
    return bytes;
  }
};

// Regression: every tile running a vertex of an object was charged all of the object's
// non-entry functions, so a tile running one small popops vertex paid for the helpers of every
// other (170 KB of popops.gp) and could not hold a 480 KB tensor.
TEST(VertexCodeCharge, ATileIsChargedTheFunctionsItsVerticesCallAndNoOthers) {
  TwoVertices g;
  g.place("Twice", 0);
  g.place("Mix", 1);
  g.place("Twice", 2);
  g.place("Mix", 2);
  auto bytes = g.codeBytesPerTile();
  std::uint64_t twice = g.entrySize("Twice") + g.symbolSize("twiceOf");
  std::uint64_t mix = g.entrySize("Mix") + g.symbolSize("mixOf");
  ASSERT_GT(g.symbolSize("twiceOf"), 0u);
  ASSERT_GT(g.symbolSize("mixOf"), 0u);
  EXPECT_EQ(bytes.at(0), (twice + g.uncovered()) * gp::InstructionBytes);
  EXPECT_EQ(bytes.at(1), (mix + g.uncovered()) * gp::InstructionBytes);
  EXPECT_EQ(bytes.at(2), (twice + mix + g.uncovered()) * gp::InstructionBytes);
}

} // namespace
