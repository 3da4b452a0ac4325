// popxl::Session: lowers an Ir to one Poplar graph and program, compiles an Engine on a
// simulated IPU and runs it with host data.
#ifndef popxl_Session_hpp
#define popxl_Session_hpp

#include <popxl/Ir.hpp>

#include <poplar/Interval.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace popxl {

class Session {
public:
  /// `device` is "ipu_model" or "ipu_hw" (a full ipu2 model) or "cpu" (a small IPU model).
  /// With a `cacheDir` (or else the POPXL_CACHE_DIR environment variable) the compiled program
  /// is stored there, and loaded instead of compiled when the same Ir comes again.
  Session(const Ir &ir, const std::string &device, const std::string &cacheDir = "");
  ~Session();

  /// One run of the main graph. `inputs` holds, per host-to-device stream, numHostTransfers
  /// values of its spec (row-major bytes); the result holds the same per device-to-host stream.
  std::map<StreamId, std::vector<std::uint8_t>>
  run(const std::map<StreamId, std::vector<std::uint8_t>> &inputs);

  /// The current device value of a variable or constant.
  std::vector<std::uint8_t> tensorData(TensorId t);
  void writeVariableData(TensorId t, const std::vector<std::uint8_t> &data);
  /// Simulated cycles of the last run.
  std::uint64_t lastRunCycles() const;
  /// Whether the program came from the executable cache rather than a compile.
  bool loadedFromCache() const;
  /// The cache file holding the program (empty without a cache directory).
  std::string cacheEntry() const;
  /// Where the Poplar tensor of `t` lives: per tile, the intervals of its row-major elements
  /// (the layout a variable, constant or graph input was given). Needs a Session that lowered
  /// the Ir (not one loaded from the cache) and a tensor the program uses.
  std::vector<std::vector<poplar::Interval>> tileMapping(TensorId t) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace popxl

#endif
