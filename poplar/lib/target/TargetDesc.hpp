// The plain figures of a target; Target, IPUModel and the cycle model all read them.
#pragma once

#include <poplar/TargetType.hpp>

#include <cstdint>
#include <string>

namespace poplar::detail {

struct TargetDesc {
  TargetType type = TargetType::IPU_MODEL;
  std::string arch = "ipu2";
  unsigned numIPUs = 1;
  unsigned tilesPerIPU = 1472;
  unsigned bytesPerTile = 638976;
  unsigned numWorkerContexts = 6;
  unsigned exchangeBytesPerCycle = 4;
  double clockHz = 1.33e9;
  unsigned tilesPerSuperTile = 2;
  /// A tile may use its whole supertile's receive bandwidth when its partner is idle or
  /// receives the same data (IPUModel::supportsSuperTileSendReceive).
  bool superTileSendReceive = true;
  unsigned minIPUSyncDelay = 90;
  bool relativeSyncDelayNone = false;
  unsigned globalSyncCycles = 600;
  double hostBytesPerSecond = 8.0e9;

  unsigned numTiles() const { return numIPUs * tilesPerIPU; }
  /// Host link bytes moved per tile clock cycle.
  double hostBytesPerCycle() const { return hostBytesPerSecond / clockHz; }
};

/// The figures of a named IPU version from Targets.def; throws invalid_machine_model if unknown.
TargetDesc targetDescFor(const std::string &arch);

} // namespace poplar::detail
