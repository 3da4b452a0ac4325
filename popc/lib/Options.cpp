// Target names and the default location of the codelet-side Poplar headers.
#include "Options.hpp"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace popc {

const char *supportedTargets() { return "ipu1,ipu2,ipu21"; }

bool isSupportedTarget(const std::string &target) {
  return target == "ipu1" || target == "ipu2" || target == "ipu21";
}

std::string defaultPoplarIncludeDir(const char *argv0) {
  // Any function address in this binary works for locating it.
  std::string exe =
      llvm::sys::fs::getMainExecutable(argv0, reinterpret_cast<void *>(&defaultPoplarIncludeDir));
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(dir, "include");
  llvm::SmallString<256> probe(dir);
  llvm::sys::path::append(probe, "poplar", "Vertex.hpp");
  if (llvm::sys::fs::exists(probe))
    return std::string(dir);
  return POPC_SOURCE_POPLAR_INCLUDE_DIR;
}

} // namespace popc
