// Rig: one graph on a small simulated IPU that runs real-world codelets against host data.
//
//   Rig rig("Clamp.cpp");
//   auto in = rig.tensor(FLOAT, {1, -2, 3});
//   auto out = rig.tensor(FLOAT, std::vector<double>(3));
//   auto v = rig.vertex("Clamp<float>");
//   rig.graph().connect(v["in"], in);
//   rig.graph().connect(v["out"], out);
//   rig.run();
//   EXPECT_EQ(rig.values(out), ...);
//
// The codelet goes through Graph::addCodelets, so the popc named by $POPC compiles it (ctest
// points that at the installed SDK's popc). Every tensor is written from the host before the
// compute set runs and read back after it.
#pragma once

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace realworld {

/// The bytes of host values, as rawTensor takes them, and back (bit-exact tests).
template <typename T> std::vector<std::uint8_t> toBytes(const std::vector<T> &v) {
  std::vector<std::uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <typename T> std::vector<T> fromBytes(const std::vector<std::uint8_t> &b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}
/// The bytes of n zero values of T.
template <typename T> std::vector<std::uint8_t> zeroBytes(std::size_t n) {
  return std::vector<std::uint8_t>(n * sizeof(T));
}

/// A host value rounded to what `type` holds (half: nearest even).
double roundTo(poplar::Type type, double x);

/// Deterministic data in [lo, hi]: multiples of `step` (exact in every type the test uses).
std::vector<double> randomData(std::size_t n, double lo, double hi, double step = 0.125,
                               unsigned seed = 1);

class Rig {
public:
  explicit Rig(const std::string &codelet, unsigned tiles = 1);
  ~Rig();

  poplar::Graph &graph() { return *graph_; }
  /// A vertex of `type` in the rig's compute set, on `tile`.
  poplar::VertexRef vertex(const std::string &type, unsigned tile = 0);
  /// A 1-D variable on `tile` holding `values`.
  poplar::Tensor tensor(poplar::Type type, const std::vector<double> &values, unsigned tile = 0);
  /// A 1-D variable of `type` whose device bytes are `bytes` (exact 64-bit values).
  poplar::Tensor rawTensor(poplar::Type type, const std::vector<std::uint8_t> &bytes,
                           unsigned tile = 0);
  /// A 0-d variable (for scalar edges) on `tile`.
  poplar::Tensor scalar(poplar::Type type, double value, unsigned tile = 0);

  /// Compiles, writes every tensor, runs the compute set and reads every tensor back. Returns
  /// the error message if the run throws (an empty string when it succeeds).
  std::string run();
  /// A tensor's values after run().
  std::vector<double> values(const poplar::Tensor &t) const;
  /// A rawTensor's bytes after run().
  std::vector<std::uint8_t> bytes(const poplar::Tensor &t) const;

private:
  struct Data {
    poplar::Tensor tensor;
    std::vector<double> values;
    std::vector<std::uint8_t> raw; // rawTensor: the bytes, instead of values
    bool isRaw = false;
  };
  const Data &find(const poplar::Tensor &t) const;
  std::unique_ptr<poplar::Device> device_;
  std::unique_ptr<poplar::Graph> graph_;
  poplar::ComputeSet cs_;
  std::vector<Data> data_;
};

} // namespace realworld
