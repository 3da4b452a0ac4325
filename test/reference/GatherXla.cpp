// Host reference for XLA's gather, straight from its definition: every output element's batch
// and window coordinates, its index vector, the clamped start, and the input element they name.
#include "Slice.hpp"

#include <algorithm>

namespace popsdk::reference {

namespace {

std::size_t flatIndex(const std::vector<std::size_t> &shape, const std::vector<std::size_t> &at) {
  std::size_t i = 0;
  for (std::size_t d = 0; d < shape.size(); ++d)
    i = i * shape[d] + at[d];
  return i;
}

bool contains(const std::vector<std::size_t> &v, std::size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

} // namespace

std::vector<double>
gatherXla(const std::vector<double> &t, const std::vector<std::size_t> &shape,
          const std::vector<std::int64_t> &indices, const std::vector<std::size_t> &indexShape,
          std::size_t indexVectorDim, const std::vector<std::size_t> &offsetDims,
          const std::vector<std::size_t> &sliceSizes,
          const std::vector<std::size_t> &collapsedSliceDims,
          const std::vector<unsigned> &startIndexMap, std::vector<std::size_t> &outShape) {
  std::vector<std::size_t> batchShape, windowShape, windowDims;
  for (std::size_t d = 0; d < indexShape.size(); ++d)
    if (d != indexVectorDim)
      batchShape.push_back(indexShape[d]);
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (!contains(collapsedSliceDims, d)) {
      windowShape.push_back(sliceSizes[d]);
      windowDims.push_back(d);
    }
  const std::size_t outRank = batchShape.size() + windowShape.size();
  outShape.clear();
  for (std::size_t i = 0, b = 0, o = 0; i < outRank; ++i)
    outShape.push_back(contains(offsetDims, i) ? windowShape[o++] : batchShape[b++]);
  std::size_t count = 1;
  for (auto d : outShape)
    count *= d;
  std::vector<double> out(count);
  std::vector<std::size_t> at(outRank);
  for (std::size_t e = 0; e < count; ++e) {
    std::size_t rest = e;
    for (std::size_t d = outRank; d-- > 0;) {
      at[d] = rest % outShape[d];
      rest /= outShape[d];
    }
    std::vector<std::size_t> batch, window;
    for (std::size_t i = 0; i < outRank; ++i)
      (contains(offsetDims, i) ? window : batch).push_back(at[i]);
    std::vector<std::size_t> input(shape.size(), 0);
    for (std::size_t k = 0; k < startIndexMap.size(); ++k) {
      // The index vector's component k: the batch coordinates with k inserted at indexVectorDim.
      std::vector<std::size_t> where = batch;
      if (indexVectorDim < indexShape.size())
        where.insert(where.begin() + indexVectorDim, k);
      std::int64_t start = indices[flatIndex(indexShape, where)];
      const unsigned d = startIndexMap[k];
      const std::int64_t limit = std::int64_t(shape[d] - sliceSizes[d]);
      input[d] = std::size_t(std::min(std::max<std::int64_t>(start, 0), limit));
    }
    for (std::size_t j = 0; j < windowDims.size(); ++j)
      input[windowDims[j]] += window[j];
    out[e] = t[flatIndex(shape, input)];
  }
  return out;
}

} // namespace popsdk::reference
