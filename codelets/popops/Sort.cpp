// Sorting vertices: each block of a row sorted on its own (SortBlocks, a merge sort), then adjacent
// sorted blocks merged and split back (MergeSplit) in the rounds of an odd-even transposition over
// the blocks. KV forms move a value with each key. Every step is stable: equal keys keep their
// order.
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

/// out[0, na + nb) = the stable merge of the sorted runs a[0, na) and b[0, nb) (a's element first
/// on ties), values moving with their keys.
template <bool HasValues, class K, class V>
__attribute__((always_inline)) inline void merge(const K *a, const V *av, unsigned na, const K *b,
                                                 const V *bv, unsigned nb, K *out, V *outV,
                                                 bool descending) {
  unsigned i = 0, j = 0, o = 0;
  while (i < na && j < nb) {
    if (before<K>(b[j], a[i], descending)) {
      out[o] = b[j];
      if constexpr (HasValues)
        outV[o] = bv[j];
      ++j;
    } else {
      out[o] = a[i];
      if constexpr (HasValues)
        outV[o] = av[i];
      ++i;
    }
    ++o;
  }
  for (; i < na; ++i, ++o) {
    out[o] = a[i];
    if constexpr (HasValues)
      outV[o] = av[i];
  }
  for (; j < nb; ++j, ++o) {
    out[o] = b[j];
    if constexpr (HasValues)
      outV[o] = bv[j];
  }
}

template <bool HasValues, class K, class V>
__attribute__((always_inline)) inline void copy(const K *src, const V *srcV, unsigned n, K *dst,
                                                V *dstV) {
  for (unsigned i = 0; i < n; ++i) {
    dst[i] = src[i];
    if constexpr (HasValues)
      dstV[i] = srcV[i];
  }
}

/// Stable sort of keys[0, n): insertion sort of runs of 8, then merge passes that alternate
/// between the keys and scratch (at least n elements), ending in the keys.
template <bool HasValues, class K, class V>
__attribute__((always_inline)) inline void mergeSort(K *keys, V *values, unsigned n, K *scratch,
                                                     V *scratchV, bool descending) {
  constexpr unsigned run = 8;
  for (unsigned r = 0; r < n; r += run)
    insertionSort<HasValues, K, V>(keys + r, HasValues ? values + r : values,
                                   n - r < run ? n - r : run, descending);
  K *src = keys, *dst = scratch;
  V *srcV = values, *dstV = scratchV;
  for (unsigned width = run; width < n; width *= 2) {
    for (unsigned lo = 0; lo < n; lo += 2 * width) {
      unsigned mid = lo + width < n ? lo + width : n;
      unsigned hi = mid + width < n ? mid + width : n;
      merge<HasValues, K, V>(src + lo, HasValues ? srcV + lo : srcV, mid - lo, src + mid,
                             HasValues ? srcV + mid : srcV, hi - mid, dst + lo,
                             HasValues ? dstV + lo : dstV, descending);
    }
    K *t = src;
    src = dst;
    dst = t;
    V *tv = srcV;
    srcV = dstV;
    dstV = tv;
  }
  if (src != keys)
    copy<HasValues, K, V>(src, srcV, n, keys, values);
}

/// lo[0, a) and hi[0, b), each sorted, become the first a and the last b elements of their
/// stable merge (lo's element first on ties), through scratch.
template <bool HasValues, class K, class V>
__attribute__((always_inline)) inline void mergeSplit(K *lo, V *loV, unsigned a, K *hi, V *hiV,
                                                      unsigned b, K *scratch, V *scratchV,
                                                      bool descending) {
  if (a == 0 || b == 0 || !before<K>(hi[0], lo[a - 1], descending))
    return; // already in order
  merge<HasValues, K, V>(lo, loV, a, hi, hiV, b, scratch, scratchV, descending);
  copy<HasValues, K, V>(scratch, scratchV, a, lo, loV);
  copy<HasValues, K, V>(scratch + a, HasValues ? scratchV + a : scratchV, b, hi, hiV);
}

} // namespace

/// Sorts each of `keys` (ascending, or descending); `scratch` holds the largest.
template <class K> class SortBlocks : public Vertex {
public:
  Vector<InOut<Vector<K>>> keys;
  InOut<Vector<K>> scratch;
  const bool descending;

  bool compute() {
    for (unsigned r = 0; r < keys.size(); ++r)
      mergeSort<false, K, K>(&keys[r][0], nullptr, keys[r].size(), &scratch[0], nullptr,
                             descending);
    return true;
  }
};

/// Sorts each of `keys`, moving `values` (same sizes) with them.
template <class K, class V> class SortBlocksKV : public Vertex {
public:
  Vector<InOut<Vector<K>>> keys;
  Vector<InOut<Vector<V>>> values;
  InOut<Vector<K>> scratch;
  InOut<Vector<V>> scratchValues;
  const bool descending;

  bool compute() {
    for (unsigned r = 0; r < keys.size(); ++r)
      mergeSort<true, K, V>(&keys[r][0], &values[r][0], keys[r].size(), &scratch[0],
                            &scratchValues[0], descending);
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
