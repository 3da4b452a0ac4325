// raise<E>(parts...): throw a poplar_error subclass whose message is the streamed parts.
#pragma once

#include <poplar/exceptions.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace poplar::detail {

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

} // namespace poplar::detail
