// Tensor: a shaped view over regions of graph variables; every view operation is copy-free.
#ifndef poplar_Tensor_hpp
#define poplar_Tensor_hpp

#include <poplar/ArrayRef.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Type.hpp>
#include <poplar/VariableRef.hpp>

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace poplar {

namespace detail {
struct TensorImpl;
}

enum class UpsampleMethod { REPEAT };

class Tensor {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor(Tensor &&) noexcept;
  Tensor &operator=(const Tensor &);
  Tensor &operator=(Tensor &&) noexcept;
  ~Tensor();

  Type elementType() const;
  std::vector<std::size_t> shape() const;
  unsigned rank() const;
  std::size_t dim(unsigned i) const;
  std::size_t numElements() const;
  bool valid() const;

  /// Element `i` of dimension 0 (the result has one dimension less).
  Tensor operator[](std::size_t i) const;
  Tensor index(ArrayRef<std::size_t> indices) const;
  Tensor slice(std::size_t begin, std::size_t end, unsigned dimension) const;
  Tensor slice(std::size_t begin, std::size_t end) const { return slice(begin, end, 0); }
  Tensor slice(const Interval &region, unsigned dimension = 0) const {
    return slice(region.begin(), region.end(), dimension);
  }
  Tensor slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const;
  std::vector<Tensor> slices(ArrayRef<Interval> intervals, unsigned dimension = 0) const;
  std::vector<Tensor> slices(const std::vector<std::vector<Interval>> &intervals,
                             unsigned dimension = 0) const;

  Tensor reshape(ArrayRef<std::size_t> shape) const;
  Tensor reshapePartial(unsigned beginIndex, unsigned endIndex,
                        ArrayRef<std::size_t> newDims) const;
  Tensor flatten() const;
  Tensor flatten(unsigned dimBegin, unsigned dimEnd) const;
  Tensor transpose() const;
  Tensor dimShuffle(ArrayRef<unsigned> permutation) const;
  Tensor dimShufflePartial(ArrayRef<unsigned> source, ArrayRef<unsigned> destination) const;
  Tensor dimRoll(unsigned dimIdx, unsigned newIdx = 0) const;
  Tensor expand(ArrayRef<std::size_t> indices) const;
  Tensor squeeze(ArrayRef<std::size_t> indices) const;
  Tensor broadcast(unsigned N, unsigned dim) const;
  Tensor upsample(unsigned scale, unsigned dim, UpsampleMethod method) const;
  Tensor reverse(unsigned dimension) const;
  Tensor subSample(unsigned stride, unsigned dimension) const;
  Tensor append(const Tensor &t, unsigned dimension = 0) const;

  /// Intervals of the flattened tensor that are each contiguous in one variable.
  std::vector<Interval> getContiguousRegions() const;
  /// The variable intervals this tensor views, in element order.
  std::vector<VariableInterval> getVarRegions() const;
  bool isContiguous() const;
  bool intersectsWith(const Tensor &other) const;
  bool containsAliases() const;

  std::string shapeToString() const;
  friend bool operator==(const Tensor &a, const Tensor &b);
  friend bool operator!=(const Tensor &a, const Tensor &b) { return !(a == b); }

  /// Internal.
  explicit Tensor(std::shared_ptr<const detail::TensorImpl> impl);
  const detail::TensorImpl &getImpl() const;

private:
  std::shared_ptr<const detail::TensorImpl> impl_;
};

Tensor concat(ArrayRef<Tensor> ts, unsigned dimension = 0);
Tensor concat(const Tensor &first, const Tensor &second, unsigned dimension = 0);
Tensor append(const Tensor &first, const Tensor &second, unsigned dimension = 0);

std::ostream &operator<<(std::ostream &os, const Tensor &t);

} // namespace poplar

#endif
