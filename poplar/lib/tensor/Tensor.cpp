// Tensor views: indexing, slicing, reshaping, dimension shuffles and repeats, all copy-free.
#include "tensor/Regions.hpp"
#include "tensor/TensorChecks.hpp"

#include <poplar/Tensor.hpp>

#include <algorithm>
#include <utility>

namespace poplar {

using namespace detail;

namespace {

std::size_t product(const std::size_t *begin, const std::size_t *end, const char *api) {
  return popsdk::support::shapeElements<overflow_error>(ArrayRef<std::size_t>(begin, end), api);
}

/// The same elements under another shape (the caller has checked the element counts match).
Tensor withShape(const TensorImpl &t, std::vector<std::size_t> shape) {
  auto impl = std::make_shared<TensorImpl>(t);
  impl->shape = std::move(shape);
  return Tensor(std::move(impl));
}

Tensor viewOf(const TensorImpl &t, std::vector<std::size_t> shape, const StridedView &view) {
  return Tensor(gather(t, std::move(shape), view));
}

/// Replaces axis `dim` of `view` by `first` followed by `second`: a dimension of extent
/// first.extent * second.extent enumerated row-major over the pair.
void splitAxis(StridedView &view, unsigned dim, Axis first, Axis second) {
  view.axes[dim] = second;
  view.axes.insert(view.axes.begin() + dim, first);
}

/// Throws unless `dims` are distinct dimensions of `t`.
void checkDistinctDims(const TensorImpl &t, ArrayRef<unsigned> dims, const char *api,
                       const char *what) {
  std::vector<bool> seen(t.shape.size(), false);
  for (unsigned d : dims) {
    checkDim(t, d, api);
    if (seen[d])
      raise<poplar_error>(api, ": dimension ", d, " appears twice in ", what, shapeText(dims.vec()),
                          " for tensor ", shapeText(t.shape));
    seen[d] = true;
  }
}

} // namespace

Tensor::Tensor() = default;
Tensor::Tensor(const Tensor &) = default;
Tensor::Tensor(Tensor &&) noexcept = default;
Tensor &Tensor::operator=(const Tensor &) = default;
Tensor &Tensor::operator=(Tensor &&) noexcept = default;
Tensor::~Tensor() = default;

Tensor::Tensor(std::shared_ptr<const TensorImpl> impl) : impl_(std::move(impl)) {}

const TensorImpl &Tensor::getImpl() const {
  if (!impl_)
    raise<poplar_error>("Tensor::getImpl: the tensor is not valid (default-constructed)");
  return *impl_;
}

bool Tensor::valid() const { return impl_ != nullptr; }

Type Tensor::elementType() const { return implOf(*this, "Tensor::elementType").type; }

std::vector<std::size_t> Tensor::shape() const { return implOf(*this, "Tensor::shape").shape; }

unsigned Tensor::rank() const {
  return static_cast<unsigned>(implOf(*this, "Tensor::rank").shape.size());
}

std::size_t Tensor::dim(unsigned i) const {
  const TensorImpl &t = implOf(*this, "Tensor::dim");
  checkDim(t, i, "Tensor::dim");
  return t.shape[i];
}

std::size_t Tensor::numElements() const {
  return implOf(*this, "Tensor::numElements").numElements();
}

Tensor Tensor::operator[](std::size_t i) const {
  const char *api = "Tensor::operator[]";
  const TensorImpl &t = implOf(*this, api);
  if (t.shape.empty())
    raise<index_error>(api, ": cannot index a rank-0 tensor (index ", i, ")");
  if (i >= t.shape[0])
    raise<index_error>(api, ": index ", i, " is out of range for dimension 0 of size ", t.shape[0],
                       " of tensor ", shapeText(t.shape));
  StridedView view = identityView(t.shape);
  view.offset = static_cast<std::ptrdiff_t>(i) * view.axes[0].stride;
  view.axes.erase(view.axes.begin());
  return viewOf(t, std::vector<std::size_t>(t.shape.begin() + 1, t.shape.end()), view);
}

Tensor Tensor::index(ArrayRef<std::size_t> indices) const {
  const char *api = "Tensor::index";
  const TensorImpl &t = implOf(*this, api);
  if (indices.size() > t.shape.size())
    raise<index_error>(api, ": ", indices.size(), " indices ", shapeText(indices.vec()),
                       " for tensor ", shapeText(t.shape), " of rank ", t.shape.size());
  StridedView view = identityView(t.shape);
  for (std::size_t d = 0; d < indices.size(); ++d) {
    if (indices[d] >= t.shape[d])
      raise<index_error>(api, ": index ", indices[d], " is out of range for dimension ", d,
                         " of size ", t.shape[d], " of tensor ", shapeText(t.shape));
    view.offset += static_cast<std::ptrdiff_t>(indices[d]) * view.axes[d].stride;
  }
  view.axes.erase(view.axes.begin(), view.axes.begin() + indices.size());
  return viewOf(t, std::vector<std::size_t>(t.shape.begin() + indices.size(), t.shape.end()), view);
}

Tensor Tensor::slice(std::size_t begin, std::size_t end, unsigned dimension) const {
  const char *api = "Tensor::slice";
  const TensorImpl &t = implOf(*this, api);
  checkDim(t, dimension, api);
  if (begin > end)
    raise<index_error>(api, ": begin ", begin, " is greater than end ", end, " in dimension ",
                       dimension, " of tensor ", shapeText(t.shape));
  if (end > t.shape[dimension])
    raise<index_error>(api, ": end ", end, " is beyond dimension ", dimension, " of size ",
                       t.shape[dimension], " (begin ", begin, ") of tensor ", shapeText(t.shape));
  StridedView view = identityView(t.shape);
  view.offset = static_cast<std::ptrdiff_t>(begin) * view.axes[dimension].stride;
  view.axes[dimension].extent = end - begin;
  std::vector<std::size_t> shape = t.shape;
  shape[dimension] = end - begin;
  return viewOf(t, std::move(shape), view);
}

Tensor Tensor::slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const {
  const char *api = "Tensor::slice";
  const TensorImpl &t = implOf(*this, api);
  if (begin.size() != t.shape.size() || end.size() != t.shape.size())
    raise<poplar_error>(api, ": begin ", shapeText(begin.vec()), " and end ", shapeText(end.vec()),
                        " must each have one entry per dimension of tensor ", shapeText(t.shape));
  StridedView view = identityView(t.shape);
  std::vector<std::size_t> shape = t.shape;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (begin[d] > end[d] || end[d] > t.shape[d])
      raise<index_error>(api, ": slice [", begin[d], ", ", end[d], ") of dimension ", d,
                         " of size ", t.shape[d], " is out of range (begin ",
                         shapeText(begin.vec()), ", end ", shapeText(end.vec()), ", tensor ",
                         shapeText(t.shape), ")");
    view.offset += static_cast<std::ptrdiff_t>(begin[d]) * view.axes[d].stride;
    view.axes[d].extent = shape[d] = end[d] - begin[d];
  }
  return viewOf(t, std::move(shape), view);
}

std::vector<Tensor> Tensor::slices(ArrayRef<Interval> intervals, unsigned dimension) const {
  std::vector<Tensor> result;
  result.reserve(intervals.size());
  for (const Interval &i : intervals)
    result.push_back(slice(i.begin(), i.end(), dimension));
  return result;
}

std::vector<Tensor> Tensor::slices(const std::vector<std::vector<Interval>> &intervals,
                                   unsigned dimension) const {
  std::vector<Tensor> result;
  result.reserve(intervals.size());
  for (const auto &group : intervals) {
    if (group.empty()) {
      // Concatenating no slices gives nothing along `dimension`.
      result.push_back(slice(0, 0, dimension));
      continue;
    }
    result.push_back(concat(slices(group, dimension), dimension));
  }
  return result;
}

Tensor Tensor::reshape(ArrayRef<std::size_t> shape) const {
  const char *api = "Tensor::reshape";
  const TensorImpl &t = implOf(*this, api);
  const std::size_t n = product(shape.begin(), shape.end(), api);
  if (n != t.numElements())
    raise<poplar_error>(api, ": cannot reshape tensor ", shapeText(t.shape), " (", t.numElements(),
                        " elements) to ", shapeText(shape.vec()), " (", n, " elements)");
  return withShape(t, shape.vec());
}

Tensor Tensor::reshapePartial(unsigned beginIndex, unsigned endIndex,
                              ArrayRef<std::size_t> newDims) const {
  const char *api = "Tensor::reshapePartial";
  const TensorImpl &t = implOf(*this, api);
  if (beginIndex > endIndex || endIndex > t.shape.size())
    raise<index_error>(api, ": dimensions [", beginIndex, ", ", endIndex,
                       ") are not a range of the dimensions of tensor ", shapeText(t.shape));
  const std::size_t *first = t.shape.data() + beginIndex;
  const std::size_t *last = t.shape.data() + endIndex;
  const std::size_t oldCount = product(first, last, api);
  const std::size_t newCount = product(newDims.begin(), newDims.end(), api);
  if (oldCount != newCount)
    raise<poplar_error>(api, ": dimensions [", beginIndex, ", ", endIndex, ") of tensor ",
                        shapeText(t.shape), " hold ", oldCount, " elements but ",
                        shapeText(newDims.vec()), " holds ", newCount);
  std::vector<std::size_t> shape(t.shape.data(), first);
  shape.insert(shape.end(), newDims.begin(), newDims.end());
  shape.insert(shape.end(), last, t.shape.data() + t.shape.size());
  return withShape(t, std::move(shape));
}

Tensor Tensor::flatten() const {
  const TensorImpl &t = implOf(*this, "Tensor::flatten");
  return withShape(t, {t.numElements()});
}

Tensor Tensor::flatten(unsigned dimBegin, unsigned dimEnd) const {
  const char *api = "Tensor::flatten";
  const TensorImpl &t = implOf(*this, api);
  if (dimBegin >= dimEnd || dimEnd > t.shape.size())
    raise<index_error>(api, ": dimensions [", dimBegin, ", ", dimEnd,
                       ") are not a non-empty range of the dimensions of tensor ",
                       shapeText(t.shape));
  const std::size_t n = product(t.shape.data() + dimBegin, t.shape.data() + dimEnd, api);
  return reshapePartial(dimBegin, dimEnd, ArrayRef<std::size_t>(&n, 1));
}

Tensor Tensor::transpose() const {
  const TensorImpl &t = implOf(*this, "Tensor::transpose");
  if (t.shape.size() != 2)
    raise<poplar_error>("Tensor::transpose: tensor ", shapeText(t.shape), " has rank ",
                        t.shape.size(), "; only rank-2 tensors can be transposed (see dimShuffle)");
  const unsigned swapped[] = {1, 0};
  return dimShuffle(ArrayRef<unsigned>(swapped, 2));
}

Tensor Tensor::dimShuffle(ArrayRef<unsigned> permutation) const {
  const char *api = "Tensor::dimShuffle";
  const TensorImpl &t = implOf(*this, api);
  if (permutation.size() != t.shape.size())
    raise<poplar_error>(api, ": permutation ", shapeText(permutation.vec()), " has ",
                        permutation.size(), " entries but tensor ", shapeText(t.shape),
                        " has rank ", t.shape.size());
  checkDistinctDims(t, permutation, api, "permutation ");
  const StridedView whole = identityView(t.shape);
  StridedView view;
  std::vector<std::size_t> shape;
  bool identity = true;
  for (std::size_t i = 0; i < permutation.size(); ++i) {
    view.axes.push_back(whole.axes[permutation[i]]);
    shape.push_back(t.shape[permutation[i]]);
    identity = identity && permutation[i] == i;
  }
  if (identity)
    return *this;
  return viewOf(t, std::move(shape), view);
}

Tensor Tensor::dimShufflePartial(ArrayRef<unsigned> source, ArrayRef<unsigned> destination) const {
  const char *api = "Tensor::dimShufflePartial";
  const TensorImpl &t = implOf(*this, api);
  if (source.size() != destination.size())
    raise<poplar_error>(api, ": source ", shapeText(source.vec()), " and destination ",
                        shapeText(destination.vec()), " differ in length");
  checkDistinctDims(t, source, api, "source ");
  checkDistinctDims(t, destination, api, "destination ");
  // Moved dimensions land at their destinations; the others fill the remaining places in order.
  const unsigned rank = static_cast<unsigned>(t.shape.size());
  std::vector<unsigned> permutation(rank, rank);
  std::vector<bool> moved(rank, false);
  for (std::size_t i = 0; i < source.size(); ++i) {
    permutation[destination[i]] = source[i];
    moved[source[i]] = true;
  }
  unsigned next = 0;
  for (unsigned &p : permutation) {
    if (p != rank)
      continue;
    while (moved[next])
      ++next;
    p = next++;
  }
  return dimShuffle(permutation);
}

Tensor Tensor::dimRoll(unsigned dimIdx, unsigned newIdx) const {
  const char *api = "Tensor::dimRoll";
  const TensorImpl &t = implOf(*this, api);
  checkDim(t, dimIdx, api);
  checkDim(t, newIdx, api);
  return dimShufflePartial(ArrayRef<unsigned>(&dimIdx, 1), ArrayRef<unsigned>(&newIdx, 1));
}

Tensor Tensor::expand(ArrayRef<std::size_t> indices) const {
  const char *api = "Tensor::expand";
  const TensorImpl &t = implOf(*this, api);
  std::vector<std::size_t> sorted = indices.vec();
  std::sort(sorted.begin(), sorted.end());
  if (!sorted.empty() && sorted.back() > t.shape.size())
    raise<index_error>(api, ": index ", sorted.back(), " in ", shapeText(indices.vec()),
                       " is beyond the rank ", t.shape.size(), " of tensor ", shapeText(t.shape));
  // Indices name positions in the original shape; a repeated index inserts several dims there.
  std::vector<std::size_t> shape;
  auto next = sorted.begin();
  for (std::size_t d = 0; d <= t.shape.size(); ++d) {
    for (; next != sorted.end() && *next == d; ++next)
      shape.push_back(1);
    if (d < t.shape.size())
      shape.push_back(t.shape[d]);
  }
  return withShape(t, std::move(shape));
}

Tensor Tensor::squeeze(ArrayRef<std::size_t> indices) const {
  const char *api = "Tensor::squeeze";
  const TensorImpl &t = implOf(*this, api);
  std::vector<bool> drop(t.shape.size(), false);
  for (std::size_t d : indices) {
    checkDim(t, d, api);
    if (t.shape[d] != 1)
      raise<poplar_error>(api, ": dimension ", d, " of tensor ", shapeText(t.shape), " has size ",
                          t.shape[d], ", not 1");
    if (drop[d])
      raise<poplar_error>(api, ": dimension ", d, " appears twice in ", shapeText(indices.vec()));
    drop[d] = true;
  }
  std::vector<std::size_t> shape;
  for (std::size_t d = 0; d < t.shape.size(); ++d)
    if (!drop[d])
      shape.push_back(t.shape[d]);
  return withShape(t, std::move(shape));
}

Tensor Tensor::broadcast(unsigned N, unsigned dim) const {
  const char *api = "Tensor::broadcast";
  const TensorImpl &t = implOf(*this, api);
  checkDim(t, dim, api);
  if (N == 1)
    return *this;
  std::vector<std::size_t> shape = t.shape;
  shape[dim] = checkedMul(shape[dim], N, api);
  product(shape.data(), shape.data() + shape.size(), api);
  StridedView view = identityView(t.shape);
  splitAxis(view, dim, {N, 0}, view.axes[dim]);
  return viewOf(t, std::move(shape), view);
}

Tensor Tensor::upsample(unsigned scale, unsigned dim, UpsampleMethod method) const {
  const char *api = "Tensor::upsample";
  const TensorImpl &t = implOf(*this, api);
  checkDim(t, dim, api);
  if (method != UpsampleMethod::REPEAT)
    raise<poplar_error>(api, ": unknown upsample method ", static_cast<int>(method));
  if (scale == 1)
    return *this;
  std::vector<std::size_t> shape = t.shape;
  shape[dim] = checkedMul(shape[dim], scale, api);
  product(shape.data(), shape.data() + shape.size(), api);
  StridedView view = identityView(t.shape);
  splitAxis(view, dim, view.axes[dim], {scale, 0});
  return viewOf(t, std::move(shape), view);
}

Tensor Tensor::reverse(unsigned dimension) const {
  const char *api = "Tensor::reverse";
  const TensorImpl &t = implOf(*this, api);
  checkDim(t, dimension, api);
  if (t.shape[dimension] <= 1)
    return *this;
  StridedView view = identityView(t.shape);
  Axis &axis = view.axes[dimension];
  view.offset = static_cast<std::ptrdiff_t>(axis.extent - 1) * axis.stride;
  axis.stride = -axis.stride;
  return viewOf(t, t.shape, view);
}

Tensor Tensor::subSample(unsigned stride, unsigned dimension) const {
  const char *api = "Tensor::subSample";
  const TensorImpl &t = implOf(*this, api);
  checkDim(t, dimension, api);
  if (stride == 0)
    raise<poplar_error>(api, ": stride 0 is invalid (dimension ", dimension, " of tensor ",
                        shapeText(t.shape), "); it must be at least 1");
  if (stride == 1)
    return *this;
  StridedView view = identityView(t.shape);
  Axis &axis = view.axes[dimension];
  axis.extent = (axis.extent + stride - 1) / stride;
  axis.stride *= static_cast<std::ptrdiff_t>(stride);
  std::vector<std::size_t> shape = t.shape;
  shape[dimension] = axis.extent;
  return viewOf(t, std::move(shape), view);
}

Tensor Tensor::append(const Tensor &t, unsigned dimension) const {
  return concat(*this, t, dimension);
}

} // namespace poplar
