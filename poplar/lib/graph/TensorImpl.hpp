// The representation of a tensor view: a shape over an ordered list of variable regions.
#pragma once

#include <poplar/Type.hpp>

#include <cstddef>
#include <vector>

namespace poplar::detail {

/// Elements [begin, end) of variable `var`, in that order.
struct Region {
  unsigned var;
  std::size_t begin, end;
  std::size_t size() const { return end - begin; }
  friend bool operator==(const Region &a, const Region &b) {
    return a.var == b.var && a.begin == b.begin && a.end == b.end;
  }
};

/// Element i of the flattened view (row-major over `shape`) is element
/// regions[k].begin + (i - starts[k]) of variable regions[k].var, for the k whose region holds i.
/// Adjacent regions that continue each other are always merged.
struct TensorImpl {
  Type type;
  std::vector<std::size_t> shape;
  std::vector<Region> regions;
  /// starts[k] = flat index of the first element of regions[k]; same length as regions.
  std::vector<std::size_t> starts;

  std::size_t numElements() const;
};

} // namespace poplar::detail
