// Sorting on a tile with the standard library: heap algorithms (std::make_heap, std::sort_heap),
// ascending or with std::greater, over float, int and half; the k smallest values by
// std::partial_sort; std::sort (introsort, recursive: popc reserves --recursion-depth levels of
// stack); and a recursion of the caller's depth, which past that reserve is a stack overflow.
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

template <typename T> class StdSort : public Vertex {
public:
  InOut<Vector<T>> values;

  void compute() { std::sort(values.begin(), values.end()); }
};

template class StdSort<float>;
template class StdSort<int>;

// Post-order work after the recursive call: no tail call to turn into a loop.
inline int polynomial(const int *coefficients, unsigned n) {
  if (n == 0)
    return 0;
  int rest = polynomial(coefficients + 1, n - 1);
  return rest * 3 + coefficients[0];
}

class RecursivePolynomial : public Vertex {
public:
  Input<Vector<int>> coefficients; // recursion depth = size
  Output<int> value;

  void compute() { *value = polynomial(&coefficients[0], coefficients.size()); }
};
