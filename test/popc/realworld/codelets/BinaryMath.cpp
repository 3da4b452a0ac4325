// popops-style BinaryOp over float, half, int and unsigned: std::pow, std::fmod, std::atan2,
// std::hypot, std::min/max, std::remainder, integer division and shifts.
#include <algorithm>
#include <cmath>
#include <poplar/Vertex.hpp>
#include <type_traits>

using namespace poplar;

enum class BinaryOpType { ADD, POW, FMOD, ATAN2, HYPOT, MAX, MIN, DIVIDE, REMAINDER, SHIFT_LEFT };

template <BinaryOpType op, typename T> T apply(T a, T b) {
  if constexpr (op == BinaryOpType::ADD)
    return a + b;
  else if constexpr (op == BinaryOpType::POW)
    return std::pow(a, b);
  else if constexpr (op == BinaryOpType::FMOD)
    return std::fmod(a, b);
  else if constexpr (op == BinaryOpType::ATAN2)
    return std::atan2(a, b);
  else if constexpr (op == BinaryOpType::HYPOT)
    return std::hypot(a, b);
  else if constexpr (op == BinaryOpType::MAX)
    return std::max(a, b);
  else if constexpr (op == BinaryOpType::MIN)
    return std::min(a, b);
  else if constexpr (op == BinaryOpType::DIVIDE)
    return a / b;
  else if constexpr (op == BinaryOpType::REMAINDER) {
    if constexpr (std::is_integral<T>::value)
      return a % b;
    else
      return std::remainder(a, b);
  } else
    return a << b;
}

template <BinaryOpType op, typename T> class BinaryOp1D : public Vertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in1;
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in2;
  Output<Vector<T, VectorLayout::SPAN, 8>> out;

  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = apply<op, T>(in1[i], in2[i]);
    return true;
  }
};

template class BinaryOp1D<BinaryOpType::ADD, half>;
template class BinaryOp1D<BinaryOpType::POW, float>;
template class BinaryOp1D<BinaryOpType::FMOD, float>;
template class BinaryOp1D<BinaryOpType::FMOD, half>;
template class BinaryOp1D<BinaryOpType::ATAN2, float>;
template class BinaryOp1D<BinaryOpType::HYPOT, float>;
template class BinaryOp1D<BinaryOpType::MAX, half>;
template class BinaryOp1D<BinaryOpType::MIN, unsigned>;
template class BinaryOp1D<BinaryOpType::DIVIDE, int>;
template class BinaryOp1D<BinaryOpType::DIVIDE, half>;
template class BinaryOp1D<BinaryOpType::REMAINDER, int>;
template class BinaryOp1D<BinaryOpType::REMAINDER, float>;
template class BinaryOp1D<BinaryOpType::SHIFT_LEFT, unsigned>;
