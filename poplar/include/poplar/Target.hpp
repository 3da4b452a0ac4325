// A description of the machine a graph is built for: tiles, memory, workers, exchange, clock.
#ifndef poplar_Target_hpp
#define poplar_Target_hpp

#include <poplar/OptionFlags.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/TargetType.hpp>
#include <poplar/Type.hpp>

#include <memory>
#include <string>

namespace poplar {

namespace detail {
struct TargetDesc;
}

class Target {
public:
  Target();
  Target(const Target &);
  Target(Target &&) noexcept;
  Target &operator=(const Target &);
  Target &operator=(Target &&) noexcept;
  ~Target();

  /// A full-size IPU target ("ipu1", "ipu2" or "ipu21") of `numIPUs` chips.
  static Target createIPUTarget(unsigned numIPUs, StringRef systemType,
                                const OptionFlags &opts = {});
  static Target createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU, StringRef systemType,
                                const OptionFlags &opts = {});
  static Target createCPUTarget(bool accurateHalf = false, unsigned numIPUs = 1);

  TargetType getTargetType() const;
  std::string getTargetArchString() const;
  unsigned getNumIPUs() const;
  unsigned getTilesPerIPU() const;
  unsigned getNumTiles() const;
  unsigned getNumWorkerContexts() const;
  unsigned getBytesPerTile() const;
  unsigned getExchangeBytesPerCycle() const;
  double getTileClockFrequency() const;
  unsigned getTilesPerSharedExchangeBus() const;
  /// Whether the tiles of a shared exchange bus may use its whole bandwidth when one is idle
  /// or both receive the same data.
  bool supportsExchangeBusSharing() const;
  unsigned getDataPathWidth() const;
  unsigned getAtomicStoreGranularity() const;
  unsigned getTypeSize(const Type &type) const;
  /// Elements of `type` processed by one 64-bit vector instruction.
  unsigned getVectorWidth(const Type &type) const;
  unsigned getFloatVectorWidth() const;
  unsigned getHalfVectorWidth() const;
  unsigned getMinIPUSyncDelay() const;
  unsigned getMaxIPUSyncDelay() const;
  unsigned getGlobalSyncCycles() const;
  std::uint64_t getMemoryBytes() const;

  /// Internal: the figures behind the accessors.
  const detail::TargetDesc &getImpl() const { return *impl_; }
  explicit Target(std::shared_ptr<const detail::TargetDesc> impl);

private:
  std::shared_ptr<const detail::TargetDesc> impl_;
};

} // namespace poplar

#endif
