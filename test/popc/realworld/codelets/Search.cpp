// Index and search vertices: a histogram by std::upper_bound over sorted limits, a
// MultiSlice-style gather with sorted-index lookup by std::lower_bound, a transpose with
// std::size_t arithmetic, and a circular-buffer index update.
#include <algorithm>
#include <cstddef>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> class Histogram : public Vertex {
public:
  Input<Vector<T>> data;
  Input<Vector<float>> limits;                            // sorted
  Output<Vector<unsigned, VectorLayout::ONE_PTR>> counts; // limits.size() + 1 bins

  bool compute() {
    std::fill(&counts[0], &counts[0] + limits.size() + 1, 0u);
    for (T x : data) {
      auto bin = std::upper_bound(limits.begin(), limits.end(), float(x)) - limits.begin();
      ++counts[bin];
    }
    return true;
  }
};
template class Histogram<float>;
template class Histogram<half>;
template class Histogram<int>;

class SortedLookup : public Vertex {
public:
  Input<Vector<unsigned>> keys; // sorted
  Input<Vector<float, VectorLayout::ONE_PTR>> values;
  Input<Vector<unsigned>> queries;
  Output<Vector<float, VectorLayout::ONE_PTR>> out; // -1 when absent

  bool compute() {
    for (unsigned q = 0; q < queries.size(); ++q) {
      const unsigned *it = std::lower_bound(keys.begin(), keys.end(), queries[q]);
      out[q] = it != keys.end() && *it == queries[q] ? values[it - keys.begin()] : -1.0f;
    }
    return true;
  }
};

template <typename T> class Transpose2d : public Vertex {
public:
  Input<Vector<T>> src;
  Output<Vector<T, VectorLayout::ONE_PTR>> dst;
  unsigned short numSrcRows;
  unsigned short numSrcColumns;

  bool compute() {
    for (std::size_t r = 0; r < numSrcRows; ++r)
      for (std::size_t c = 0; c < numSrcColumns; ++c)
        dst[c * numSrcRows + r] = src[r * numSrcColumns + c];
    return true;
  }
};
template class Transpose2d<float>;
template class Transpose2d<half>;
template class Transpose2d<unsigned short>;

class CircBufIncrIndex : public Vertex {
public:
  InOut<unsigned> index;
  const unsigned hSize;

  bool compute() {
    *index = (*index + 1) % hSize;
    return true;
  }
};
