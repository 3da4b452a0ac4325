// popops' fill, cast, scaled-add, select and clamp vertices for every type of Vertices.def, on the
// single-vertex harness over the edge sizes: results against the host definition of each (the
// device's storage rounding, HostData's roundTo, is the reference conversion), cycles beside the
// estimators. One test per template and (source) type.
#include "VertexChecks.hpp"

#include <popops/codelets.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <set>

namespace {

using namespace popsdk::test;
using namespace poplar;

struct Group {
  std::string templ;
  Type type;
  friend std::ostream &operator<<(std::ostream &os, const Group &g) {
    return os << g.templ << " " << g.type.toString();
  }
};

std::vector<Group> groups() {
  std::vector<Group> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto &v : popopsVertices())
    if (!v.unary && !v.binary && seen.insert({v.templ, v.type.toString()}).second)
      out.push_back({v.templ, v.type});
  return out;
}

bool isInteger(Type t) { return t == INT || t == UNSIGNED_INT; }

VertexCase fillCase(const PopopsVertex &v, std::size_t n) {
  double value = v.type == BOOL           ? 1
                 : v.type == UNSIGNED_INT ? 4000000000.0
                 : v.type == INT          ? -7
                                          : 2.5;
  VertexCase c{VertexTester(popops::addCodelets, v.name), "out", {}, {n}};
  c.want.assign(n, roundTo(v.type, value));
  c.tester.state("in", v.type, value);
  if (v.templ == "Fill2d") {
    c.regions = regionsOf(n);
    c.tester.outputList("out", v.type, c.regions);
  } else {
    c.tester.output("out", v.type, n);
  }
  return c;
}

/// Values both types of a cast hold: 0/1 from bool, non-negative when either side is unsigned (a
/// negative float has no unsigned value), within half's range. A float becomes an integer
/// truncated towards zero, and bool x != 0: HostData's roundTo, the device's storage rule.
VertexCase castCase(const PopopsVertex &v, std::size_t n) {
  double lo = v.type == UNSIGNED_INT || v.outType == UNSIGNED_INT ? 0 : -100;
  auto x = v.type == BOOL ? hostData(BOOL, n, 0, 1) : hostData(v.type, n, lo, 100);
  VertexCase c{VertexTester(popops::addCodelets, v.name), "dst", {}, {n}};
  for (double e : x)
    c.want.push_back(roundTo(v.outType, e));
  if (v.multiVertex) {
    c.tester.input("src", v.type, x).output("dst", v.outType, n);
  } else {
    c.regions = regionsOf(n);
    c.tester.inputList("src", v.type, split(x, c.regions)).outputList("dst", v.outType, c.regions);
  }
  return c;
}

/// A = a.A + b.B with scales whose products and sums are exact in float (so that fused or
/// separate multiply-adds give one answer); integers wrap.
VertexCase scaledAddCase(const PopopsVertex &v, std::size_t n) {
  bool integer = isInteger(v.type);
  double a = integer ? 3 : 0.5, b = integer ? (v.type == INT ? -2 : 2) : 1.5;
  double span = v.type == HALF ? 8 : 1000, lo = v.type == UNSIGNED_INT ? 0 : -span;
  auto x = hostData(v.type, n, lo, span, 1), y = hostData(v.type, n, lo, span, 2);
  VertexCase c{VertexTester(popops::addCodelets, v.name), "A", {}, {n}};
  for (std::size_t i = 0; i < n; ++i) {
    double r = a * x[i] + b * y[i];
    c.want.push_back(roundTo(v.type, v.type == INT            ? double(std::int32_t(r))
                                     : v.type == UNSIGNED_INT ? double(std::uint32_t(r))
                                                              : r));
  }
  Type scaleType = v.type == HALF ? FLOAT : v.type; // the compute type
  c.tester.input("scaleA", scaleType, {a}).input("scaleB", scaleType, {b});
  if (v.multiVertex) {
    c.tester.inout("A", v.type, x).input("B", v.type, y);
  } else {
    c.regions = regionsOf(n);
    c.tester.inoutList("A", v.type, split(x, c.regions))
        .inputList("B", v.type, split(y, c.regions));
  }
  return c;
}

/// Select1D: in3 ? in1 : in2. Clamp1D: min(max(in1, in2), in3), bounds drawn on either side.
VertexCase ternaryCase(const PopopsVertex &v, std::size_t n) {
  bool clamp = v.templ == "Clamp1D";
  double lo = v.type == UNSIGNED_INT || v.type == BOOL ? 0 : -100;
  double hi = v.type == BOOL ? 1 : 100, mid = clamp ? (lo + hi) / 2 : hi;
  auto in1 = hostData(v.type, n, lo, hi, 1), in2 = hostData(v.type, n, lo, mid, 2);
  auto in3 = clamp ? hostData(v.type, n, mid, hi, 3) : hostData(BOOL, n, 0, 1, 3);
  VertexCase c{VertexTester(popops::addCodelets, v.name), "out", {}, {n}};
  for (std::size_t i = 0; i < n; ++i)
    c.want.push_back(clamp         ? std::min(std::max(in1[i], in2[i]), in3[i])
                     : in3[i] != 0 ? in1[i]
                                   : in2[i]);
  c.tester.input("in1", v.type, in1)
      .input("in2", v.type, in2)
      .input("in3", clamp ? v.type : BOOL, in3)
      .output("out", v.type, n);
  return c;
}

VertexCase makeCase(const PopopsVertex &v, std::size_t n) {
  if (v.templ.rfind("Fill", 0) == 0)
    return fillCase(v, n);
  if (v.templ.rfind("Cast", 0) == 0)
    return castCase(v, n);
  if (v.templ.rfind("ScaledAdd", 0) == 0)
    return scaledAddCase(v, n);
  return ternaryCase(v, n);
}

class FillCastScaledAdd : public ::testing::TestWithParam<Group> {};

TEST_P(FillCastScaledAdd, MatchesReferenceOverEdgeSizes) {
  std::vector<PopopsVertex> vertices;
  for (const auto &v : popopsVertices(GetParam().templ))
    if (v.type == GetParam().type)
      vertices.push_back(v);
  ASSERT_FALSE(vertices.empty());
  for (const auto &v : vertices) {
    std::vector<VertexCase> cases;
    for (std::size_t n : kEdgeSizes)
      cases.push_back(makeCase(v, n));
    runAndCheck(v, cases, 0);
  }
}

// The float and half forms whose loops run on 64-bit vectors (codelets/popops/VectorLoops.hpp):
// fills of every type (64-bit stores), float <-> half casts and float and half scaled adds, at
// every remainder after the whole vectors and over the worker split, against the reference.
bool vectorised(const PopopsVertex &v) {
  bool floating = v.type == FLOAT || v.type == HALF;
  if (v.templ.rfind("Fill", 0) == 0)
    return true;
  if (v.templ.rfind("Cast", 0) == 0)
    return floating && (v.outType == FLOAT || v.outType == HALF) && v.outType != v.type;
  return v.templ.rfind("ScaledAdd", 0) == 0 && floating;
}

class FillCastScaledAddVectorTails : public ::testing::TestWithParam<Group> {};

TEST_P(FillCastScaledAddVectorTails, MatchesReferenceAroundVectorWidths) {
  for (const auto &v : popopsVertices(GetParam().templ)) {
    if (v.type != GetParam().type || !vectorised(v))
      continue;
    std::vector<VertexCase> cases;
    for (std::size_t n : kVectorTailSizes)
      cases.push_back(makeCase(v, n));
    runAndCheckValues(v, cases, 0);
  }
}

std::vector<Group> vectorisedGroups() {
  std::vector<Group> out;
  for (const Group &g : groups()) {
    bool any = false;
    for (const auto &v : popopsVertices(g.templ))
      any = any || (v.type == g.type && vectorised(v));
    if (any)
      out.push_back(g);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Popops, FillCastScaledAddVectorTails,
                         ::testing::ValuesIn(vectorisedGroups()),
                         [](const ::testing::TestParamInfo<Group> &info) {
                           std::string type = info.param.type.toString();
                           std::replace(type.begin(), type.end(), ' ', '_');
                           return info.param.templ + "_" + type;
                         });

INSTANTIATE_TEST_SUITE_P(Popops, FillCastScaledAdd, ::testing::ValuesIn(groups()),
                         [](const ::testing::TestParamInfo<Group> &info) {
                           std::string type = info.param.type.toString();
                           std::replace(type.begin(), type.end(), ' ', '_');
                           return info.param.templ + "_" + type;
                         });

} // namespace
