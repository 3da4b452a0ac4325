// Argument checks shared by the Tensor API files; each names the API and the offending values.
#pragma once

#include "core/Errors.hpp"
#include "graph/TensorImpl.hpp"

#include <poplar/Tensor.hpp>

#include "support/CheckedMath.hpp"

#include <cstddef>

namespace poplar::detail {

/// The representation of `t`, or poplar_error when `t` is default-constructed.
inline const TensorImpl &implOf(const Tensor &t, const char *api) {
  if (!t.valid())
    raise<poplar_error>(api, ": the tensor is not valid (default-constructed)");
  return t.getImpl();
}

/// Throws index_error unless `dim` is a dimension of `t`.
inline void checkDim(const TensorImpl &t, std::size_t dim, const char *api) {
  if (dim >= t.shape.size())
    raise<index_error>(api, ": dimension ", dim, " is out of range for tensor ", shapeText(t.shape),
                       " of rank ", t.shape.size());
}

/// a * b, or overflow_error when the element count would not fit in size_t.
inline std::size_t checkedMul(std::size_t a, std::size_t b, const char *api) {
  auto product = popsdk::support::checkedMul(a, b);
  if (!product)
    raise<overflow_error>(api, ": ", a, " * ", b, " elements overflow size_t");
  return *product;
}

} // namespace poplar::detail
