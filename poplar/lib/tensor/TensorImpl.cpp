// TensorImpl's element count: the checked product of its shape (1 for a rank-0 tensor).
#include "graph/TensorImpl.hpp"

#include "support/CheckedMath.hpp"

#include <poplar/exceptions.hpp>

namespace poplar::detail {

std::size_t TensorImpl::numElements() const {
  return popsdk::support::shapeElements<overflow_error>(shape, "Tensor::numElements");
}

} // namespace poplar::detail
