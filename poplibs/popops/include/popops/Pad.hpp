// Padding a tensor: with a constant (new constant elements, or views of a one-element tensor) or
// numpy-style with the tensor's own elements (EDGE, REFLECT: views only). Negative padding
// truncates.
#ifndef popops_Pad_hpp
#define popops_Pad_hpp

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <vector>

namespace popops {

namespace padding {

/// numpy.pad's modes that need no value.
enum class Type {
  /// Each new element repeats the nearest element of the tensor's edge.
  EDGE,
  /// The tensor mirrored about its edge element (which is not repeated).
  REFLECT
};

/// Where new constant padding elements are mapped.
enum class MappingMethod {
  /// Not mapped: the caller maps them.
  NONE,
  /// On tile 0.
  ZERO,
  /// Like the edge elements they sit beside (the tensor must be non-empty and mapped).
  EDGE
};

} // namespace padding

/// `t` with paddingLower[d] elements of value `val` added before and paddingUpper[d] after each
/// dimension d (negative amounts truncate).
poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t,
                   const std::vector<std::ptrdiff_t> &paddingLower,
                   const std::vector<std::ptrdiff_t> &paddingUpper, float val = 0.0f,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t,
                   const std::vector<std::ptrdiff_t> &paddingLower,
                   const std::vector<std::ptrdiff_t> &paddingUpper, int val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

/// Padding with the value of `val`, a one-element tensor of t's type: the new elements are views
/// of it, so `mappingMethod` has nothing to map.
poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t,
                   const std::vector<std::ptrdiff_t> &paddingLower,
                   const std::vector<std::ptrdiff_t> &paddingUpper, const poplar::Tensor &val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

/// The same, in dimension `dim` only.
poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, float val = 0.0f,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, int val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, const poplar::Tensor &val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

/// numpy-style padding of every dimension: a view of `t`, no new elements.
poplar::Tensor pad(const poplar::Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
                   const std::vector<std::ptrdiff_t> &paddingUpper, padding::Type type);

/// numpy-style padding of dimension `dim`.
poplar::Tensor pad(const poplar::Tensor &t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, padding::Type type);

} // namespace popops

#endif
