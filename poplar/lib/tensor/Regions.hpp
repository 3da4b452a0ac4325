// Building the region lists of tensor views: merging, locating flat elements, strided gathers.
#pragma once

#include "graph/TensorImpl.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace poplar::detail {

/// Accumulates regions in element order, merging each region into the previous one when it
/// continues it, so the result satisfies TensorImpl's invariant by construction.
class RegionBuilder {
public:
  void append(unsigned var, std::size_t begin, std::size_t end);
  std::size_t numElements() const { return total_; }
  /// Hands the regions (and their starts) to `impl`; the builder is left empty.
  void moveInto(TensorImpl &impl);

private:
  std::vector<Region> regions_;
  std::vector<std::size_t> starts_;
  std::size_t total_ = 0;
};

/// Copies ranges of a tensor's flat elements into a RegionBuilder. It remembers the region the
/// last copy ended in, so reads that move forward cost O(1) to locate and others O(log regions).
class RegionCursor {
public:
  explicit RegionCursor(const TensorImpl &t) : t_(&t) {}
  /// Appends flat elements [begin, end) of the tensor; requires end <= its numElements().
  void copy(std::size_t begin, std::size_t end, RegionBuilder &out);

private:
  std::size_t find(std::size_t flat);
  const TensorImpl *t_;
  std::size_t k_ = 0;
};

/// One axis of a strided view: `extent` positions, `stride` source flat elements apart.
struct Axis {
  std::size_t extent;
  std::ptrdiff_t stride;
};

/// A view whose element (i0, i1, ...), enumerated row-major over `axes`, is source flat element
/// offset + sum(ik * stride_k). Slices, indexing, dimShuffle, reverse and subSample are such
/// views; broadcast and upsample are too, by splitting a dimension into an axis of stride 0 and
/// the original axis (row-major order over the pair equals order along the merged dimension).
struct StridedView {
  std::ptrdiff_t offset = 0;
  std::vector<Axis> axes;
};

/// The view of a whole tensor of `shape`: one row-major axis per dimension.
StridedView identityView(const std::vector<std::size_t> &shape);

/// The tensor of type src.type and `shape` whose elements are `view` over `src`. The view must
/// stay inside src and have as many elements as `shape`. Cost is O(axes + runs + result
/// regions), where a run is a stretch of stride-1 source elements (each located in O(1) when
/// runs move forward, otherwise O(log src regions)).
std::shared_ptr<TensorImpl> gather(const TensorImpl &src, std::vector<std::size_t> shape,
                                   const StridedView &view);

} // namespace poplar::detail
