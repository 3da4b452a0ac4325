// One scalar per row of a [rows, width] tensor at a run-time column index (SelectFromRows,
// UpdateScalarInRows): the pieces of rows a tile holds, each with its row's index. An index of
// MASKED_LABEL_CODE selects nothing; any other index at or beyond the width makes the row NaN.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>
#include <popops/EncodingConstants.hpp>

using namespace poplar;

namespace popops {

using device::Compute;

namespace {

/// A quiet NaN of T, written as bits (the conversion of a float NaN to half is not needed).
template <class T> struct QuietNaN;
template <> struct QuietNaN<float> {
  static void store(float *p) { *reinterpret_cast<unsigned *>(p) = 0x7fc00000u; }
};
template <> struct QuietNaN<half> {
  static void store(half *p) { *reinterpret_cast<unsigned short *>(p) = 0x7e00u; }
};

} // namespace

/// out[p] = the element of piece p at its row's index: params[p][indices[p] - columnBegin[p]]
/// when the index falls in the piece, NaN in the piece that starts the row when the index is
/// beyond `width` (and not MASKED_LABEL_CODE), else 0. The pieces of a row sum to its result.
template <class T> class SelectFromRows : public Vertex {
public:
  Vector<Input<Vector<T>>> params;
  Input<Vector<unsigned>> indices;
  Output<Vector<T, VectorLayout::ONE_PTR>> out;
  Vector<unsigned> columnBegin;
  const unsigned width;

  bool compute() {
    for (unsigned p = 0; p < params.size(); ++p) {
      unsigned index = indices[p];
      unsigned column = index - columnBegin[p];
      if (index != MASKED_LABEL_CODE && index >= width && columnBegin[p] == 0)
        QuietNaN<T>::store(&out[p]);
      else if (index < width && column < params[p].size())
        out[p] = params[p][column];
      else
        out[p] = T(0);
    }
    return true;
  }
};

/// params[p][indices[p] - columnBegin[p]] -= 1 when the row's index falls in piece p; every
/// element of the piece becomes NaN when the index is beyond `width` (and not
/// MASKED_LABEL_CODE).
template <class T> class UpdateScalarInRows : public Vertex {
public:
  Vector<InOut<Vector<T>>> params;
  Input<Vector<unsigned>> indices;
  Vector<unsigned> columnBegin;
  const unsigned width;

  bool compute() {
    for (unsigned p = 0; p < params.size(); ++p) {
      unsigned index = indices[p];
      if (index == MASKED_LABEL_CODE)
        continue;
      T *row = &params[p][0];
      unsigned n = params[p].size();
      if (index >= width) {
        for (unsigned e = 0; e < n; ++e)
          QuietNaN<T>::store(&row[e]);
        continue;
      }
      unsigned column = index - columnBegin[p];
      if (column < n)
        row[column] = Compute<T>(row[column]) - Compute<T>(1);
    }
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_ScalarInRows
#include "Instantiate.hpp"
