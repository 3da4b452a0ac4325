// Checked products for shapes and byte sizes: a count that would wrap is an error naming the
// shape, never a small number (a tensor of {2^40, 2^40} once had 0 elements and compiled).
#pragma once

#include "support/Raise.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace popsdk::support {

/// a * b, or nullopt if it does not fit in a size_t.
inline std::optional<std::size_t> checkedMul(std::size_t a, std::size_t b) {
  std::size_t product;
  if (__builtin_mul_overflow(a, b, &product))
    return std::nullopt;
  return product;
}

/// The element count of `shape` (1 for rank 0). Throws E, "<api>: shape {..} has more elements
/// than a size_t holds", if the product wraps.
template <class E, class Range> std::size_t shapeElements(const Range &shape, const char *api) {
  std::size_t n = 1;
  for (std::size_t d : shape) {
    auto next = checkedMul(n, d);
    if (!next)
      raise<E>(api, ": shape ", shapeText(std::vector<std::size_t>(shape.begin(), shape.end())),
               " has more elements than a size_t holds");
    n = *next;
  }
  return n;
}

/// The bytes of `shape` at `elementBytes` each. Throws E naming the shape if the element count or
/// the byte size wraps.
template <class E, class Range>
std::size_t shapeBytes(const Range &shape, std::size_t elementBytes, const char *api) {
  auto bytes = checkedMul(shapeElements<E>(shape, api), elementBytes);
  if (!bytes)
    raise<E>(api, ": shape ", shapeText(std::vector<std::size_t>(shape.begin(), shape.end())),
             " of ", elementBytes, "-byte elements has more bytes than a size_t holds");
  return *bytes;
}

} // namespace popsdk::support
