// popops-style 2-D broadcast: each region of `data` is `blocks` repeats of a row as long as the
// matching region of B, combined with it in place (add, subtract or multiply), over float and
// half. Vectors of edges with ONE_PTR inner and outer layouts and the sizes in their own
// unsigned short vectors, as PopLibs lays them out.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

#include <type_traits>

using namespace poplar;

static constexpr auto ONE_PTR = VectorLayout::ONE_PTR;

namespace popops {

enum class BinaryOpType { ADD, SUBTRACT, MULTIPLY };

template <BinaryOpType op, typename T> struct Combine;
template <typename T> struct Combine<BinaryOpType::ADD, T> {
  static T apply(T a, T b) { return a + b; }
};
template <typename T> struct Combine<BinaryOpType::SUBTRACT, T> {
  static T apply(T a, T b) { return a - b; }
};
template <typename T> struct Combine<BinaryOpType::MULTIPLY, T> {
  static T apply(T a, T b) { return a * b; }
};

template <BinaryOpType op, typename T> class BroadcastVectorInner2DInPlace : public Vertex {
public:
  BroadcastVectorInner2DInPlace();

  Vector<Input<Vector<T, ONE_PTR, 8>>, ONE_PTR> B;
  Input<Vector<unsigned short, ONE_PTR>> BLen;
  Vector<InOut<Vector<T, ONE_PTR, 8>>, ONE_PTR> data;
  Input<Vector<unsigned short, ONE_PTR>> dataBlockCount;
  const unsigned short n;

  void compute() {
    static_assert(std::is_floating_point<T>::value || std::is_same<T, half>::value,
                  "float or half");
    for (unsigned i = 0; i < n; ++i) {
      const unsigned len = BLen[i], blocks = dataBlockCount[i];
      T *row = &data[i][0];
      for (unsigned b = 0; b < blocks; ++b)
        for (unsigned k = 0; k < len; ++k, ++row)
          *row = Combine<op, T>::apply(*row, B[i][k]);
    }
  }
};

template class BroadcastVectorInner2DInPlace<BinaryOpType::ADD, float>;
template class BroadcastVectorInner2DInPlace<BinaryOpType::ADD, half>;
template class BroadcastVectorInner2DInPlace<BinaryOpType::SUBTRACT, float>;
template class BroadcastVectorInner2DInPlace<BinaryOpType::SUBTRACT, half>;
template class BroadcastVectorInner2DInPlace<BinaryOpType::MULTIPLY, float>;
template class BroadcastVectorInner2DInPlace<BinaryOpType::MULTIPLY, half>;

} // namespace popops
