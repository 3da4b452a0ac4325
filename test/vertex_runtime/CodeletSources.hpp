// Where the runtime vertex tests find their codelet sources (codelets/ beside this file).
#pragma once

#include <string>

namespace popsdk::test {

/// Absolute path of a codelet source under test/vertex_runtime/codelets/.
inline std::string codeletPath(const std::string &name) {
  return std::string(CODELET_SOURCE_DIR) + "/codelets/" + name;
}

} // namespace popsdk::test
