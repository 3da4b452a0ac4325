// Target figures read from a file are checked before anything is sized by them.
#include "target/TargetCheck.hpp"

#include <limits>
#include <sstream>

namespace poplar::detail {

namespace {

/// Tiles beyond this are not a real machine (the largest IPU-POD has 256 IPUs of 1472 tiles);
/// the bound keeps a crafted file from sizing host tables by a count it does not back with data.
constexpr std::uint64_t kMaxTiles = 1u << 22;

template <class T> std::string text(const char *field, T value, const char *rule) {
  std::ostringstream os;
  os << field << " is " << value << " (" << rule << ")";
  return os.str();
}

} // namespace

std::string invalidTargetField(const TargetDesc &t) {
  if (t.numIPUs < 1)
    return text("numIPUs", t.numIPUs, "must be at least 1");
  if (t.tilesPerIPU < 1)
    return text("tilesPerIPU", t.tilesPerIPU, "must be at least 1");
  if (std::uint64_t(t.numIPUs) * t.tilesPerIPU > kMaxTiles)
    return text("numIPUs x tilesPerIPU", std::uint64_t(t.numIPUs) * t.tilesPerIPU,
                "must be at most 4194304");
  if (t.bytesPerTile < 1)
    return text("bytesPerTile", t.bytesPerTile, "must be at least 1");
  if (t.numWorkerContexts < 1)
    return text("numWorkerContexts", t.numWorkerContexts, "must be at least 1");
  if (t.exchangeBytesPerCycle < 1)
    return text("exchangeBytesPerCycle", t.exchangeBytesPerCycle, "must be at least 1");
  if (t.tilesPerSuperTile < 1)
    return text("tilesPerSuperTile", t.tilesPerSuperTile, "must be at least 1");
  // !(x > 0) also rejects NaN.
  if (!(t.clockHz > 0) || t.clockHz == std::numeric_limits<double>::infinity())
    return text("clockHz", t.clockHz, "must be positive and finite");
  if (!(t.hostBytesPerSecond > 0) ||
      t.hostBytesPerSecond == std::numeric_limits<double>::infinity())
    return text("hostBytesPerSecond", t.hostBytesPerSecond, "must be positive and finite");
  return {};
}

std::string targetMismatch(const TargetDesc &device, const TargetDesc &compiled) {
  auto differs = [](const char *field, std::uint64_t d, std::uint64_t c) {
    std::ostringstream os;
    os << field << ": the device has " << d << ", the executable " << c;
    return os.str();
  };
  if (device.numTiles() != compiled.numTiles())
    return differs("numTiles", device.numTiles(), compiled.numTiles());
  if (device.bytesPerTile != compiled.bytesPerTile)
    return differs("bytesPerTile", device.bytesPerTile, compiled.bytesPerTile);
  return {};
}

} // namespace poplar::detail
