// popops' unary and binary element-wise vertices (1-D, 1-D in place, 2-D, 2-D in place) for every
// op and type of Vertices.def, on the single-vertex harness over the edge sizes: results against
// the host reference (test/reference/Elementwise), cycles beside the estimators. One test per
// template and op; it walks the op's types.
#include "ElementwiseInputs.hpp"
#include "VertexChecks.hpp"

#include "Elementwise.hpp"

#include <popops/codelets.hpp>

#include <gtest/gtest.h>

#include <ostream>
#include <set>

namespace {

using namespace popsdk::test;
using namespace poplar;
using popops::expr::BinaryOpType;
using popops::expr::UnaryOpType;
namespace reference = popsdk::reference;

struct Group {
  std::string templ, op;
  friend std::ostream &operator<<(std::ostream &os, const Group &g) {
    return os << g.templ << " " << g.op;
  }
};

std::vector<Group> elementwiseGroups() {
  std::vector<Group> groups;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto &v : popopsVertices())
    if ((v.unary || v.binary) && seen.insert({v.templ, v.op}).second)
      groups.push_back({v.templ, v.op});
  return groups;
}

bool inPlace(const PopopsVertex &v) { return v.templ.find("InPlace") != std::string::npos; }

/// An in-place vertex stores into its input's type (a predicate as 0 or 1).
Type storedType(const PopopsVertex &v) { return inPlace(v) ? v.type : v.outType; }

VertexCase unaryCase(const PopopsVertex &v, std::size_t n) {
  auto op = UnaryOpType(v.opValue);
  auto x = unaryInputs(op, v.type, n);
  VertexCase c{VertexTester(popops::addCodelets, v.name), inPlace(v) ? "inOut" : "out", {}, {n}};
  for (double e : x)
    c.want.push_back(roundTo(storedType(v), reference::unaryOp(op, v.type, e)));
  if (!v.multiVertex) { // the 2-D forms take a list of regions
    c.regions = regionsOf(n);
    if (inPlace(v))
      c.tester.inoutList("inOut", v.type, split(x, c.regions));
    else
      c.tester.inputList("in", v.type, split(x, c.regions)).outputList("out", v.outType, c.regions);
  } else if (inPlace(v)) {
    c.tester.inout("inOut", v.type, x);
  } else {
    c.tester.input("in", v.type, x).output("out", v.outType, n);
  }
  return c;
}

VertexCase binaryCase(const PopopsVertex &v, std::size_t n) {
  auto op = BinaryOpType(v.opValue);
  auto in = binaryInputs(op, v.type, n);
  VertexCase c{VertexTester(popops::addCodelets, v.name), inPlace(v) ? "in1Out" : "out", {}, {n}};
  for (std::size_t i = 0; i < n; ++i)
    c.want.push_back(roundTo(storedType(v), reference::binaryOp(op, v.type, in.in1[i], in.in2[i])));
  if (!v.multiVertex) {
    c.regions = regionsOf(n);
    if (inPlace(v))
      c.tester.inoutList("in1Out", v.type, split(in.in1, c.regions));
    else
      c.tester.inputList("in1", v.type, split(in.in1, c.regions))
          .outputList("out", v.outType, c.regions);
    c.tester.inputList("in2", v.type, split(in.in2, c.regions));
  } else {
    if (inPlace(v))
      c.tester.inout("in1Out", v.type, in.in1);
    else
      c.tester.input("in1", v.type, in.in1).output("out", v.outType, n);
    c.tester.input("in2", v.type, in.in2);
  }
  return c;
}

/// The vertex's cases at each of `sizes`, and the tolerance its op's results are checked with.
std::pair<std::vector<VertexCase>, double> casesOf(const PopopsVertex &v,
                                                   const std::vector<std::size_t> &sizes) {
  std::vector<VertexCase> cases;
  for (std::size_t n : sizes)
    cases.push_back(v.unary ? unaryCase(v, n) : binaryCase(v, n));
  return {cases, v.unary ? unaryTolerance(UnaryOpType(v.opValue), v.type)
                         : binaryTolerance(BinaryOpType(v.opValue), v.type)};
}

class Elementwise : public ::testing::TestWithParam<Group> {};

TEST_P(Elementwise, MatchesReferenceOverEdgeSizes) {
  auto vertices = popopsVertices(GetParam().templ, GetParam().op);
  ASSERT_FALSE(vertices.empty());
  for (const auto &v : vertices) {
    auto [cases, tolerance] = casesOf(v, kEdgeSizes);
    runAndCheck(v, cases, tolerance);
  }
}

// The float and half loops over 64-bit vectors (codelets/popops/VectorLoops.hpp): the ops with
// a vector instruction, and ops that take half lanes through float (a cheap and a costly op of
// each kind, and a predicate stored in place as 0 or 1), at every remainder after the whole
// vectors and over the worker split, against the reference.
std::vector<Group> vectorisedGroups() {
  const std::set<std::string> ops = {"ADD",    "SUBTRACT", "MULTIPLY", "SQUARE",   "MAXIMUM",
                                     "DIVIDE", "NEGATE",   "EXPONENT", "IS_FINITE"};
  std::vector<Group> out;
  for (const Group &g : elementwiseGroups())
    if (ops.count(g.op))
      out.push_back(g);
  return out;
}

class ElementwiseVectorTails : public ::testing::TestWithParam<Group> {};

TEST_P(ElementwiseVectorTails, MatchesReferenceAroundVectorWidths) {
  for (const auto &v : popopsVertices(GetParam().templ, GetParam().op)) {
    if (v.type != FLOAT && v.type != HALF)
      continue;
    auto [cases, tolerance] = casesOf(v, kVectorTailSizes);
    runAndCheckValues(v, cases, tolerance);
  }
}

INSTANTIATE_TEST_SUITE_P(Popops, ElementwiseVectorTails, ::testing::ValuesIn(vectorisedGroups()),
                         [](const ::testing::TestParamInfo<Group> &info) {
                           return info.param.templ + "_" + info.param.op;
                         });

INSTANTIATE_TEST_SUITE_P(Popops, Elementwise, ::testing::ValuesIn(elementwiseGroups()),
                         [](const ::testing::TestParamInfo<Group> &info) {
                           return info.param.templ + "_" + info.param.op;
                         });

} // namespace
