// poplar's error helpers: raise<E>(parts...) and shapeText, from the shared support library, and
// the null check of every API that takes a host pointer.
#pragma once

#include "support/Raise.hpp"

#include <poplar/exceptions.hpp>

#include <cstddef>
#include <string>

namespace poplar::detail {
using popsdk::support::raise;
using popsdk::support::shapeText;

/// Throws E, "<api>: <arg> is null (<object> needs <bytes> bytes)", when `p` is null and the call
/// would move `bytes` > 0 through it; a null pointer for nothing to copy is accepted, as an empty
/// std::vector's data() is null.
template <class E>
void checkHostPointer(const void *p, std::size_t bytes, const char *api, const char *arg,
                      const std::string &object) {
  if (!p && bytes)
    raise<E>(api, ": ", arg, " is null (", object, " needs ", bytes, " bytes)");
}
} // namespace poplar::detail
