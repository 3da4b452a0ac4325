// poplibs_error: the exception PopLibs throws for a misuse of its API.
#ifndef poputil_exceptions_hpp
#define poputil_exceptions_hpp

#include <stdexcept>
#include <string>

namespace poputil {

struct poplibs_error : std::runtime_error {
  std::string type;
  explicit poplibs_error(const std::string &message);
  explicit poplibs_error(const char *message);
};

} // namespace poputil

#endif
