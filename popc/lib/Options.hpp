// What the popc command line asks for: inputs, preprocessor flags, optimisation and target.
#ifndef popc_Options_hpp
#define popc_Options_hpp

#include <string>
#include <vector>

namespace popc {

struct CompileOptions {
  std::vector<std::string> inputs;      ///< codelet sources (.cpp, .cc, .c)
  std::vector<std::string> includeDirs; ///< -I
  std::vector<std::string> defines;     ///< -D NAME or NAME=VALUE
  std::vector<std::string> extraFlags;  ///< passed to Clang's front end as is (-W..., -std=...)
  unsigned optLevel = 2;                ///< -O0..-O3
  /// Levels of recursion a vertex's stack holds (deeper traps as a stack overflow); 0 makes
  /// recursion an error.
  unsigned recursionDepth = 16;
  bool debugInfo = false;               ///< -g: keep full debug info (line tables are always kept)
  std::string target = "ipu2";          ///< ipu1, ipu2 or ipu21, or a comma-separated list of them
  std::string poplarIncludeDir;         ///< where poplar/Vertex.hpp is found
  /// The tile's standard library, searched after -I and poplar's headers, in this order: popc's
  /// configuration of libc++ and its additions, libc++'s headers, the tile's C library.
  std::vector<std::string> libraryIncludeDirs;
  /// The sources popc links into a codelet that needs them (runtime/Double.cpp: double
  /// precision in software).
  std::string runtimeDir;
};

/// The installed include directory next to the popc executable (<prefix>/include) if it holds
/// poplar/Vertex.hpp, else the source tree's (for popc run from its build directory).
std::string defaultPoplarIncludeDir(const char *argv0);

/// The standard library directories for CompileOptions::libraryIncludeDirs: the installed ones
/// (<prefix>/lib/popc/include/{c++,libc++,c}) next to the popc executable, else the source
/// tree's and the build machine's libc++ (for popc run from its build directory).
std::vector<std::string> defaultLibraryIncludeDirs(const char *argv0);

/// Where popc's runtime sources are: <prefix>/lib/popc/runtime next to the popc executable if
/// it exists, else the source tree's popc/runtime.
std::string defaultRuntimeDir(const char *argv0);

/// The targets popc accepts, comma-separated, as --list-targets prints them.
const char *supportedTargets();
bool isSupportedTarget(const std::string &target);

} // namespace popc

#endif
