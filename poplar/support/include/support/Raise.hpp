// raise<E>(parts...): throw an exception whose message is the streamed parts; shape text for
// messages. Used by poplar (poplar_error subclasses) and PopLibs (poputil::poplibs_error).
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace popsdk::support {

template <class E, class... Parts> [[noreturn]] void raise(const Parts &...parts) {
  std::ostringstream os;
  (os << ... << parts);
  throw E(os.str());
}

/// "{2,3}"-style text of a shape, for messages.
template <class T> std::string shapeText(const std::vector<T> &shape) {
  std::string s = "{";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "}";
}

} // namespace popsdk::support
