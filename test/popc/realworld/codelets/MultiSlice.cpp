// popops-style MultiSlice: copies the rows of `baseT` named by `offsets` (relative to
// baseOffset; rows outside [0, numBaseElements) are skipped, leaving the output row as it was)
// into consecutive rows of subT, `regionSize` elements each, over float, half and int.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

#include <cassert>
#include <cstring>

using namespace poplar;

namespace popops {

template <typename T> class MultiSlice : public Vertex {
public:
  MultiSlice();

  Input<Vector<unsigned>> offsets;
  Input<Vector<T, VectorLayout::ONE_PTR>> baseT;
  Output<Vector<T, VectorLayout::ONE_PTR>> subT;
  const unsigned baseOffset;
  const unsigned numBaseElements;
  const unsigned short regionSize;

  void compute() {
    for (unsigned o = 0; o < offsets.size(); ++o) {
      unsigned row = offsets[o] - baseOffset;
      if (row >= numBaseElements)
        continue; // another tile holds it
      assert(regionSize > 0);
      std::memcpy(&subT[o * regionSize], &baseT[row * regionSize], regionSize * sizeof(T));
    }
  }
};

template class MultiSlice<float>;
template class MultiSlice<half>;
template class MultiSlice<int>;

} // namespace popops
