// IPUModel: an IPU-like device whose figures the program may change before createDevice().
#ifndef poplar_IPUModel_hpp
#define poplar_IPUModel_hpp

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>

#include <climits>
#include <string>

namespace poplar {

struct IPUModel {
  enum class RelativeSyncDelayType { AUTO, NO_DELAY };

  /// "ipu1", "ipu2" (the default) or "ipu21"; the other fields start with that chip's figures.
  std::string IPUVersion;
  unsigned numIPUs;
  unsigned tilesPerIPU;
  unsigned tilesPerSuperTile;
  unsigned numWorkerContexts;
  unsigned memoryBytesPerTile;
  unsigned exchangeBytesPerCycle;
  double tileClockFrequency;
  bool supportsSuperTileSendReceive;
  bool compileIPUCode;
  /// Internal sync cycles for the tile nearest the sync controller.
  unsigned minIPUSyncDelay;
  RelativeSyncDelayType relativeSyncDelay;
  /// Cycles for a sync across IPUs (and with the host).
  unsigned globalSyncCycles;
  /// Host link bandwidth used to time stream copies, in bytes per second.
  double hostBandwidthBytesPerSecond;

  explicit IPUModel(const char *IPUVersion = "ipu2");

  Device createDevice(OptionFlags opts = {}, bool accurateHalf = false,
                      unsigned deviceManagerId = UINT_MAX) const;
  Target createTarget() const;
};

} // namespace poplar

#endif
