// Writes the native tier's code addresses, sizes and vertex names in perf's map format.
#include "PerfMap.hpp"

#include <llvm/Object/SymbolSize.h>

#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace poplar::native {

PerfMap::~PerfMap() {
  if (file_)
    std::fclose(file_);
}

bool PerfMap::wanted() {
  const char *on = std::getenv("POPLAR_PERF_MAP");
  return on && std::strcmp(on, "1") == 0;
}

void PerfMap::name(const std::string &symbol, std::string shownAs) {
  names_[symbol] = std::move(shownAs);
}

void PerfMap::notifyObjectLoaded(ObjectKey, const llvm::object::ObjectFile &object,
                                 const llvm::RuntimeDyld::LoadedObjectInfo &info) {
  if (names_.empty())
    return;
  // The debug object's symbols carry the addresses the code was loaded at.
  const auto loaded = info.getObjectForDebug(object);
  if (!loaded.getBinary())
    return;
  for (const auto &[symbol, size] : llvm::object::computeSymbolSizes(*loaded.getBinary())) {
    auto symbolName = symbol.getName();
    auto address = symbol.getAddress();
    if (!symbolName || !address) {
      llvm::consumeError(symbolName.takeError());
      llvm::consumeError(address.takeError());
      continue;
    }
    const auto named = names_.find(symbolName->str());
    if (named == names_.end())
      continue;
    if (!file_) {
      // perf reads this path for the JIT code of process <pid>.
      const std::string path = "/tmp/perf-" + std::to_string(::getpid()) + ".map";
      file_ = std::fopen(path.c_str(), "w");
      if (!file_) {
        std::fprintf(stderr, "POPLAR_PERF_MAP: cannot write %s\n", path.c_str());
        names_.clear();
        return;
      }
    }
    std::fprintf(file_, "%" PRIx64 " %" PRIx64 " %s\n", std::uint64_t(*address), size,
                 named->second.c_str());
    names_.erase(named);
  }
  if (file_)
    std::fflush(file_);
}

} // namespace poplar::native
