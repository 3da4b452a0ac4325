// Argument checks shared by popnn's ops.
#include "Checks.hpp"

#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

namespace popnn::internal {

using popsdk::support::raise;
using popsdk::support::shapeText;

void checkFloatingPoint(const std::string &api, const std::string &name, const poplar::Tensor &t) {
  if (t.elementType() != poplar::FLOAT && t.elementType() != poplar::HALF)
    raise<poputil::poplibs_error>(api, ": ", name, " has type ", t.elementType(),
                                  " but must be float or half");
}

void checkRank(const std::string &api, const std::string &name, const poplar::Tensor &t,
               std::size_t rank) {
  if (t.rank() != rank)
    raise<poputil::poplibs_error>(api, ": ", name, " has shape ", shapeText(t.shape()), " (rank ",
                                  t.rank(), ") but must have rank ", rank);
}

void checkMinRank(const std::string &api, const std::string &name, const poplar::Tensor &t,
                  std::size_t rank) {
  if (t.rank() < rank)
    raise<poputil::poplibs_error>(api, ": ", name, " has shape ", shapeText(t.shape()), " (rank ",
                                  t.rank(), ") but must have rank ", rank, " or more");
}

void checkShape(const std::string &api, const std::string &name, const poplar::Tensor &t,
                const std::vector<std::size_t> &shape) {
  if (t.shape() != shape)
    raise<poputil::poplibs_error>(api, ": ", name, " has shape ", shapeText(t.shape()),
                                  " but must have shape ", shapeText(shape));
}

void checkType(const std::string &api, const std::string &name, const poplar::Tensor &t,
               const poplar::Type &type) {
  if (t.elementType() != type)
    raise<poputil::poplibs_error>(api, ": ", name, " has type ", t.elementType(), " but must be ",
                                  type);
}

} // namespace popnn::internal
