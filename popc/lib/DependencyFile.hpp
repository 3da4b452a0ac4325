// The files a compile read, written as a make rule (what a compiler's -MD -MF writes).
#ifndef popc_DependencyFile_hpp
#define popc_DependencyFile_hpp

#include <string>
#include <vector>

namespace popc {

/// "target: dep1 dep2 ...", one dependency a line, with make's escapes (a space as "\ ", '#' as
/// "\#", '$' as "$$") so that paths with spaces survive; Ninja and make read it as they read
/// Clang's, and the codelet cache reads it to key an entry on every file the compile read.
std::string dependencyRule(const std::string &target, const std::vector<std::string> &deps);

} // namespace popc

#endif
