// Target accessors over TargetDesc, and the named IPU versions of Targets.def.
#include "target/TargetDesc.hpp"

#include <poplar/Target.hpp>
#include <poplar/exceptions.hpp>

namespace poplar {
namespace detail {

TargetDesc targetDescFor(const std::string &arch) {
  TargetDesc d;
#define TARGET(name, tiles, bytes, workers, xbpc, clock, superTile, syncDelay, globalSync, hostBw) \
  if (arch == #name) {                                                                             \
    d.arch = #name;                                                                                \
    d.tilesPerIPU = tiles;                                                                         \
    d.bytesPerTile = bytes;                                                                        \
    d.numWorkerContexts = workers;                                                                 \
    d.exchangeBytesPerCycle = xbpc;                                                                \
    d.clockHz = clock;                                                                             \
    d.tilesPerSuperTile = superTile;                                                               \
    d.minIPUSyncDelay = syncDelay;                                                                 \
    d.globalSyncCycles = globalSync;                                                               \
    d.hostBytesPerSecond = hostBw;                                                                 \
    return d;                                                                                      \
  }
#include "target/Targets.def"
  throw invalid_machine_model("Unknown IPU version '" + arch +
                              "': expected one of ipu1, ipu2, ipu21");
}

} // namespace detail

using detail::TargetDesc;

Target::Target() : impl_(std::make_shared<TargetDesc>()) {}
Target::Target(std::shared_ptr<const TargetDesc> impl) : impl_(std::move(impl)) {}
Target::Target(const Target &) = default;
Target::Target(Target &&) noexcept = default;
Target &Target::operator=(const Target &) = default;
Target &Target::operator=(Target &&) noexcept = default;
Target::~Target() = default;

Target Target::createIPUTarget(unsigned numIPUs, StringRef systemType, const OptionFlags &) {
  auto d = detail::targetDescFor(systemType.str());
  if (numIPUs == 0)
    throw invalid_machine_model("Target::createIPUTarget: numIPUs must be at least 1");
  d.type = TargetType::IPU;
  d.numIPUs = numIPUs;
  return Target(std::make_shared<TargetDesc>(d));
}

Target Target::createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU, StringRef systemType,
                               const OptionFlags &opts) {
  auto t = createIPUTarget(numIPUs, systemType, opts);
  if (tilesPerIPU == 0 || tilesPerIPU > t.getTilesPerIPU())
    throw invalid_machine_model("Target::createIPUTarget: tilesPerIPU " +
                                std::to_string(tilesPerIPU) + " is not in 1.." +
                                std::to_string(t.getTilesPerIPU()));
  auto d = *t.impl_;
  d.tilesPerIPU = tilesPerIPU;
  return Target(std::make_shared<TargetDesc>(d));
}

Target Target::createCPUTarget(bool, unsigned numIPUs) {
  // The CPU target runs everything on one tile, as Poplar's does ("one worker thread, as if on
  // a single tile"). Its memory is the host's: a whole model's tensors must fit on that tile,
  // which 624 KiB of an IPU tile would never allow. Tile images are sized to what is used, so
  // the figure is only a limit.
  constexpr unsigned kCpuTileBytes = 256u << 20;
  auto d = detail::targetDescFor("ipu2");
  d.type = TargetType::CPU;
  d.arch = "cpu";
  d.numIPUs = numIPUs;
  d.tilesPerIPU = 1;
  d.bytesPerTile = kCpuTileBytes;
  return Target(std::make_shared<TargetDesc>(d));
}

TargetType Target::getTargetType() const { return impl_->type; }
std::string Target::getTargetArchString() const { return impl_->arch; }
unsigned Target::getNumIPUs() const { return impl_->numIPUs; }
unsigned Target::getTilesPerIPU() const { return impl_->tilesPerIPU; }
unsigned Target::getNumTiles() const { return impl_->numTiles(); }
unsigned Target::getNumWorkerContexts() const { return impl_->numWorkerContexts; }
unsigned Target::getBytesPerTile() const { return impl_->bytesPerTile; }
unsigned Target::getExchangeBytesPerCycle() const { return impl_->exchangeBytesPerCycle; }
double Target::getTileClockFrequency() const { return impl_->clockHz; }
unsigned Target::getTilesPerSharedExchangeBus() const { return impl_->tilesPerSuperTile; }
bool Target::supportsExchangeBusSharing() const { return impl_->superTileSendReceive; }
// 64-bit loads and stores are the widest a worker issues (ld64/st64).
unsigned Target::getDataPathWidth() const { return 64; }
unsigned Target::getAtomicStoreGranularity() const { return 4; }
unsigned Target::getTypeSize(const Type &type) const { return type.size(); }
unsigned Target::getVectorWidth(const Type &type) const {
  return type.size() == 0 ? 0 : getDataPathWidth() / 8 / type.size();
}
unsigned Target::getFloatVectorWidth() const { return getVectorWidth(FLOAT); }
unsigned Target::getHalfVectorWidth() const { return getVectorWidth(HALF); }
unsigned Target::getMinIPUSyncDelay() const { return impl_->minIPUSyncDelay; }
unsigned Target::getMaxIPUSyncDelay() const { return impl_->minIPUSyncDelay; }
unsigned Target::getGlobalSyncCycles() const { return impl_->globalSyncCycles; }
std::uint64_t Target::getMemoryBytes() const {
  return std::uint64_t(impl_->bytesPerTile) * impl_->numTiles();
}

std::string toString(TargetType t) {
  switch (t) {
  case TargetType::IPU:
    return "IPU";
  case TargetType::IPU_MODEL:
    return "IPU_MODEL";
  case TargetType::CPU:
    return "CPU";
  }
  return "unknown";
}

} // namespace poplar
