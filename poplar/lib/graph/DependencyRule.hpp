// Reading the make rule popc -MD writes: the files one codelet compile read.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace poplar::detail {

/// The prerequisites of the single rule "target: dep1 dep2 ..." in `text`, with make's escapes
/// undone ("\ " is a space, "\#" a '#', "$$" a '$', backslash-newline a separator); nullopt
/// if `text` holds no rule. Never throws: a damaged cache file must only cost a recompile.
std::optional<std::vector<std::string>> parseDependencyRule(const std::string &text);

} // namespace poplar::detail
