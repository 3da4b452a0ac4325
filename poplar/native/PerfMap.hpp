// Linux perf's map of JIT code (/tmp/perf-<pid>.map): every entry compiled while
// POPLAR_PERF_MAP=1, under its vertex type's name, so that `perf report` names the native
// tier's code.
#pragma once

#include <llvm/ExecutionEngine/JITEventListener.h>

#include <cstdio>
#include <map>
#include <string>

namespace poplar::native {

class PerfMap : public llvm::JITEventListener {
public:
  ~PerfMap() override;

  /// Whether POPLAR_PERF_MAP is 1 (read at each compilation, so a process may turn it on late).
  static bool wanted();

  /// Lists the function `symbol` under `shownAs` once its object loads; functions never named
  /// are not listed.
  void name(const std::string &symbol, std::string shownAs);

  void notifyObjectLoaded(ObjectKey, const llvm::object::ObjectFile &object,
                          const llvm::RuntimeDyld::LoadedObjectInfo &info) override;

private:
  std::FILE *file_ = nullptr;                // opened at the first entry
  std::map<std::string, std::string> names_; // callers hold the JIT's lock
};

} // namespace poplar::native
