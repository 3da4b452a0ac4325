// popops EncodeOneHot<Index, Out>: zero the output with memset, then set one element per index
// inside [offset, offset + sliceLength) (indices outside are ignored, as in PopLibs).
#include <cstring>
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace popops {

template <typename IndexType, typename OutType> class EncodeOneHot : public Vertex {
public:
  Input<Vector<IndexType>> indices;
  Output<Vector<OutType, VectorLayout::ONE_PTR>> out;
  unsigned offset;
  unsigned sliceLength;

  bool compute() {
    std::memset(&out[0], 0, indices.size() * sliceLength * sizeof(OutType));
    for (unsigned i = 0; i < indices.size(); ++i) {
      unsigned index = unsigned(indices[i]) - offset;
      if (index < sliceLength)
        out[i * sliceLength + index] = OutType(1);
    }
    return true;
  }
};

template class EncodeOneHot<unsigned, float>;
template class EncodeOneHot<unsigned, half>;
template class EncodeOneHot<int, int>;

} // namespace popops
