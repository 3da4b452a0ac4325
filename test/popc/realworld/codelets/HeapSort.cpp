// Sorting on a tile with the standard library's heap algorithms (std::make_heap, std::sort_heap:
// loops, not recursion), ascending or with std::greater, over float, int and half; and the k
// smallest values by std::partial_sort.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

#include <algorithm>
#include <functional>

using namespace poplar;

template <typename T, bool descending> class HeapSortInPlace : public Vertex {
public:
  InOut<Vector<T>> values;

  void compute() {
    if constexpr (descending) {
      std::make_heap(values.begin(), values.end(), std::greater<T>());
      std::sort_heap(values.begin(), values.end(), std::greater<T>());
    } else {
      std::make_heap(values.begin(), values.end());
      std::sort_heap(values.begin(), values.end());
    }
  }
};

template class HeapSortInPlace<float, false>;
template class HeapSortInPlace<float, true>;
template class HeapSortInPlace<int, false>;
template class HeapSortInPlace<half, false>;

template <typename T> class SmallestK : public Vertex {
public:
  InOut<Vector<T>> values;
  unsigned k;

  void compute() { std::partial_sort(values.begin(), values.begin() + k, values.end()); }
};

template class SmallestK<float>;
template class SmallestK<int>;
