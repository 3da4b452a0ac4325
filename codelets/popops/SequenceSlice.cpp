// Sequence slicing (SequenceSlice): runs of rows copied from a source to a destination at
// run-time offsets and lengths, the columns split between the workers.
#include <poplar/Vertex.hpp>

#include "RowCopy.hpp"

using namespace poplar;

namespace popops {

/// For each entry k: dstT rows [dstOffset[k], dstOffset[k] + nElements[k]) = srcT rows
/// [srcOffset[k], ...), rows of regionSize elements; rows beyond either tensor are not copied.
/// With zeroUnused, every destination row no entry writes becomes zeros.
template <class T> class SequenceSlice : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 4>> srcT;
  InOut<Vector<T, VectorLayout::ONE_PTR, 4>> dstT;
  Input<Vector<unsigned>> nElements;
  Input<Vector<unsigned, VectorLayout::ONE_PTR>> srcOffset;
  Input<Vector<unsigned, VectorLayout::ONE_PTR>> dstOffset;
  const unsigned numSrcRows;
  const unsigned numDstRows;
  const unsigned regionSize;
  const bool zeroUnused;

  void compute(unsigned wid) {
    auto r = rowWorkerRange(wid, regionSize, sizeof(T));
    const Bits<T> *src = reinterpret_cast<const Bits<T> *>(&srcT[0]);
    Bits<T> *dst = reinterpret_cast<Bits<T> *>(&dstT[0]);
    if (zeroUnused) {
      // A row is unused unless an entry writes it; each worker clears its columns of the rows
      // no entry covers.
      for (unsigned row = 0; row < numDstRows; ++row) {
        bool used = false;
        for (unsigned k = 0; k < nElements.size() && !used; ++k) {
          unsigned begin = dstOffset[k], n = nElements[k];
          used = row - begin < n && srcOffset[k] + (row - begin) < numSrcRows;
        }
        if (!used)
          zeroRow(dst + row * regionSize, r.begin, r.end);
      }
    }
    for (unsigned k = 0; k < nElements.size(); ++k)
      for (unsigned i = 0; i < nElements[k]; ++i) {
        unsigned s = srcOffset[k] + i, d = dstOffset[k] + i;
        if (s >= numSrcRows || d >= numDstRows)
          break;
        copyRow(dst + d * regionSize, src + s * regionSize, r.begin, r.end);
      }
  }
};

} // namespace popops

#define POPOPS_FAMILY_SequenceSlice
#include "Instantiate.hpp"
