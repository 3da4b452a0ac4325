// Engine behaviour: load, run, host tensor access and stream lookup, with argument checks.
#include "engine/EngineImpl.hpp"

#include "core/Errors.hpp"
#include "core/Logging.hpp"
#include "profile/ProfileStore.hpp"
#include "target/TargetCheck.hpp"

#include <filesystem>

namespace poplar::detail {

EngineImpl::EngineImpl(std::unique_ptr<CompiledGraph> compiled, EngineOptions opts)
    : cg(std::move(compiled)), codelets(loadCodeletObjects(*cg)), options(std::move(opts)),
      nativeCode(*cg, codelets, options.vertexTier),
      memoryChecker(options.checkMemoryAccess ? std::make_unique<MemoryChecker>(*cg, codelets)
                                              : nullptr),
      profile(cg->profile), executor(*cg, codelets, nativeCode, device, profile,
                                     options.hostThreads, memoryChecker.get()) {
  device.streams.resize(cg->streams.size());
  writeProfileIfAsked();
}

void EngineImpl::writeProfileIfAsked() const {
  if (!options.writesProfile())
    return;
  std::error_code ec;
  std::filesystem::create_directories(options.reportDirectory, ec);
  if (ec)
    raise<poplar_error>("Engine: cannot create report directory '", options.reportDirectory,
                        "': ", ec.message());
  writeProfile(profile, options.profilePath());
  logger().info("Wrote profile to {}", options.profilePath());
}

void EngineImpl::load(const TargetDesc &t, bool attached) {
  if (!attached)
    raise<poplar_error>("Engine::load: the device is not attached; call Device::attach() first");
  std::string mismatch = targetMismatch(t, cg->target);
  if (!mismatch.empty())
    raise<poplar_error>("Engine::load: the device (", t.arch, ", ", t.numTiles(),
                        " tiles) does not match the target the graph was compiled for (",
                        cg->target.arch, ", ", cg->target.numTiles(), " tiles): ", mismatch);
  device.tiles.assign(cg->tileImages);
  ++device.loads;
  device.clock = 0;
  loaded = true;
}

void EngineImpl::run(unsigned program) {
  if (!loaded)
    raise<poplar_error>("Engine::run: no device is loaded; call Engine::load(device) first");
  if (program >= cg->programEntries.size())
    raise<poplar_error>("Engine::run: program index ", program, " is out of range (the engine has ",
                        cg->programEntries.size(), " program(s))");
  for (auto s : cg->programStreams[program])
    if (!device.streams[s].connected())
      raise<stream_connection_error>("Engine::run: program ", program, " uses stream '",
                                     cg->streams[s].handle,
                                     "', which is not connected; call Engine::connectStream or "
                                     "connectStreamToCallback first");
  try {
    lastRunCycles = executor.run(program, *printStream);
  } catch (...) {
    writeProfileIfAsked();
    throw;
  }
  logger().info("Program {} ran in {} cycles", program, lastRunCycles);
  writeProfileIfAsked();
}

const HostAccess &EngineImpl::hostAccess(const std::string &handle, bool isWrite,
                                         const char *api) const {
  auto it = cg->hostAccess.find(handle);
  if (it == cg->hostAccess.end() || it->second.isWrite != isWrite) {
    std::string known;
    for (const auto &[h, access] : cg->hostAccess)
      if (access.isWrite == isWrite)
        known += (known.empty() ? "" : ", ") + ("'" + h + "'");
    raise<poplar_error>("Engine::", api, ": unknown handle '", handle, "' (",
                        isWrite ? "createHostWrite" : "createHostRead",
                        " handles: ", known.empty() ? "none" : known, ")");
  }
  if (!loaded)
    raise<poplar_error>("Engine::", api, ": no device is loaded; call Engine::load(device) first");
  return it->second;
}

void EngineImpl::writeTensor(const std::string &handle, const void *buf, std::size_t bytes,
                             bool sized) {
  const auto &access = hostAccess(handle, true, "writeTensor");
  std::size_t need = access.tensor.numBytes();
  checkHostPointer<poplar_error>(buf, need, "Engine::writeTensor", "buf",
                                 "tensor '" + handle + "'");
  if (sized && bytes != need)
    raise<poplar_error>("Engine::writeTensor: buffer for '", handle, "' has ", bytes,
                        " bytes but the tensor needs ", need);
  auto *p = static_cast<const std::uint8_t *>(buf);
  for (const auto &r : access.tensor.runs) {
    std::memcpy(device.tiles[r.tile].data() + r.offset, p, r.bytes);
    p += r.bytes;
  }
}

void EngineImpl::readTensor(const std::string &handle, void *buf, std::size_t bytes, bool sized) {
  const auto &access = hostAccess(handle, false, "readTensor");
  std::size_t need = access.tensor.numBytes();
  checkHostPointer<poplar_error>(buf, need, "Engine::readTensor", "buf", "tensor '" + handle + "'");
  if (sized && bytes != need)
    raise<poplar_error>("Engine::readTensor: buffer for '", handle, "' has ", bytes,
                        " bytes but the tensor needs ", need);
  auto *p = static_cast<std::uint8_t *>(buf);
  for (const auto &r : access.tensor.runs) {
    std::memcpy(p, device.tiles[r.tile].data() + r.offset, r.bytes);
    p += r.bytes;
  }
}

StreamConnection &EngineImpl::stream(const std::string &handle, const char *api) {
  for (std::size_t i = 0; i < cg->streams.size(); ++i)
    if (cg->streams[i].handle == handle)
      return device.streams[i];
  std::string known;
  for (const auto &s : cg->streams)
    known += (known.empty() ? "" : ", ") + ("'" + s.handle + "'");
  raise<stream_connection_error>(
      "Engine::", api, ": unknown stream handle '", handle,
      "' (streams used by the programs: ", known.empty() ? "none" : known, ")");
}

} // namespace poplar::detail
