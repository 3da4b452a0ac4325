// Whole-file reads and FNV-1a.
#include "support/Bytes.hpp"

#include <fstream>
#include <sstream>

namespace popsdk::support {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed) {
  for (unsigned char c : bytes)
    seed = (seed ^ c) * 1099511628211ull;
  return seed;
}

} // namespace popsdk::support
