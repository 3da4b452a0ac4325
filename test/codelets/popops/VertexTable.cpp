// The vertex walk over Vertices.def, as test/poplibs/popops/CodeletsTest.cpp names them.
#include "VertexTable.hpp"

#include "ElementwiseCycles.hpp"

#include <popops/ExprOp.hpp>

#include "popops/ElementwiseOps.hpp"
#include "popops/TypeLists.hpp"

#include <stdexcept>

namespace popsdk::test {

poplar::Type typeOf(const std::string &token) {
  if (token == "float")
    return poplar::FLOAT;
  if (token == "half")
    return poplar::HALF;
  if (token == "int")
    return poplar::INT;
  if (token == "unsigned")
    return poplar::UNSIGNED_INT;
  if (token == "short")
    return poplar::SHORT;
  if (token == "unsigned short")
    return poplar::UNSIGNED_SHORT;
  if (token == "bool")
    return poplar::BOOL;
  throw std::invalid_argument("VertexTable: unknown type token " + token);
}

namespace {

using namespace poplar;

/// The .gp name of a type token, as popc prints it.
std::string gpName(const std::string &token) {
  return token == "unsigned" ? "unsigned int" : token;
}

/// The templates popops builds as MultiVertex (codelets/popops/*.cpp): the 1-D element-wise,
/// cast, scaled-add, select and clamp forms. Fill is a single-worker Vertex.
bool isMultiVertex(const std::string &templ) {
  return templ != "Fill" && templ.find("1D") != std::string::npos;
}

PopopsVertex make(const char *templ, popops::internal::CycleEstimator estimate,
                  const char *estimator, const std::string &args, Type type, Type outType) {
  PopopsVertex v;
  v.templ = templ;
  v.name = std::string("popops::") + templ + "<" + args + ">";
  v.type = type;
  v.outType = outType;
  v.multiVertex = isMultiVertex(templ);
  v.estimate = estimate;
  v.estimator = estimator;
  return v;
}

std::vector<PopopsVertex> walk() {
  using popops::expr::BinaryOpType;
  using popops::expr::UnaryOpType;
  std::vector<PopopsVertex> all;
#define OP_CASE(templ, est, kind, OP, result, T)                                                   \
  {                                                                                                \
    PopopsVertex v = make(#templ, &popops::internal::est, #est,                                    \
                          "popops::expr::" #kind "::" #OP "," + gpName(#T), typeOf(#T),            \
                          std::string(#result) == "BOOL" ? BOOL : typeOf(#T));                     \
    v.op = #OP;                                                                                    \
    v.opValue = int(kind::OP);                                                                     \
    v.unary = std::string(#kind) == "UnaryOpType";                                                 \
    v.binary = !v.unary;                                                                           \
    all.push_back(v);                                                                              \
  }
#define UNARY_ROW(templ, est, op, types, result)                                                   \
  POPOPS_TYPES_##types(OP_CASE, templ, est, UnaryOpType, op, result)
#define BINARY_ROW(templ, est, op, types, result)                                                  \
  POPOPS_TYPES_##types(OP_CASE, templ, est, BinaryOpType, op, result)
#define T_CASE(templ, est, T)                                                                      \
  all.push_back(make(#templ, &popops::internal::est, #est, gpName(#T), typeOf(#T), typeOf(#T)));
#define T2_CASE(templ, est, A, B)                                                                  \
  all.push_back(make(#templ, &popops::internal::est, #est, gpName(#A) + "," + gpName(#B),          \
                     typeOf(#A), typeOf(#B)));
#define POPOPS_FAMILY_Elementwise
#define POPOPS_FAMILY_Fill
#define POPOPS_FAMILY_Cast
#define POPOPS_FAMILY_ScaledAdd
#define POPOPS_UNARY_VERTEX(templ, est) POPOPS_UNARY_OPS(UNARY_ROW, templ, est)
#define POPOPS_BINARY_VERTEX(templ, est) POPOPS_BINARY_OPS(BINARY_ROW, templ, est)
#define POPOPS_VERTEX(templ, types, est) POPOPS_TYPES_##types(T_CASE, templ, est)
#define POPOPS_VERTEX2(templ, pairs, est) POPOPS_PAIRS_##pairs(T2_CASE, templ, est)
#include "popops/Vertices.def"
  return all;
}

} // namespace

const std::vector<PopopsVertex> &popopsVertices() {
  static const std::vector<PopopsVertex> all = walk();
  return all;
}

std::vector<PopopsVertex> popopsVertices(const std::string &templ, const std::string &op) {
  std::vector<PopopsVertex> out;
  for (const auto &v : popopsVertices())
    if (v.templ == templ && v.op == op)
      out.push_back(v);
  return out;
}

} // namespace popsdk::test
