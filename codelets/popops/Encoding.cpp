// Encoding vertices: one-hot rows from run-time indices (EncodeOneHot) and integer ranges (Iota).
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace popops {

/// `out` is a run of pieces of one-hot rows: piece i has sliceLength[i] elements, starting at
/// column offsets[i] of the row whose hot column is indices[i]. The hot element is on[0], the
/// others off[0]; an index outside the piece's row (MASKED_LABEL_CODE, a negative int) is all
/// off.
template <class IndexT, class OutT> class EncodeOneHot : public Vertex {
public:
  Input<Vector<IndexT>> indices;
  Output<Vector<OutT, VectorLayout::ONE_PTR>> out;
  Input<Vector<OutT, VectorLayout::ONE_PTR>> on;
  Input<Vector<OutT, VectorLayout::ONE_PTR>> off;
  Vector<unsigned> offsets;
  Vector<unsigned> sliceLength;

  bool compute() {
    OutT onValue = on[0], offValue = off[0];
    OutT *p = &out[0];
    for (unsigned i = 0; i < indices.size(); ++i) {
      unsigned n = sliceLength[i];
      unsigned hot = unsigned(indices[i]) - offsets[i];
      for (unsigned e = 0; e < n; ++e)
        p[e] = offValue;
      if (hot < n)
        p[hot] = onValue;
      p += n;
    }
    return true;
  }
};

/// out[r][i] = offsets[r] + i for each region r.
template <class T> class Iota : public Vertex {
public:
  Vector<Output<Vector<T>>> out;
  Vector<T> offsets;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r) {
      T *p = &out[r][0];
      T start = offsets[r];
      unsigned n = out[r].size();
      for (unsigned i = 0; i < n; ++i)
        p[i] = start + T(i);
    }
    return true;
  }
};

/// out[0] = the logical AND of every element of every region of `in` (T is bool).
template <class T> class AllTrue : public Vertex {
public:
  Vector<Input<Vector<T>>> in;
  Output<Vector<T, VectorLayout::ONE_PTR>> out;

  bool compute() {
    bool all = true;
    for (unsigned r = 0; r < in.size() && all; ++r) {
      const T *p = &in[r][0];
      unsigned n = in[r].size();
      for (unsigned i = 0; i < n; ++i)
        if (!p[i]) {
          all = false;
          break;
        }
    }
    out[0] = all;
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Encoding
#include "Instantiate.hpp"
