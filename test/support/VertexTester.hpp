// VertexTester: runs one vertex on one tile of a small simulated IPU against host data and reads
// back its outputs and its cycles. The vertex tests and the benchmarks share it.
//
//   auto r = VertexTester(codeletPath("Shapes.cpp"), "SumVertex")      // a codelet source or .gp
//                .input("in", FLOAT, values)
//                .scalarOutput("out", FLOAT)
//                .run();
//   auto f = VertexTester(popops::addCodelets, "popops::Fill<float>")  // a library's codelets
//                .state("in", FLOAT, 2.5)
//                .output("out", FLOAT, 7)
//                .run();
//   EXPECT_EQ(r.output("out")[0], reference);
//   expectCycles(r, estimate, 0.1);                                   // CycleExpect.hpp
//
// A codelet source goes through Graph::addCodelets, so popc runs once per source and build
// (useBuildTreeTools points $POPC at this build's popc and the codelet cache into the build
// tree); later graphs load the cached .gp. Each field is connected to its own variable, written
// from the host before the compute set and read back after it. The vertex type's cycles come
// from the profile: the Engine writes profile.pop (autoReport) into a temporary directory, and
// libpva reads back the type's thread cycles (the interpreter's measurement, summed over workers)
// and the tile's compute cycles (6 x the busiest worker plus the launch, docs/cycle-model.md).
#pragma once

#include "HostData.hpp"
#include "ProfileCycles.hpp"
#include "TestEnvironment.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Type.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace popsdk::test {

/// The edge sizes every element-wise vertex is walked over: empty, one, two, a prime, a
/// power of two and a size that needs many loop trips.
extern const std::vector<std::size_t> kEdgeSizes;

/// Where the data a field reads or writes lives, relative to the vertex's tile.
enum class Placement {
  Local,      // one contiguous variable on the vertex's tile: no copies
  OtherTile,  // on the next tile: copy-in before and/or copy-out after the compute set
  Fragmented, // a reversed view of a local variable: not contiguous, so copied through a buffer
};

struct RunResult {
  std::map<std::string, std::vector<double>> outputs; // outputs and inouts, by field
  std::uint64_t threadCycles = 0; // the vertex type's cycles (summed over workers)
  std::uint64_t tileCycles = 0;   // the vertex tile's compute cycles, idle worker slots included
  std::uint64_t totalCycles = 0;  // Engine::getLastRunCycles()
  std::string vertexType;

  /// The values of an output or inout field; throws std::invalid_argument for another name.
  const std::vector<double> &output(const std::string &field) const;
};

class VertexTester {
public:
  /// Adds the codelets that define the vertex to a graph (e.g. popops::addCodelets).
  using CodeletLoader = std::function<void(poplar::Graph &)>;

  /// The vertex from a codelet source or a precompiled .gp file (Graph::addCodelets).
  VertexTester(const std::string &codelets, std::string vertexType);
  VertexTester(const char *codelets, std::string vertexType)
      : VertexTester(std::string(codelets), std::move(vertexType)) {}
  /// The vertex from codelets a library loads.
  VertexTester(CodeletLoader load, std::string vertexType);

  /// Vertex tile (default 0) and the model's tile count (default 4).
  VertexTester &tile(unsigned t);
  VertexTester &numTiles(unsigned n);

  VertexTester &input(const std::string &field, poplar::Type type, std::vector<double> values,
                      Placement p = Placement::Local);
  VertexTester &inout(const std::string &field, poplar::Type type, std::vector<double> values,
                      Placement p = Placement::Local);
  VertexTester &output(const std::string &field, poplar::Type type, std::size_t n,
                       Placement p = Placement::Local);
  VertexTester &scalarInput(const std::string &field, poplar::Type type, double value);
  VertexTester &scalarInOut(const std::string &field, poplar::Type type, double value);
  VertexTester &scalarOutput(const std::string &field, poplar::Type type);
  /// A vector-of-vectors field (Vector<Input<Vector<T>>>): one tensor per inner vector.
  VertexTester &inputList(const std::string &field, poplar::Type type,
                          std::vector<std::vector<double>> values);
  VertexTester &inoutList(const std::string &field, poplar::Type type,
                          std::vector<std::vector<double>> values);
  VertexTester &outputList(const std::string &field, poplar::Type type,
                           const std::vector<std::size_t> &sizes);
  /// A plain scalar member (vertex state), set with Graph::setInitialValue.
  VertexTester &state(const std::string &field, poplar::Type type, double value);

  /// Builds the graph, runs it once and reads every output back.
  RunResult run() const;

  /// Runs several testers in one graph: one compute set and one Engine program each, run in
  /// order by one Engine, so the graph compiles once (much cheaper than run() on each when
  /// walking a vertex over many sizes). The first tester's codelets are loaded, so all must
  /// share them; the model has the largest tile count asked. Each result holds that tester's
  /// outputs and the cycles of its own run.
  static std::vector<RunResult> runEach(const std::vector<VertexTester> &testers);

private:
  struct Transfer;
  struct Built;
  /// Adds this tester's compute set, vertex and data to `graph`, naming its handles with `prefix`.
  Built build(poplar::Graph &graph, unsigned numTiles, const std::string &prefix) const;

  enum class Kind { Input, InOut, Output };
  struct Field {
    std::string name;
    Kind kind = Kind::Input;
    poplar::Type type;
    std::vector<double> values; // inputs and inouts; outputs: zeros of the size
    Placement placement = Placement::Local;
    bool scalar = false;
    bool list = false;
    std::vector<std::vector<double>> lists;
  };
  Field &addField(const std::string &name, Kind kind, poplar::Type type, std::vector<double> values,
                  Placement p);
  Field &addList(const std::string &name, Kind kind, poplar::Type type,
                 std::vector<std::vector<double>> values);
  struct State {
    std::string name;
    poplar::Type type;
    double value;
  };

  CodeletLoader load_;
  std::string vertexType_;
  unsigned tile_ = 0, numTiles_ = 4;
  std::vector<Field> fields_;
  std::vector<State> states_;
};

} // namespace popsdk::test
