// Sorting vertices: each block of a row sorted on its own (SortBlocks), then adjacent sorted blocks
// merged and split back (MergeSplit) in the rounds of an odd-even transposition over the blocks.
// KV forms move a value with each key. Every step is stable: equal keys keep their order.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

using namespace poplar;

namespace popops {

using device::Compute;

namespace {

/// Whether key a goes before key b.
template <class K>
__attribute__((always_inline)) inline bool before(Compute<K> a, Compute<K> b, bool descending) {
  return descending ? a > b : a < b;
}

/// Stable insertion sort of keys[0, n) (and values with them if HasValues).
template <bool HasValues, class K, class V>
__attribute__((always_inline)) inline void insertionSort(K *keys, V *values, unsigned n,
                                                         bool descending) {
  for (unsigned i = 1; i < n; ++i) {
    K key = keys[i];
    V value;
    if constexpr (HasValues)
      value = values[i];
    unsigned j = i;
    while (j > 0 && before<K>(key, keys[j - 1], descending)) {
      keys[j] = keys[j - 1];
      if constexpr (HasValues)
        values[j] = values[j - 1];
      --j;
    }
    keys[j] = key;
    if constexpr (HasValues)
      values[j] = value;
  }
}

/// lo[0, a) and hi[0, b), each sorted, become the first a and the last b elements of their
/// stable merge (lo's element first on ties), through scratch.
template <bool HasValues, class K, class V>
__attribute__((always_inline)) inline void mergeSplit(K *lo, V *loV, unsigned a, K *hi, V *hiV,
                                                      unsigned b, K *scratch, V *scratchV,
                                                      bool descending) {
  if (a == 0 || b == 0 || !before<K>(hi[0], lo[a - 1], descending))
    return; // already in order
  unsigned i = 0, j = 0;
  for (unsigned o = 0; o < a + b; ++o) {
    bool takeHi = i == a || (j < b && before<K>(hi[j], lo[i], descending));
    if (takeHi) {
      scratch[o] = hi[j];
      if constexpr (HasValues)
        scratchV[o] = hiV[j];
      ++j;
    } else {
      scratch[o] = lo[i];
      if constexpr (HasValues)
        scratchV[o] = loV[i];
      ++i;
    }
  }
  for (unsigned o = 0; o < a; ++o) {
    lo[o] = scratch[o];
    if constexpr (HasValues)
      loV[o] = scratchV[o];
  }
  for (unsigned o = 0; o < b; ++o) {
    hi[o] = scratch[a + o];
    if constexpr (HasValues)
      hiV[o] = scratchV[a + o];
  }
}

} // namespace

/// Sorts each of `keys` (ascending, or descending).
template <class K> class SortBlocks : public Vertex {
public:
  Vector<InOut<Vector<K>>> keys;
  const bool descending;

  bool compute() {
    for (unsigned r = 0; r < keys.size(); ++r)
      insertionSort<false, K, K>(&keys[r][0], nullptr, keys[r].size(), descending);
    return true;
  }
};

/// Sorts each of `keys`, moving `values` (same sizes) with them.
template <class K, class V> class SortBlocksKV : public Vertex {
public:
  Vector<InOut<Vector<K>>> keys;
  Vector<InOut<Vector<V>>> values;
  const bool descending;

  bool compute() {
    for (unsigned r = 0; r < keys.size(); ++r)
      insertionSort<true, K, V>(&keys[r][0], &values[r][0], keys[r].size(), descending);
    return true;
  }
};

/// For each pair i, the sorted blocks lower[i] and upper[i] become the first and second part of
/// their merge. `scratch` holds at least the largest pair.
template <class K> class MergeSplit : public Vertex {
public:
  Vector<InOut<Vector<K>>> lower;
  Vector<InOut<Vector<K>>> upper;
  InOut<Vector<K>> scratch;
  const bool descending;

  bool compute() {
    for (unsigned p = 0; p < lower.size(); ++p)
      mergeSplit<false, K, K>(&lower[p][0], nullptr, lower[p].size(), &upper[p][0], nullptr,
                              upper[p].size(), &scratch[0], nullptr, descending);
    return true;
  }
};

template <class K, class V> class MergeSplitKV : public Vertex {
public:
  Vector<InOut<Vector<K>>> lower;
  Vector<InOut<Vector<K>>> upper;
  Vector<InOut<Vector<V>>> lowerValues;
  Vector<InOut<Vector<V>>> upperValues;
  InOut<Vector<K>> scratch;
  InOut<Vector<V>> scratchValues;
  const bool descending;

  bool compute() {
    for (unsigned p = 0; p < lower.size(); ++p)
      mergeSplit<true, K, V>(&lower[p][0], &lowerValues[p][0], lower[p].size(), &upper[p][0],
                             &upperValues[p][0], upper[p].size(), &scratch[0], &scratchValues[0],
                             descending);
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Sort
#include "Instantiate.hpp"
