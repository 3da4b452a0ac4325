// TensorImpl's element count: the product of its shape (1 for a rank-0 tensor).
#include "graph/TensorImpl.hpp"

namespace poplar::detail {

std::size_t TensorImpl::numElements() const {
  std::size_t n = 1;
  for (std::size_t d : shape)
    n *= d;
  return n;
}

} // namespace poplar::detail
