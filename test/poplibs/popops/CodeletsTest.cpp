// popops::addCodelets: every vertex of Vertices.def is in popops.gp, and a bad override is a
// clear error.
#include "OpHarness.hpp"

#include <poplar/exceptions.hpp>
#include <popops/ExprOp.hpp>
#include <popops/codelets.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "popops/ElementwiseOps.hpp"
#include "popops/TypeLists.hpp"

namespace {

using namespace poplar;

/// The .gp name of a C++ type token, as popc prints it.
std::string typeName(const std::string &token) {
  return token == "unsigned" ? "unsigned int" : token;
}

std::vector<std::string> vertexNames() {
  std::vector<std::string> names;
#define OP_NAME(name, opType, op, T)                                                               \
  names.push_back(std::string("popops::") + #name + "<popops::expr::" #opType "::" #op "," +       \
                  typeName(#T) + ">");
#define UNARY_ROW(name, op, types, result) POPOPS_TYPES_##types(OP_NAME, name, UnaryOpType, op)
#define BINARY_ROW(name, op, types, result) POPOPS_TYPES_##types(OP_NAME, name, BinaryOpType, op)
#define T_NAME(name, T) names.push_back(std::string("popops::") + #name + "<" + typeName(#T) + ">");
#define T2_NAME(name, A, B)                                                                        \
  names.push_back(std::string("popops::") + #name + "<" + typeName(#A) + "," + typeName(#B) + ">");
#define POPOPS_ALL_FAMILIES
#define POPOPS_UNARY_VERTEX(name, estimator) POPOPS_UNARY_OPS(UNARY_ROW, name)
#define POPOPS_BINARY_VERTEX(name, estimator) POPOPS_BINARY_OPS(BINARY_ROW, name)
#define POPOPS_VERTEX(name, types, estimator) POPOPS_TYPES_##types(T_NAME, name)
#define POPOPS_VERTEX2(name, pairs, estimator) POPOPS_PAIRS_##pairs(T2_NAME, name)
#include "popops/Vertices.def"
  return names;
}

TEST(PopopsCodelets, EveryTableVertexIsLoaded) {
  popsdk::test::OpHarness h(1);
  auto names = vertexNames();
  ASSERT_GT(names.size(), 600u);
  for (const auto &name : names)
    EXPECT_TRUE(h.graph().hasCodelet(name)) << name;
}

TEST(PopopsCodelets, AddingTwiceAddsNothing) {
  popsdk::test::OpHarness h(1);
  EXPECT_NO_THROW(popops::addCodelets(h.graph()));
}

TEST(PopopsCodelets, OverrideNamingAMissingFileIsAnError) {
  ::setenv("IPU_POPOPS_GP", "/nonexistent/popops.gp", 1);
  auto device = popsdk::test::testDevice(1);
  Graph graph(device.getTarget());
  try {
    popops::addCodelets(graph);
    ADD_FAILURE() << "expected graph_object_load_error";
  } catch (const graph_object_load_error &e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/popops.gp"), std::string::npos) << e.what();
  }
  ::unsetenv("IPU_POPOPS_GP");
}

} // namespace
