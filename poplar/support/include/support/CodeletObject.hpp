// Where a PopLibs library's codelet object (<lib>.gp) is: beside the library's own .so.
#pragma once

#include <string>

namespace popsdk::support {

/// The path of `<lib>.gp` in the folder of the shared library that contains `symbolInLibrary`,
/// unless the environment variable IPU_<LIB>_GP (e.g. IPU_POPOPS_GP) names another file, as
/// PopLibs allows. The build tree and the installed SDK both keep the .gp beside the .so.
std::string codeletObjectPath(const std::string &lib, const void *symbolInLibrary);

} // namespace popsdk::support
