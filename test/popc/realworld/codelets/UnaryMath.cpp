// popops-style UnaryOp over float and half: <cmath> functions (single ISA instructions or the
// tile's math.h built from them), selected by an enum template argument.
#include <cmath>
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace expr {
enum class UnaryOpType {
  EXP,
  LOG,
  SQRT,
  TANH,
  ABS,
  FLOOR,
  CEIL,
  ROUND,
  SIGMOID,
  EXP2,
  LOG2,
  LOG10,
  CBRT,
  ERF,
  ATAN,
  ASIN,
  SINH,
  EXPM1,
  LOG1P,
  RSQRT,
  TRUNC,
  RINT
};
}

template <expr::UnaryOpType op, typename T> struct UnaryOp;
#define UNARY(OP, EXPR)                                                                            \
  template <typename T> struct UnaryOp<expr::UnaryOpType::OP, T> {                                 \
    static T fn(T x) { return EXPR; }                                                              \
  };
UNARY(EXP, std::exp(x))
UNARY(LOG, std::log(x))
UNARY(SQRT, std::sqrt(x))
UNARY(TANH, std::tanh(x))
UNARY(ABS, std::abs(x))
UNARY(FLOOR, std::floor(x))
UNARY(CEIL, std::ceil(x))
UNARY(ROUND, std::round(x))
UNARY(SIGMOID, T(1.0f / (1.0f + std::exp(-float(x)))))
UNARY(EXP2, std::exp2(x))
UNARY(LOG2, std::log2(x))
UNARY(LOG10, std::log10(x))
UNARY(CBRT, std::cbrt(x))
UNARY(ERF, std::erf(x))
UNARY(ATAN, std::atan(x))
UNARY(ASIN, std::asin(x))
UNARY(SINH, std::sinh(x))
UNARY(EXPM1, std::expm1(x))
UNARY(LOG1P, std::log1p(x))
UNARY(RSQRT, T(1.0f / std::sqrt(float(x))))
UNARY(TRUNC, std::trunc(x))
UNARY(RINT, std::rint(x))

template <expr::UnaryOpType op, typename T> class UnaryOp1D : public Vertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in;
  Output<Vector<T, VectorLayout::SPAN, 8>> out;

  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = UnaryOp<op, T>::fn(in[i]);
    return true;
  }
};

#define INSTANTIATE(OP)                                                                            \
  template class UnaryOp1D<expr::UnaryOpType::OP, float>;                                          \
  template class UnaryOp1D<expr::UnaryOpType::OP, half>;
INSTANTIATE(EXP)
INSTANTIATE(LOG)
INSTANTIATE(SQRT)
INSTANTIATE(TANH)
INSTANTIATE(ABS)
INSTANTIATE(FLOOR)
INSTANTIATE(CEIL)
INSTANTIATE(ROUND)
INSTANTIATE(SIGMOID)
INSTANTIATE(EXP2)
INSTANTIATE(LOG2)
INSTANTIATE(LOG10)
INSTANTIATE(CBRT)
INSTANTIATE(ERF)
INSTANTIATE(ATAN)
INSTANTIATE(ASIN)
INSTANTIATE(SINH)
INSTANTIATE(EXPM1)
INSTANTIATE(LOG1P)
INSTANTIATE(RSQRT)
INSTANTIATE(TRUNC)
INSTANTIATE(RINT)
