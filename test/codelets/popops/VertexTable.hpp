// The popops vertices under test, read from codelets/popops/Vertices.def (the element-wise, fill,
// cast and scaled-add families): each instantiation with its name in popops.gp, template
// arguments and cycle estimator.
#pragma once

#include "CycleEstimators.hpp"

#include <poplar/Type.hpp>

#include <string>
#include <vector>

namespace popsdk::test {

struct PopopsVertex {
  std::string templ;        // "BinaryOp1D"
  std::string name;         // "popops::BinaryOp1D<popops::expr::BinaryOpType::ADD,float>"
  std::string op;           // "ADD" for an element-wise vertex, else empty
  int opValue = -1;         // the UnaryOpType or BinaryOpType enumerator, else -1
  bool unary = false;       // a UnaryOpType vertex
  bool binary = false;      // a BinaryOpType vertex
  poplar::Type type;        // the element type (a cast's source type)
  poplar::Type outType;     // what the vertex stores (BOOL for predicates; a cast's destination)
  bool multiVertex = false; // a MultiVertex (the 1-D element-wise, cast, scaled-add forms)
  popops::internal::CycleEstimator estimate = nullptr;
  std::string estimator; // its name in Vertices.def
};

/// The poplar::Type of a C++ type token of TypeLists.hpp ("float", "unsigned short", ...).
poplar::Type typeOf(const std::string &token);

/// Every vertex of the Elementwise, Fill, Cast and ScaledAdd rows of Vertices.def, in table order.
const std::vector<PopopsVertex> &popopsVertices();

/// The vertices of one template (and, for element-wise templates, one op), in table order.
std::vector<PopopsVertex> popopsVertices(const std::string &templ, const std::string &op = "");

} // namespace popsdk::test
