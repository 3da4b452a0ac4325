// Loading codelets (.gp objects, or C++ compiled by popc) into a graph's vertex type table.
#pragma once

#include "graph/GraphState.hpp"

#include <poplar/GraphElements.hpp>

#include <string>

namespace poplar::detail {

/// Loads the codelets in file `path` (relative paths resolve against the working directory).
void loadCodelets(GraphState &state, const std::string &path, CodeletFileType type,
                  const std::string &compileFlags, const std::string &targetName);

/// Loads codelets from C++ source text.
void loadCodeletSource(GraphState &state, const std::string &source, CodeletFileType type,
                       const std::string &compileFlags, const std::string &targetName);

} // namespace poplar::detail
