// The state behind an Engine: the compiled graph, options, and the device state once loaded.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "engine/EngineOptions.hpp"
#include "engine/Executor.hpp"
#include "engine/MemoryCheck.hpp"

#include <iostream>
#include <memory>

namespace poplar::detail {

class EngineImpl {
public:
  EngineImpl(std::unique_ptr<CompiledGraph> cg, EngineOptions options);

  void load(const TargetDesc &deviceTarget, bool attached);
  void run(unsigned program);
  void writeTensor(const std::string &handle, const void *buf, std::size_t bytes, bool sized);
  void readTensor(const std::string &handle, void *buf, std::size_t bytes, bool sized);
  StreamConnection &stream(const std::string &handle, const char *api);
  void writeProfileIfAsked() const;

  std::unique_ptr<CompiledGraph> cg;
  std::vector<LoadedCodelet> codelets; // decoded once, shared by every run
  EngineOptions options;
  NativeVertexCode nativeCode;                  // the native tier's code, by vertex type
  std::unique_ptr<MemoryChecker> memoryChecker; // with debug.checkMemoryAccess, else null
  ProfileData profile;                          // the compile-time part from cg, plus executions
  DeviceState device;
  bool loaded = false;
  std::uint64_t lastRunCycles = 0;
  std::ostream *printStream = &std::cout;
  Executor executor; // after everything it refers to

private:
  const HostAccess &hostAccess(const std::string &handle, bool isWrite, const char *api) const;
};

} // namespace poplar::detail
