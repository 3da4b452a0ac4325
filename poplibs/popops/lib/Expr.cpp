// popops expressions: copies and readable names.
#include <popops/Expr.hpp>

#include "ExprOps.hpp"

#include <sstream>

namespace popops::expr {

Expr::~Expr() = default;

std::unique_ptr<Expr> Const::clone() const { return std::unique_ptr<Expr>(new Const(*this)); }
std::string Const::name() const {
  std::ostringstream os;
  os << value_;
  return os.str();
}

std::unique_ptr<Expr> Cast::clone() const { return std::unique_ptr<Expr>(new Cast(*this)); }
std::string Cast::name() const { return "cast<" + type_.toString() + ">(" + a_->name() + ")"; }

std::unique_ptr<Expr> PlaceHolder::clone() const {
  return std::unique_ptr<Expr>(new PlaceHolder(*this));
}
std::string PlaceHolder::name() const { return "_" + std::to_string(index_); }

std::unique_ptr<Expr> UnaryOp::clone() const { return std::unique_ptr<Expr>(new UnaryOp(*this)); }
std::string UnaryOp::name() const { return internal::opInfo(op_).name + "(" + a_->name() + ")"; }

std::unique_ptr<Expr> BinaryOp::clone() const { return std::unique_ptr<Expr>(new BinaryOp(*this)); }
std::string BinaryOp::name() const {
  return internal::opInfo(op_).name + "(" + a_->name() + ", " + b_->name() + ")";
}

std::unique_ptr<Expr> TernaryOp::clone() const {
  return std::unique_ptr<Expr>(new TernaryOp(*this));
}
std::string TernaryOp::name() const {
  return std::string(op_ == TernaryOpType::SELECT ? "SELECT" : "CLAMP") + "(" + a_->name() + ", " +
         b_->name() + ", " + c_->name() + ")";
}

} // namespace popops::expr
