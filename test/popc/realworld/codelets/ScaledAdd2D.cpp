// popops ScaledAdd2D<A, B, Scale, memConstraints>: A[r][i] += scaleB * B[r][i] over regions, A a
// Vector of SPAN InOut regions, B a ONE_PTR vector of ONE_PTR regions (4-byte entries), the
// scale a scalar Input; computed in float when any operand is float.
#include <poplar/Vertex.hpp>
#include <type_traits>

using namespace poplar;

namespace popops {

template <typename AType, typename BType, typename ScaleType, bool memConstraints>
class [[poplar::constraint("elem(**A) != elem(**B)")]] ScaledAdd2D : public Vertex {
public:
  Vector<InOut<Vector<AType, VectorLayout::SPAN, 8>>> A;
  Vector<Input<Vector<BType, VectorLayout::ONE_PTR, 8>>, VectorLayout::ONE_PTR> B;
  Input<ScaleType> scaleB;

  bool compute() {
    using Compute =
        std::conditional_t<std::is_same<AType, float>::value || std::is_same<BType, float>::value,
                           float, AType>;
    Compute scale = Compute(*scaleB);
    for (unsigned r = 0; r < A.size(); ++r)
      for (unsigned i = 0; i < A[r].size(); ++i)
        A[r][i] = AType(Compute(A[r][i]) + scale * Compute(B[r][i]));
    return true;
  }
};

template class ScaledAdd2D<float, float, float, false>;
template class ScaledAdd2D<half, half, half, true>;
template class ScaledAdd2D<half, float, float, false>;
template class ScaledAdd2D<int, int, int, false>;

} // namespace popops
