// OpHarness: builds a graph with the PopLibs codelets, lets a test add inputs (written from the
// host) and outputs (read back), runs the program once on a small IPU model and returns the
// values and simulated cycles. Used by every PopLibs op test.
//
//   OpHarness h(4);                                   // 4 tiles
//   Tensor a = h.input("a", FLOAT, {3, 5}, values);   // mapped linearly over the tiles
//   Tensor out = popops::add(h.graph(), a, a, h.prog());
//   h.output("out", out);
//   h.run();
//   EXPECT_EQ(h.result("out"), expected);
#pragma once

#include "HostData.hpp"
#include "TestEnvironment.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace popsdk::test {

class OpHarness {
public:
  /// A graph on `tiles` tiles with popops' codelets loaded.
  explicit OpHarness(unsigned tiles = 4);
  /// A graph on `device` (for instance Poplar's CPU device: one tile with the host's memory).
  explicit OpHarness(poplar::Device device);

  poplar::Graph &graph() { return graph_; }
  poplar::program::Sequence &prog() { return prog_; }
  const poplar::Target &target() const { return device_.getTarget(); }

  /// A new variable mapped linearly over the tiles, written with `values` before the program.
  poplar::Tensor input(const std::string &name, poplar::Type type,
                       const std::vector<std::size_t> &shape, const std::vector<double> &values);
  /// Writes `values` into an existing tensor (for instance one a PopLibs create* function made)
  /// before the program.
  void write(const std::string &name, const poplar::Tensor &t, const std::vector<double> &values);
  /// Reads `t` back after the program runs.
  void output(const std::string &name, const poplar::Tensor &t);

  /// Compiles and runs the program once; then result() and cycles() are valid.
  void run(const poplar::OptionFlags &engineOptions = {});
  /// Runs the program again on the engine of the last run(), with the data the device holds (no
  /// host transfers), and returns its simulated cycles: what a benchmark times.
  std::uint64_t runAgain();
  const std::vector<double> &result(const std::string &name) const;
  std::uint64_t cycles() const { return cycles_; }

private:
  poplar::Device device_;
  poplar::Graph graph_;
  poplar::program::Sequence prog_;
  struct Access {
    poplar::Tensor tensor;
    std::vector<double> values;
  };
  std::map<std::string, Access> inputs_, outputs_;
  std::uint64_t cycles_ = 0;
  std::unique_ptr<poplar::Engine> engine_;
};

} // namespace popsdk::test
