// IPUModel: starts from the chosen IPU version's figures; createDevice freezes them in a Target.
#include "target/DeviceImpl.hpp"
#include "target/TargetDesc.hpp"

#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

namespace poplar {

IPUModel::IPUModel(const char *version) : IPUVersion(version ? version : "") {
  auto d = detail::targetDescFor(IPUVersion);
  numIPUs = 1;
  tilesPerIPU = d.tilesPerIPU;
  tilesPerSuperTile = d.tilesPerSuperTile;
  numWorkerContexts = d.numWorkerContexts;
  memoryBytesPerTile = d.bytesPerTile;
  exchangeBytesPerCycle = d.exchangeBytesPerCycle;
  tileClockFrequency = d.clockHz;
  supportsSuperTileSendReceive = true;
  compileIPUCode = false;
  minIPUSyncDelay = d.minIPUSyncDelay;
  relativeSyncDelay = RelativeSyncDelayType::AUTO;
  globalSyncCycles = d.globalSyncCycles;
  hostBandwidthBytesPerSecond = d.hostBytesPerSecond;
}

Target IPUModel::createTarget() const {
  auto d = detail::targetDescFor(IPUVersion);
  auto require = [](bool ok, const std::string &what) {
    if (!ok)
      throw invalid_machine_model("IPUModel::createDevice: " + what);
  };
  require(numIPUs >= 1, "numIPUs must be at least 1");
  require(tilesPerIPU >= 1, "tilesPerIPU must be at least 1");
  require(numWorkerContexts >= 1, "numWorkerContexts must be at least 1");
  require(memoryBytesPerTile >= 1, "memoryBytesPerTile must be at least 1");
  require(exchangeBytesPerCycle >= 1, "exchangeBytesPerCycle must be at least 1");
  require(tileClockFrequency > 0, "tileClockFrequency must be positive");
  require(hostBandwidthBytesPerSecond > 0, "hostBandwidthBytesPerSecond must be positive");
  d.type = TargetType::IPU_MODEL;
  d.numIPUs = numIPUs;
  d.tilesPerIPU = tilesPerIPU;
  d.tilesPerSuperTile = tilesPerSuperTile;
  d.superTileSendReceive = supportsSuperTileSendReceive;
  d.numWorkerContexts = numWorkerContexts;
  d.bytesPerTile = memoryBytesPerTile;
  d.exchangeBytesPerCycle = exchangeBytesPerCycle;
  d.clockHz = tileClockFrequency;
  d.minIPUSyncDelay = minIPUSyncDelay;
  d.relativeSyncDelayNone = relativeSyncDelay == RelativeSyncDelayType::NO_DELAY;
  d.globalSyncCycles = globalSyncCycles;
  d.hostBytesPerSecond = hostBandwidthBytesPerSecond;
  return Target(std::make_shared<detail::TargetDesc>(d));
}

Device IPUModel::createDevice(OptionFlags, bool, unsigned deviceManagerId) const {
  auto impl = std::make_unique<detail::DeviceImpl>();
  impl->target = createTarget();
  impl->id = deviceManagerId == UINT_MAX ? 0 : deviceManagerId;
  impl->attached = true; // a model is always usable
  return Device(std::move(impl));
}

} // namespace poplar
