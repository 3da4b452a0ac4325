// VertexTester: runs one vertex (or a few) on the simulated IPU against host data, XNNPACK style.
//
//   auto r = VertexTester(codeletPath("Shapes.cpp"), "SumVertex")
//                .input("in", FLOAT, values)
//                .scalarOutput("out", FLOAT)
//                .run();
//   EXPECT_EQ(r.output("out")[0], reference);
//   r.expectCycles(estimate, 0.1);
//
// The codelet source goes through Graph::addCodelets, so popc runs once per source and build:
// CodeletEnvironment points $POPC at the built popc and POPLAR_CODELET_CACHE at a cache in the
// build tree; later graphs load the cached .gp. Each field is connected to its own variable,
// written from the host before the compute set and read back after it. Thread cycles come from
// the profile's "Cycles by vertex type" (the interpreter's measurement of that vertex type).
#pragma once

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Type.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace codelet_test {

/// The edge sizes every element-wise vertex is walked over: empty, one, two, a prime, a
/// power of two and a size that needs many loop trips.
extern const std::vector<std::size_t> kEdgeSizes;

/// Absolute path of a codelet source under test/codelets/codelets/.
std::string codeletPath(const std::string &name);

/// $POPC and POPLAR_CODELET_CACHE are set once per process by a gtest Environment in
/// VertexTester.cpp. A ScopedCacheDir gives one test its own empty codelet cache: it points
/// POPLAR_CODELET_CACHE at a new temporary directory and restores and removes it at scope end.
class ScopedCacheDir {
public:
  ScopedCacheDir();
  ~ScopedCacheDir();
  ScopedCacheDir(const ScopedCacheDir &) = delete;
  ScopedCacheDir &operator=(const ScopedCacheDir &) = delete;
  const std::string &path() const { return path_; }
  /// The .gp entries currently in the cache.
  std::vector<std::filesystem::path> entries() const;

private:
  std::string path_, previous_;
};

/// Where the data a field reads or writes lives, relative to the vertex's tile.
enum class Placement {
  Local,      // one contiguous variable on the vertex's tile: no copies
  OtherTile,  // on the next tile: copy-in before and/or copy-out after the compute set
  Fragmented, // a reversed view of a local variable: not contiguous, so copied through a buffer
};

/// Deterministic host data: `n` values in [lo, hi], exactly representable in `type`.
std::vector<double> hostData(poplar::Type type, std::size_t n, double lo, double hi,
                             unsigned seed = 1);

struct RunResult {
  std::map<std::string, std::vector<double>> outputs; // outputs and inouts, by field
  std::uint64_t threadCycles = 0; // the vertex type's cycles (summed over workers)
  std::uint64_t totalCycles = 0;  // Engine::getLastRunCycles()
  std::string summary;            // printProfileSummary text
  std::string vertexType;

  const std::vector<double> &output(const std::string &field) const;
  /// Expects |measured - estimated| / measured < tolerance for the thread cycles, with a
  /// message that shows both numbers.
  void expectCycles(double estimated, double tolerance) const;
};

class VertexTester {
public:
  VertexTester(std::string codeletSource, std::string vertexType);

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
  /// A VectorList input: one tensor per inner vector.
  VertexTester &inputList(const std::string &field, poplar::Type type,
                          std::vector<std::vector<double>> values);
  /// A plain scalar member (vertex state), set with Graph::setInitialValue.
  VertexTester &state(const std::string &field, poplar::Type type, double value);

  /// Builds the graph, runs it once and reads every output back.
  RunResult run() const;

private:
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
  struct State {
    std::string name;
    poplar::Type type;
    double value;
  };

  std::string source_, vertexType_;
  unsigned tile_ = 0, numTiles_ = 4;
  std::vector<Field> fields_;
  std::vector<State> states_;
};

/// Host element <-> device bytes for the types the tests use (FLOAT, HALF, INT, UNSIGNED_INT).
std::vector<std::uint8_t> toDevice(poplar::Type type, const std::vector<double> &values);
std::vector<double> fromDevice(poplar::Type type, const std::vector<std::uint8_t> &bytes);
/// `x` rounded to the nearest value of `type` (what the device stores).
double roundTo(poplar::Type type, double x);

/// The "Cycles by vertex type" entry of a summary for `vertexType`, or 0 when absent.
std::uint64_t cyclesOfVertexType(const std::string &summary, const std::string &vertexType);

/// A small IPUModel (ipu2 figures, `tiles` tiles) for tests.
poplar::Device testDevice(unsigned tiles = 4);

} // namespace codelet_test
