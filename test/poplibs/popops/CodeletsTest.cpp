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
#include "popops/ReduceOps.hpp"
#include "popops/TypeLists.hpp"

namespace {

using namespace poplar;

/// Appends "popops::name<a,b,...>", each argument as popc prints it ("unsigned" is
/// "unsigned int"). One out-of-line call per table row keeps vertexNames() cheap to compile.
void addName(std::vector<std::string> &names, const char *name,
             std::initializer_list<const char *> args) {
  std::string s = std::string("popops::") + name + "<";
  for (const char *a : args) {
    if (s.back() != '<')
      s += ",";
    s += std::string(a) == "unsigned" ? "unsigned int" : a;
  }
  names.push_back(s + ">");
}

std::vector<std::string> vertexNames() {
  std::vector<std::string> names;
#define OP_NAME(name, opType, op, T) addName(names, #name, {"popops::expr::" #opType "::" #op, #T});
#define UNARY_ROW(name, op, types, result) POPOPS_TYPES_##types(OP_NAME, name, UnaryOpType, op)
#define BINARY_ROW(name, op, types, result) POPOPS_TYPES_##types(OP_NAME, name, BinaryOpType, op)
#define T_NAME(name, T) addName(names, #name, {#T});
#define T2_NAME(name, A, B) addName(names, #name, {#A, #B});
#define REDUCE_NAME(name, op, P, O, update)                                                        \
  addName(names, #name, {"popops::" #op, #P, #O, #update});
#define POPOPS_ALL_FAMILIES
#define POPOPS_UNARY_VERTEX(name, estimator) POPOPS_UNARY_OPS(UNARY_ROW, name)
#define POPOPS_BINARY_VERTEX(name, estimator) POPOPS_BINARY_OPS(BINARY_ROW, name)
#define POPOPS_VERTEX(name, types, estimator) POPOPS_TYPES_##types(T_NAME, name)
#define POPOPS_VERTEX2(name, pairs, estimator) POPOPS_PAIRS_##pairs(T2_NAME, name)
#define POPOPS_REDUCE_VERTEX(name, kind, estimator)                                                \
  POPOPS_REDUCE_INSTANCES_##kind(REDUCE_NAME, name)
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
