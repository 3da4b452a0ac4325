// popops DynamicSlice1D<T>: copy numSubElements rows of regionSize elements from row `offset`
// (clamped with std::min, wrapping past the end as PopLibs does) with std::memcpy of a size only
// known at run time.
#include <algorithm>
#include <cstring>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> class DynamicSlice1D : public Vertex {
public:
  Input<unsigned> offset;
  Input<Vector<T, VectorLayout::ONE_PTR>> baseT;
  Output<Vector<T, VectorLayout::ONE_PTR>> subT;
  unsigned numBaseElements;
  unsigned short numSubElements;
  unsigned short regionSize;

  bool compute() {
    unsigned start = std::min<unsigned>(offset, numBaseElements - 1);
    for (unsigned r = 0; r < numSubElements; ++r) {
      unsigned row = (start + r) % numBaseElements;
      std::memcpy(&subT[r * regionSize], &baseT[row * regionSize], regionSize * sizeof(T));
    }
    return true;
  }
};

template class DynamicSlice1D<float>;
template class DynamicSlice1D<half>;
template class DynamicSlice1D<unsigned char>;
