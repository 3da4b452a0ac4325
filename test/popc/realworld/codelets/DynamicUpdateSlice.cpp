// popops-style DynamicUpdateSlice2D: writes the `numSubElements` rows of `subT` into `baseT`
// starting at row `offset` (read from a tensor at run time), wrapping around `numBaseElements`
// rows, each region `regionSize` elements (memcpy of a run-time size) over float, half and int.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

#include <cstring>

using namespace poplar;

namespace popops {

template <typename T> class DynamicUpdateSlice2D : public Vertex {
public:
  DynamicUpdateSlice2D();

  Input<unsigned> offset;
  InOut<Vector<T, VectorLayout::ONE_PTR>> baseT;
  Input<Vector<T, VectorLayout::ONE_PTR>> subT;
  const unsigned numBaseElements;
  const unsigned numSubElements;
  const unsigned regionSize;

  void compute() {
    unsigned row = *offset % numBaseElements;
    for (unsigned s = 0; s < numSubElements; ++s) {
      std::memcpy(&baseT[row * regionSize], &subT[s * regionSize], regionSize * sizeof(T));
      if (++row == numBaseElements)
        row = 0;
    }
  }
};

template class DynamicUpdateSlice2D<float>;
template class DynamicUpdateSlice2D<half>;
template class DynamicUpdateSlice2D<int>;

} // namespace popops
