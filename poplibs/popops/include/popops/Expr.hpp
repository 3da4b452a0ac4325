// popops expressions: trees of element-wise ops over placeholders (_1 .. _20, the tensors given to
// popops::map) and constants, built with operators or the named op classes.
#ifndef popops_Expr_hpp
#define popops_Expr_hpp

#include <poplar/Type.hpp>
#include <popops/ExprOp.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace popops {
namespace expr {

class Expr {
public:
  virtual ~Expr();
  template <class T> bool isA() const { return dynamic_cast<const T *>(this) != nullptr; }
  template <class T> const T *getAs() const { return dynamic_cast<const T *>(this); }
  virtual std::unique_ptr<Expr> clone() const = 0;
  /// A readable form of the expression, e.g. "(_1 + (_2 * 3))".
  virtual std::string name() const = 0;
};

/// Any expression, held by value.
class Any {
public:
  Any(const Expr &e) : expr_(e.clone()) {}
  Any(const Any &other) : expr_(other.expr_->clone()) {}
  Any &operator=(const Any &other) {
    expr_ = other.expr_->clone();
    return *this;
  }
  operator const Expr &() const { return *expr_; }
  const Expr &get() const { return *expr_; }

private:
  std::unique_ptr<Expr> expr_;
};

/// A constant. Its type is that of the C++ value (float, int, unsigned, bool; double gives
/// FLOAT), but in an op with a tensor it takes the tensor's type, as PopLibs does.
class Const : public Expr {
public:
  template <class T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
  Const(T x) : value_(double(x)), type_(typeOf(x)) {}
  Const(double value, poplar::Type type) : value_(value), type_(type) {}
  double getValue() const { return value_; }
  poplar::Type getType() const { return type_; }
  std::unique_ptr<Expr> clone() const override;
  std::string name() const override;

private:
  static poplar::Type typeOf(bool) { return poplar::BOOL; }
  static poplar::Type typeOf(int) { return poplar::INT; }
  static poplar::Type typeOf(unsigned) { return poplar::UNSIGNED_INT; }
  static poplar::Type typeOf(long) { return poplar::INT; }
  static poplar::Type typeOf(unsigned long) { return poplar::UNSIGNED_INT; }
  static poplar::Type typeOf(long long) { return poplar::INT; }
  static poplar::Type typeOf(unsigned long long) { return poplar::UNSIGNED_INT; }
  static poplar::Type typeOf(short) { return poplar::INT; }
  static poplar::Type typeOf(unsigned short) { return poplar::UNSIGNED_INT; }
  static poplar::Type typeOf(char) { return poplar::INT; }
  static poplar::Type typeOf(signed char) { return poplar::INT; }
  static poplar::Type typeOf(unsigned char) { return poplar::UNSIGNED_INT; }
  static poplar::Type typeOf(float) { return poplar::FLOAT; }
  static poplar::Type typeOf(double) { return poplar::FLOAT; }
  double value_;
  poplar::Type type_;
};

/// A HALF constant.
class ConstHalf : public Const {
public:
  ConstHalf(float x) : Const(double(x), poplar::HALF) {}
};

inline ConstHalf operator"" _half(long double x) { return ConstHalf(float(x)); }

/// The conversion of an expression's value to another element type.
class Cast : public Expr {
public:
  Cast(const Expr &a, const poplar::Type &type) : a_(a.clone()), type_(type) {}
  Cast(const Cast &other) : Expr(), a_(other.a_->clone()), type_(other.type_) {}
  const Expr &getLHS() const { return *a_; }
  poplar::Type getRHSType() const { return type_; }
  std::unique_ptr<Expr> clone() const override;
  std::string name() const override;

private:
  std::unique_ptr<Expr> a_;
  poplar::Type type_;
};

/// The index-th tensor given to map (1-based).
class PlaceHolder : public Expr {
public:
  explicit PlaceHolder(unsigned index) : index_(index) {}
  unsigned getIndex() const { return index_; }
  std::unique_ptr<Expr> clone() const override;
  std::string name() const override;

private:
  unsigned index_;
};

const PlaceHolder _1(1), _2(2), _3(3), _4(4), _5(5), _6(6), _7(7), _8(8), _9(9), _10(10), _11(11),
    _12(12), _13(13), _14(14), _15(15), _16(16), _17(17), _18(18), _19(19), _20(20);

class UnaryOp : public Expr {
public:
  UnaryOp(UnaryOpType op, const Expr &a) : op_(op), a_(a.clone()) {}
  UnaryOp(const UnaryOp &other) : Expr(), op_(other.op_), a_(other.a_->clone()) {}
  UnaryOpType getOpType() const { return op_; }
  const Expr &getArg() const { return *a_; }
  std::unique_ptr<Expr> clone() const override;
  std::string name() const override;

private:
  UnaryOpType op_;
  std::unique_ptr<Expr> a_;
};

class BinaryOp : public Expr {
public:
  BinaryOp(BinaryOpType op, const Expr &a, const Expr &b) : op_(op), a_(a.clone()), b_(b.clone()) {}
  BinaryOp(const BinaryOp &other)
      : Expr(), op_(other.op_), a_(other.a_->clone()), b_(other.b_->clone()) {}
  BinaryOpType getOpType() const { return op_; }
  const Expr &getLHS() const { return *a_; }
  const Expr &getRHS() const { return *b_; }
  std::unique_ptr<Expr> clone() const override;
  std::string name() const override;

private:
  BinaryOpType op_;
  std::unique_ptr<Expr> a_, b_;
};

class TernaryOp : public Expr {
public:
  TernaryOp(TernaryOpType op, const Expr &a, const Expr &b, const Expr &c)
      : op_(op), a_(a.clone()), b_(b.clone()), c_(c.clone()) {}
  TernaryOp(const TernaryOp &other)
      : Expr(), op_(other.op_), a_(other.a_->clone()), b_(other.b_->clone()),
        c_(other.c_->clone()) {}
  TernaryOpType getOpType() const { return op_; }
  const Expr &getArg0() const { return *a_; }
  const Expr &getArg1() const { return *b_; }
  const Expr &getArg2() const { return *c_; }
  std::unique_ptr<Expr> clone() const override;
  std::string name() const override;

private:
  TernaryOpType op_;
  std::unique_ptr<Expr> a_, b_, c_;
};

// One named class per op, as PopLibs has them: Exp(_1), Add(_1, _2), Select(a, b, cond), ...
#define POPOPS_NAMED_UNARY(Name, OP)                                                               \
  class Name : public UnaryOp {                                                                    \
  public:                                                                                          \
    Name(const Expr &a) : UnaryOp(UnaryOpType::OP, a) {}                                           \
  };
#define POPOPS_NAMED_BINARY(Name, OP)                                                              \
  class Name : public BinaryOp {                                                                   \
  public:                                                                                          \
    Name(const Expr &a, const Expr &b) : BinaryOp(BinaryOpType::OP, a, b) {}                       \
  };
POPOPS_NAMED_UNARY(Abs, ABSOLUTE)
POPOPS_NAMED_UNARY(Asin, ASIN)
POPOPS_NAMED_UNARY(BitwiseNot, BITWISE_NOT)
POPOPS_NAMED_UNARY(Cbrt, CBRT)
POPOPS_NAMED_UNARY(Ceil, CEIL)
POPOPS_NAMED_UNARY(Cos, COS)
POPOPS_NAMED_UNARY(Erf, ERF)
POPOPS_NAMED_UNARY(Exp, EXPONENT)
POPOPS_NAMED_UNARY(Expm1, EXPONENT_MINUS_ONE)
POPOPS_NAMED_UNARY(Exp2, EXPONENT2)
POPOPS_NAMED_UNARY(Floor, FLOOR)
POPOPS_NAMED_UNARY(GeluErf, GELU_ERF)
POPOPS_NAMED_UNARY(Inv, INVERSE)
POPOPS_NAMED_UNARY(IsFinite, IS_FINITE)
POPOPS_NAMED_UNARY(IsInf, IS_INF)
POPOPS_NAMED_UNARY(IsNaN, IS_NAN)
POPOPS_NAMED_UNARY(Log, LOGARITHM)
POPOPS_NAMED_UNARY(Log1p, LOGARITHM_ONE_PLUS)
POPOPS_NAMED_UNARY(Not, LOGICAL_NOT)
POPOPS_NAMED_UNARY(Neg, NEGATE)
POPOPS_NAMED_UNARY(NearbyInt, NEARBY_INT)
POPOPS_NAMED_UNARY(Relu, RELU)
POPOPS_NAMED_UNARY(Signum, SIGNUM)
POPOPS_NAMED_UNARY(Sin, SIN)
POPOPS_NAMED_UNARY(Tan, TAN)
POPOPS_NAMED_UNARY(Tanh, TANH)
POPOPS_NAMED_UNARY(Round, ROUND)
POPOPS_NAMED_UNARY(Trunc, TRUNC)
POPOPS_NAMED_UNARY(Sqrt, SQRT)
POPOPS_NAMED_UNARY(Square, SQUARE)
POPOPS_NAMED_UNARY(Sigmoid, SIGMOID)
POPOPS_NAMED_UNARY(Rsqrt, RSQRT)
POPOPS_NAMED_BINARY(Add, ADD)
POPOPS_NAMED_BINARY(Atan2, ATAN2)
POPOPS_NAMED_BINARY(BitwiseAnd, BITWISE_AND)
POPOPS_NAMED_BINARY(BitwiseOr, BITWISE_OR)
POPOPS_NAMED_BINARY(BitwiseXor, BITWISE_XOR)
POPOPS_NAMED_BINARY(BitwiseXnor, BITWISE_XNOR)
POPOPS_NAMED_BINARY(Divide, DIVIDE)
POPOPS_NAMED_BINARY(Equal, EQUAL)
POPOPS_NAMED_BINARY(Gte, GREATER_THAN_EQUAL)
POPOPS_NAMED_BINARY(Gt, GREATER_THAN)
POPOPS_NAMED_BINARY(InvStdDevToVariance, INV_STD_DEV_TO_VARIANCE)
POPOPS_NAMED_BINARY(Lte, LESS_THAN_EQUAL)
POPOPS_NAMED_BINARY(And, LOGICAL_AND)
POPOPS_NAMED_BINARY(Or, LOGICAL_OR)
POPOPS_NAMED_BINARY(Lt, LESS_THAN)
POPOPS_NAMED_BINARY(Max, MAXIMUM)
POPOPS_NAMED_BINARY(Min, MINIMUM)
POPOPS_NAMED_BINARY(Mul, MULTIPLY)
POPOPS_NAMED_BINARY(NotEqual, NOT_EQUAL)
POPOPS_NAMED_BINARY(Pow, POWER)
POPOPS_NAMED_BINARY(Rem, REMAINDER)
POPOPS_NAMED_BINARY(Shl, SHIFT_LEFT)
POPOPS_NAMED_BINARY(Shr, SHIFT_RIGHT)
POPOPS_NAMED_BINARY(ShrSE, SHIFT_RIGHT_SIGN_EXTEND)
POPOPS_NAMED_BINARY(Sub, SUBTRACT)
POPOPS_NAMED_BINARY(VarianceToInvStdDev, VARIANCE_TO_INV_STD_DEV)
#undef POPOPS_NAMED_UNARY
#undef POPOPS_NAMED_BINARY

/// cond ? a : b
class Select : public TernaryOp {
public:
  Select(const Expr &a, const Expr &b, const Expr &cond)
      : TernaryOp(TernaryOpType::SELECT, a, b, cond) {}
};
/// min(max(a, lower), upper)
class Clamp : public TernaryOp {
public:
  Clamp(const Expr &a, const Expr &lower, const Expr &upper)
      : TernaryOp(TernaryOpType::CLAMP, a, lower, upper) {}
};

// Operators over expressions, with a constant allowed on either side.
#define POPOPS_EXPR_BINARY_OPERATOR(op, Name)                                                      \
  inline Name operator op(const Expr &a, const Expr &b) { return Name(a, b); }                     \
  template <class T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>         \
  Name operator op(const Expr &a, T b) {                                                           \
    return Name(a, Const(b));                                                                      \
  }                                                                                                \
  template <class T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>         \
  Name operator op(T a, const Expr &b) {                                                           \
    return Name(Const(a), b);                                                                      \
  }
POPOPS_EXPR_BINARY_OPERATOR(+, Add)
POPOPS_EXPR_BINARY_OPERATOR(-, Sub)
POPOPS_EXPR_BINARY_OPERATOR(*, Mul)
POPOPS_EXPR_BINARY_OPERATOR(/, Divide)
POPOPS_EXPR_BINARY_OPERATOR(%, Rem)
POPOPS_EXPR_BINARY_OPERATOR(==, Equal)
POPOPS_EXPR_BINARY_OPERATOR(!=, NotEqual)
POPOPS_EXPR_BINARY_OPERATOR(<, Lt)
POPOPS_EXPR_BINARY_OPERATOR(<=, Lte)
POPOPS_EXPR_BINARY_OPERATOR(>, Gt)
POPOPS_EXPR_BINARY_OPERATOR(>=, Gte)
POPOPS_EXPR_BINARY_OPERATOR(&&, And)
POPOPS_EXPR_BINARY_OPERATOR(||, Or)
POPOPS_EXPR_BINARY_OPERATOR(&, BitwiseAnd)
POPOPS_EXPR_BINARY_OPERATOR(|, BitwiseOr)
POPOPS_EXPR_BINARY_OPERATOR(^, BitwiseXor)
POPOPS_EXPR_BINARY_OPERATOR(<<, Shl)
POPOPS_EXPR_BINARY_OPERATOR(>>, Shr)
#undef POPOPS_EXPR_BINARY_OPERATOR

inline Neg operator-(const Expr &a) { return Neg(a); }
inline Not operator!(const Expr &a) { return Not(a); }
inline BitwiseNot operator~(const Expr &a) { return BitwiseNot(a); }

} // namespace expr
} // namespace popops

#endif
