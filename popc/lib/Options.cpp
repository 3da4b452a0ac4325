// Target names and the default location of the codelet-side Poplar headers.
#include "Options.hpp"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace popc {

const char *supportedTargets() { return "ipu1,ipu2,ipu21"; }

bool isSupportedTarget(const std::string &target) {
  return target == "ipu1" || target == "ipu2" || target == "ipu21";
}

namespace {

/// The installation prefix popc runs from (the parent of its bin/).
llvm::SmallString<256> installPrefix(const char *argv0) {
  // Any function address in this binary works for locating it.
  std::string exe =
      llvm::sys::fs::getMainExecutable(argv0, reinterpret_cast<void *>(&installPrefix));
  return llvm::SmallString<256>(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
}

} // namespace

std::vector<std::string> defaultLibraryIncludeDirs(const char *argv0) {
  llvm::SmallString<256> root = installPrefix(argv0);
  llvm::sys::path::append(root, "lib", "popc", "include");
  std::vector<std::string> dirs;
  for (const char *sub : {"c++", "libc++", "c"}) {
    llvm::SmallString<256> dir(root);
    llvm::sys::path::append(dir, sub);
    dirs.push_back(std::string(dir));
  }
  if (llvm::sys::fs::is_directory(dirs[1]))
    return dirs;
  return {POPC_SOURCE_INCLUDE_DIR "/c++", POPC_LIBCXX_INCLUDE_DIR, POPC_SOURCE_INCLUDE_DIR "/c"};
}

std::string defaultRuntimeDir(const char *argv0) {
  llvm::SmallString<256> dir = installPrefix(argv0);
  llvm::sys::path::append(dir, "lib", "popc", "runtime");
  if (llvm::sys::fs::is_directory(dir))
    return std::string(dir);
  return POPC_SOURCE_RUNTIME_DIR;
}

std::string defaultPoplarIncludeDir(const char *argv0) {
  llvm::SmallString<256> dir = installPrefix(argv0);
  llvm::sys::path::append(dir, "include");
  llvm::SmallString<256> probe(dir);
  llvm::sys::path::append(probe, "poplar", "Vertex.hpp");
  if (llvm::sys::fs::exists(probe))
    return std::string(dir);
  return POPC_SOURCE_POPLAR_INCLUDE_DIR;
}

} // namespace popc
