// The order a sorting operation leaves its result in.
#ifndef popops_SortOrder_hpp
#define popops_SortOrder_hpp

#include <iosfwd>

namespace popops {

enum class SortOrder {
  /// Any order.
  NONE,
  ASCENDING,
  DESCENDING
};

std::ostream &operator<<(std::ostream &os, const SortOrder &o);

} // namespace popops

#endif
