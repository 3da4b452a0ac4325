// Finds a library's codelet object beside the library, through dladdr.
#include "support/CodeletObject.hpp"

#include "support/Raise.hpp"

#include <poplar/exceptions.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

namespace popsdk::support {

std::string codeletObjectPath(const std::string &lib, const void *symbolInLibrary) {
  std::string variable = "IPU_" + lib + "_GP";
  std::transform(variable.begin(), variable.end(), variable.begin(),
                 [](unsigned char c) { return char(std::toupper(c)); });
  if (const char *override = std::getenv(variable.c_str()); override && *override)
    return override;
  Dl_info info{};
  if (!dladdr(symbolInLibrary, &info) || !info.dli_fname)
    raise<poplar::graph_object_load_error>(lib, "::addCodelets: cannot locate lib", lib,
                                           ".so to find ", lib, ".gp (set ", variable, ")");
  return (std::filesystem::path(info.dli_fname).parent_path() / (lib + ".gp")).string();
}

} // namespace popsdk::support
