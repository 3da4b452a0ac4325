// Transpose vertices (PopLibs' names and fields): each transposes whole [rows, columns] matrices
// stored one after another, writing [columns, rows]. Elements move as raw bits.
#include <poplar/Vertex.hpp>

#include "RowCopy.hpp"

using namespace poplar;

namespace popops {
namespace {

/// Transposes one matrix of `rows` x `cols` elements from `src` into `dst`.
template <class B>
__attribute__((always_inline)) inline void transposeMatrix(const B *src, B *dst, unsigned rows,
                                                           unsigned cols) {
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c)
      dst[c * rows + r] = src[r * cols + c];
}

} // namespace

/// One worker, a list of matrices of any size, each its own src and dst region.
template <class T> class Transpose2D : public Vertex {
public:
  Vector<Input<Vector<T, VectorLayout::ONE_PTR, 8>>> src;
  Vector<Output<Vector<T, VectorLayout::ONE_PTR, 8>>, VectorLayout::ONE_PTR> dst;
  const unsigned short numSrcRows;
  const unsigned short numSrcColumns;

  bool compute() {
    for (unsigned i = 0; i < src.size(); ++i)
      transposeMatrix(reinterpret_cast<const Bits<T> *>(&src[i][0]),
                      reinterpret_cast<Bits<T> *>(&dst[i][0]), numSrcRows, numSrcColumns);
    return true;
  }
};

/// One worker, numTranspositionsM1 + 1 matrices whose sides are multiples of 4, contiguous.
template <class T> class Transpose1DSingleWorker : public Vertex {
public:
  Input<Vector<T, VectorLayout::COMPACT_PTR, 8>> src;
  Output<Vector<T, VectorLayout::COMPACT_PTR, 8>> dst;
  const unsigned short numSrcRowsD4Or8;
  const unsigned short numSrcColumnsD4Or8;
  const unsigned short numTranspositionsM1;

  bool compute() {
    const unsigned rows = numSrcRowsD4Or8 * 4u, cols = numSrcColumnsD4Or8 * 4u;
    const Bits<T> *in = reinterpret_cast<const Bits<T> *>(&src[0]);
    Bits<T> *out = reinterpret_cast<Bits<T> *>(&dst[0]);
    for (unsigned t = 0; t <= numTranspositionsM1; ++t)
      transposeMatrix(in + t * rows * cols, out + t * rows * cols, rows, cols);
    return true;
  }
};

/// Six workers over contiguous matrices whose sides are multiples of 4: workers below
/// workerCount take numTranspositions matrices each, the others one fewer.
template <class T> class Transpose1D : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::COMPACT_PTR, 8>> src;
  Output<Vector<T, VectorLayout::COMPACT_PTR, 8>> dst;
  const unsigned short numSrcRowsD4Or8;
  const unsigned short numSrcColumnsD4Or8;
  const unsigned short numTranspositions;
  const unsigned short workerCount;

  void compute(unsigned wid) {
    const unsigned rows = numSrcRowsD4Or8 * 4u, cols = numSrcColumnsD4Or8 * 4u;
    const unsigned mine = wid < workerCount ? numTranspositions : numTranspositions - 1u;
    // The workers before this one took numTranspositions each up to workerCount, then one fewer.
    const unsigned first = wid < workerCount ? wid * numTranspositions
                                             : workerCount * numTranspositions +
                                                   (wid - workerCount) * (numTranspositions - 1u);
    const Bits<T> *in = reinterpret_cast<const Bits<T> *>(&src[0]);
    Bits<T> *out = reinterpret_cast<Bits<T> *>(&dst[0]);
    for (unsigned t = first; t < first + mine; ++t)
      transposeMatrix(in + t * rows * cols, out + t * rows * cols, rows, cols);
  }
};

/// Six workers sharing up to five matrices (sides multiples of 4) by blocks: worker wid, when
/// workList has an entry for it, transposes the block of workList[4 wid + 2] x [4 wid + 3] 4x4
/// blocks whose first source element is at workList[4 wid] * 4 (its destination at
/// workList[4 wid + 1] * 4, implied by the source position).
template <class T> class SplitTranspose1D : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::COMPACT_PTR, 8>> src;
  Output<Vector<T, VectorLayout::COMPACT_PTR, 8>> dst;
  const unsigned short numSrcRowsD4Or8;
  const unsigned short numSrcColumnsD4Or8;
  Input<Vector<unsigned short, VectorLayout::SHORT_SPAN>> workList;

  void compute(unsigned wid) {
    if (wid >= workList.size() / 4)
      return;
    const unsigned rows = numSrcRowsD4Or8 * 4u, cols = numSrcColumnsD4Or8 * 4u;
    const unsigned matrix = rows * cols, in = workList[4 * wid] * 4u;
    const unsigned blockRows = workList[4 * wid + 2] * 4u, blockCols = workList[4 * wid + 3] * 4u;
    // The source position fixes the matrix, the row and the column of the block.
    const unsigned base = in / matrix * matrix, row = (in - base) / cols, col = (in - base) % cols;
    const Bits<T> *s = reinterpret_cast<const Bits<T> *>(&src[0]) + base;
    Bits<T> *d = reinterpret_cast<Bits<T> *>(&dst[0]) + base;
    for (unsigned r = row; r < row + blockRows; ++r)
      for (unsigned c = col; c < col + blockCols; ++c)
        d[c * rows + r] = s[r * cols + c];
  }
};

} // namespace popops

#define POPOPS_FAMILY_Transpose
#include "Instantiate.hpp"
