// poplibs_error's constructors, out of line so that the type has one home (libpoputil).
#include <poputil/exceptions.hpp>

namespace poputil {

poplibs_error::poplibs_error(const std::string &message)
    : std::runtime_error(message), type("poplibs_error") {}
poplibs_error::poplibs_error(const char *message)
    : std::runtime_error(message), type("poplibs_error") {}

} // namespace poputil
