// Type checking of popops expressions.
#include "ExprTypes.hpp"

#include "ExprOps.hpp"

#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

#include <set>

namespace popops::internal {

using namespace poplar;
using namespace popops::expr;
using popsdk::support::raise;

namespace {

/// Whether `e` involves a tensor (a placeholder) or a cast, which fix its type; a tree of
/// constants alone does not, and adopts the type of what it is combined with.
bool hasFixedType(const Expr &e) {
  if (e.isA<PlaceHolder>() || e.isA<Cast>() || e.isA<ConstHalf>())
    return true;
  if (auto *u = e.getAs<UnaryOp>())
    return hasFixedType(u->getArg());
  if (auto *b = e.getAs<BinaryOp>())
    return hasFixedType(b->getLHS()) || hasFixedType(b->getRHS());
  if (auto *t = e.getAs<TernaryOp>())
    return hasFixedType(t->getArg0()) || hasFixedType(t->getArg1());
  return false;
}

void collectPlaceholders(const Expr &e, std::set<unsigned> &out) {
  if (auto *p = e.getAs<PlaceHolder>())
    out.insert(p->getIndex());
  else if (auto *c = e.getAs<Cast>())
    collectPlaceholders(c->getLHS(), out);
  else if (auto *u = e.getAs<UnaryOp>())
    collectPlaceholders(u->getArg(), out);
  else if (auto *b = e.getAs<BinaryOp>()) {
    collectPlaceholders(b->getLHS(), out);
    collectPlaceholders(b->getRHS(), out);
  } else if (auto *t = e.getAs<TernaryOp>()) {
    collectPlaceholders(t->getArg0(), out);
    collectPlaceholders(t->getArg1(), out);
    collectPlaceholders(t->getArg2(), out);
  }
}

} // namespace

Type operandType(const std::vector<const Expr *> &operands, const std::vector<Type> &inputTypes,
                 const std::string &api, const Type &context) {
  Type type;
  const Expr *first = nullptr;
  for (const Expr *e : operands) {
    if (!hasFixedType(*e))
      continue;
    Type t = exprType(*e, inputTypes, api);
    if (!type.isValid()) {
      type = t;
      first = e;
    } else if (t != type) {
      raise<poputil::poplibs_error>(api, ": operands ", first->name(), " (", type.toString(),
                                    ") and ", e->name(), " (", t.toString(),
                                    ") have different types; convert one with expr::Cast");
    }
  }
  if (!type.isValid())
    type = context.isValid() ? context : exprType(*operands[0], inputTypes, api);
  return type;
}

Type exprType(const Expr &e, const std::vector<Type> &inputTypes, const std::string &api,
              const Type &context) {
  if (auto *p = e.getAs<PlaceHolder>()) {
    if (p->getIndex() < 1 || p->getIndex() > inputTypes.size())
      raise<poputil::poplibs_error>(api, ": the expression uses placeholder _", p->getIndex(),
                                    " but ", inputTypes.size(), " tensor(s) were given");
    return inputTypes[p->getIndex() - 1];
  }
  if (e.isA<ConstHalf>())
    return HALF;
  if (auto *c = e.getAs<Const>())
    return context.isValid() ? context : c->getType();
  if (auto *c = e.getAs<Cast>()) {
    exprType(c->getLHS(), inputTypes, api);
    return c->getRHSType();
  }
  if (auto *u = e.getAs<UnaryOp>()) {
    Type t = exprType(u->getArg(), inputTypes, api, operandContext(e, context));
    const OpInfo &info = opInfo(u->getOpType());
    if (!info.supports(t))
      raise<poputil::poplibs_error>(api, ": ", info.name, " is not defined for ", t.toString(),
                                    " (in ", e.name(), "; defined for ", info.typesText(), ")");
    return info.predicate ? BOOL : t;
  }
  if (auto *b = e.getAs<BinaryOp>()) {
    Type t = operandType({&b->getLHS(), &b->getRHS()}, inputTypes, api, operandContext(e, context));
    exprType(b->getLHS(), inputTypes, api, t);
    exprType(b->getRHS(), inputTypes, api, t);
    const OpInfo &info = opInfo(b->getOpType());
    if (!info.supports(t))
      raise<poputil::poplibs_error>(api, ": ", info.name, " is not defined for ", t.toString(),
                                    " (in ", e.name(), "; defined for ", info.typesText(), ")");
    return info.predicate ? BOOL : t;
  }
  if (auto *t = e.getAs<TernaryOp>()) {
    bool select = t->getOpType() == TernaryOpType::SELECT;
    std::vector<const Expr *> values = {&t->getArg0(), &t->getArg1()};
    if (!select)
      values.push_back(&t->getArg2());
    Type type = operandType(values, inputTypes, api, context);
    for (const Expr *v : values)
      exprType(*v, inputTypes, api, type);
    if (select) {
      Type cond = exprType(t->getArg2(), inputTypes, api, BOOL);
      if (cond != BOOL)
        raise<poputil::poplibs_error>(api, ": the condition of ", e.name(), " is ", cond.toString(),
                                      ", not bool");
    } else if (type == BOOL) {
      raise<poputil::poplibs_error>(api, ": CLAMP is not defined for bool (in ", e.name(), ")");
    }
    return type;
  }
  raise<poputil::poplibs_error>(api, ": unsupported expression node ", e.name());
}

Type operandContext(const Expr &e, const Type &context) {
  if (auto *u = e.getAs<UnaryOp>())
    return opInfo(u->getOpType()).predicate ? Type() : context;
  if (auto *b = e.getAs<BinaryOp>())
    return opInfo(b->getOpType()).predicate ? Type() : context;
  return context;
}

std::vector<unsigned> placeholdersOf(const Expr &e) {
  std::set<unsigned> s;
  collectPlaceholders(e, s);
  return {s.begin(), s.end()};
}

} // namespace popops::internal
