// popops::reduce, reduceWithOutput and reduceMany against the host reference
// (test/reference/Reduce.hpp): every operation and type pair over every set of dimensions,
// edge shapes, views, tensors spread over tiles, scale and update, reduceMany, errors, and the
// plan's cycles against the work each tile holds.
#include "Reduce.hpp"
#include "OpHarness.hpp"

#include <poplar/exceptions.hpp>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace poplar;
using popops::Operation;
using popops::ReduceParams;
using popsdk::test::hostData;
using popsdk::test::OpHarness;
namespace ref = popsdk::reference;

const std::vector<Operation> kOps = {
    Operation::ADD,         Operation::MUL,        Operation::MIN,        Operation::MAX,
    Operation::LOGICAL_AND, Operation::LOGICAL_OR, Operation::SQUARE_ADD, Operation::LOG_ADD};

std::string opName(Operation op) {
  std::ostringstream os;
  os << op;
  return os.str();
}

/// The (input, output) types each operation reduces, as documented in Reduce.hpp.
std::vector<std::pair<Type, Type>> typePairs(Operation op) {
  switch (op) {
  case Operation::ADD:
  case Operation::SQUARE_ADD:
  case Operation::MUL:
    return {{FLOAT, FLOAT}, {FLOAT, HALF}, {HALF, FLOAT},
            {HALF, HALF},   {INT, INT},    {UNSIGNED_INT, UNSIGNED_INT}};
  case Operation::LOG_ADD:
    return {{FLOAT, FLOAT}, {FLOAT, HALF}, {HALF, FLOAT}, {HALF, HALF}};
  case Operation::MIN:
  case Operation::MAX:
    return {{FLOAT, FLOAT}, {HALF, HALF}, {INT, INT}, {UNSIGNED_INT, UNSIGNED_INT}};
  case Operation::LOGICAL_AND:
  case Operation::LOGICAL_OR:
    return {{BOOL, BOOL}};
  }
  return {};
}

/// Input values that keep each op's result representable: small integers for sums, values
/// near 1 for products, mostly true for AND and mostly false for OR so results vary.
std::vector<double> inputValues(Operation op, Type type, std::size_t n, unsigned seed) {
  if (type == BOOL) {
    auto v = hostData(INT, n, 0, 9, seed);
    for (auto &x : v)
      x = op == Operation::LOGICAL_AND ? double(x != 0) : double(x == 0);
    return v;
  }
  if (op == Operation::MUL) {
    if (type == FLOAT || type == HALF) {
      auto v = hostData(type, n, 0.75, 1.25, seed);
      return v;
    }
    auto v = hostData(type, n, 0, 2, seed);
    for (auto &x : v)
      x = x == 0 ? 1 : x; // 1 or 2: products of a few stay small
    return v;
  }
  if (type == UNSIGNED_INT)
    return hostData(type, n, 0, 20, seed);
  if (type == INT)
    return hostData(type, n, -20, 20, seed);
  return hostData(type, n, op == Operation::SQUARE_ADD ? -2 : -4, 4, seed);
}

/// One ulp of `type` at |x| (the spacing of representable values there).
double ulp(Type type, double x) {
  if (type != FLOAT && type != HALF)
    return 0;
  int mantissa = type == FLOAT ? 23 : 10, minExp = type == FLOAT ? -126 : -14;
  int e = x == 0 || !std::isfinite(x) ? minExp : std::max(minExp, std::ilogb(x));
  return std::ldexp(1.0, e - mantissa);
}

/// Expects `actual` to be the reference within what float accumulation and the rounding to the
/// output type allow: one ulp of the output, and float rounding relative to the folded size.
void expectReduced(const std::vector<double> &actual, const std::vector<double> &expected,
                   const ref::Reduction &r, Operation op, Type outType, double scale,
                   const std::string &what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t o = 0; o < expected.size(); ++o) {
    double e = expected[o], a = actual[o];
    if (std::isinf(e) || std::isnan(e)) {
      EXPECT_EQ(a, e) << what << " output " << o;
      continue;
    }
    double tol = ulp(outType, e);
    if (outType == FLOAT || outType == HALF) {
      double folded = r.magnitude.empty() ? 0 : r.magnitude[o] * std::fabs(scale);
      tol += std::ldexp(folded, -21) * (op == Operation::MUL ? double(r.terms) : 1.0);
      if (op == Operation::LOG_ADD)
        tol += 1e-5 * (double(r.terms) + std::fabs(e));
    }
    EXPECT_NEAR(a, e, tol) << what << " output " << o;
  }
}

std::string describe(Operation op, Type in, Type out, const std::vector<std::size_t> &shape,
                     const std::vector<std::size_t> &dims) {
  std::ostringstream os;
  os << op << " " << in << "->" << out << " shape {";
  for (auto s : shape)
    os << s << ",";
  os << "} dims {";
  for (auto d : dims)
    os << d << ",";
  os << "}";
  return os.str();
}

/// Reductions added to one graph, checked together after one run.
class Batch {
public:
  explicit Batch(OpHarness &h) : h_(h) {}

  /// Adds a reduction of a new input of `shape` (mapped linearly over the tiles) with
  /// `values`, or values made for the op.
  Tensor reduce(Operation op, Type inType, Type outType, const std::vector<std::size_t> &shape,
                const std::vector<std::size_t> &dims, std::vector<double> values = {}) {
    std::size_t n = 1;
    for (auto s : shape)
      n *= s;
    if (values.empty())
      values = inputValues(op, inType, n, unsigned(checks_.size() + 1));
    std::string name = "in" + std::to_string(checks_.size());
    Tensor in = h_.input(name, inType, shape, values);
    Tensor out = popops::reduce(h_.graph(), in, outType, dims, op, h_.prog());
    expect(out, op, outType, values, shape, dims, describe(op, inType, outType, shape, dims));
    return out;
  }

  /// Checks `out` against the reference reduction of `values` (of `shape`) over `dims`.
  void expect(const Tensor &out, Operation op, Type outType, const std::vector<double> &values,
              const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
              const std::string &what, std::optional<double> scale = std::nullopt,
              const std::vector<double> *initial = nullptr) {
    std::string name = "out" + std::to_string(checks_.size());
    h_.output(name, out);
    auto r = ref::reduce(op, values, shape, dims, outType);
    auto expected = ref::finish(op, r, outType, scale, initial);
    checks_.push_back({name, what, op, outType, r, expected, scale ? *scale : 1.0});
  }

  void runAndCheck() {
    h_.run();
    for (const auto &c : checks_)
      expectReduced(h_.result(c.name), c.expected, c.r, c.op, c.outType, c.scale, c.what);
  }

private:
  struct Check {
    std::string name, what;
    Operation op;
    Type outType;
    ref::Reduction r;
    std::vector<double> expected;
    double scale;
  };
  OpHarness &h_;
  std::vector<Check> checks_;
};

std::vector<std::vector<std::size_t>> allDimSets(std::size_t rank) {
  std::vector<std::vector<std::size_t>> sets;
  for (unsigned mask = 0; mask < (1u << rank); ++mask) {
    std::vector<std::size_t> dims;
    for (std::size_t d = 0; d < rank; ++d)
      if (mask & (1u << d))
        dims.push_back(d);
    sets.push_back(dims);
  }
  return sets;
}

class ReduceEveryOp : public testing::TestWithParam<Operation> {};

// Every type pair of the op over every set of dimensions of a rank-3 tensor spread over four
// tiles: outputs from single elements (no dims) to one scalar (all dims).
TEST_P(ReduceEveryOp, EveryTypeOverEveryDimSet) {
  const Operation op = GetParam();
  OpHarness h(4);
  Batch batch(h);
  for (auto [inType, outType] : typePairs(op))
    for (const auto &dims : allDimSets(3))
      batch.reduce(op, inType, outType, {3, 5, 7}, dims);
  batch.runAndCheck();
}

INSTANTIATE_TEST_SUITE_P(Reduce, ReduceEveryOp, testing::ValuesIn(kOps),
                         [](const testing::TestParamInfo<Operation> &info) {
                           return opName(info.param);
                         });

// Sizes of 0, 1 and odd sizes: empty inputs give the identity, dimensions of 1 are copies,
// empty outputs are empty tensors of the right shape.
TEST(Reduce, EdgeShapes) {
  OpHarness h(4);
  Batch batch(h);
  const std::vector<std::pair<std::vector<std::size_t>, std::vector<std::size_t>>> cases = {
      {{1, 1, 1}, {0, 1, 2}},
      {{1, 7, 1}, {0, 2}},
      {{5, 1, 3}, {1}},
      {{9}, {0}},
      {{9}, {}},
      {{1}, {0}},
      {{3, 0, 2}, {1}},
      {{0, 4}, {0}},
      {{0}, {0}},
      {{2, 3}, {0, 1}},
      {{13, 11}, {0}},
      {{13, 11}, {1}},
      {{2, 1, 2, 1, 3}, {1, 3}}};
  for (Operation op : kOps)
    for (const auto &[shape, dims] : cases) {
      auto [inType, outType] = typePairs(op).front();
      batch.reduce(op, inType, outType, shape, dims);
    }
  // Integer identities of MAX and MIN, half infinities.
  for (Type t : {INT, UNSIGNED_INT, HALF}) {
    batch.reduce(Operation::MAX, t, t, {2, 0}, {1});
    batch.reduce(Operation::MIN, t, t, {2, 0}, {1});
  }
  batch.runAndCheck();
}

TEST(Reduce, EmptyOutputsAndRankZero) {
  OpHarness h(2);
  Tensor in = h.graph().addVariable(FLOAT, {0, 3});
  poputil::mapTensorLinearly(h.graph(), in);
  Tensor out = popops::reduce(h.graph(), in, {0}, Operation::ADD, h.prog());
  EXPECT_EQ(out.shape(), (std::vector<std::size_t>{3}));
  Tensor none = popops::reduce(h.graph(), in, {1}, Operation::ADD, h.prog());
  EXPECT_EQ(none.shape(), (std::vector<std::size_t>{0}));
  Tensor scalar = h.input("s", FLOAT, {}, {2.5});
  Tensor copy = popops::reduce(h.graph(), scalar, {}, Operation::MUL, h.prog());
  EXPECT_EQ(copy.rank(), 0u);
  Tensor all = popops::reduce(h.graph(), h.input("v", INT, {4}, {1, 2, 3, 4}), {0}, Operation::ADD,
                              h.prog());
  EXPECT_EQ(all.rank(), 0u);
  h.output("out", out);
  h.output("copy", copy);
  h.output("all", all);
  h.run();
  EXPECT_EQ(h.result("out"), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(h.result("copy"), (std::vector<double>{2.5}));
  EXPECT_EQ(h.result("all"), (std::vector<double>{10}));
}

// Tensors spread over 16 tiles: each output's partials are on several tiles, so the plan
// exchanges partial results; the outputs are spread over the tiles too.
TEST(Reduce, SpreadOverTiles) {
  OpHarness h(16);
  Batch batch(h);
  std::vector<Tensor> outs;
  for (const auto &dims : allDimSets(2))
    for (auto [op, in, out] :
         {std::tuple{Operation::ADD, HALF, HALF}, std::tuple{Operation::ADD, FLOAT, FLOAT},
          std::tuple{Operation::MAX, INT, INT}, std::tuple{Operation::SQUARE_ADD, HALF, FLOAT}})
      outs.push_back(batch.reduce(op, in, out, {96, 40}, dims));
  // Rows longer than a tile's share: no tile holds two partials of an output, so the rows are
  // folded where they are by the outputs' tiles (in the input's type, half here).
  batch.reduce(Operation::ADD, HALF, HALF, {4, 2000}, {0});
  batch.reduce(Operation::SQUARE_ADD, HALF, HALF, {4, 2000}, {0});
  batch.reduce(Operation::MAX, INT, INT, {4, 2000}, {0});
  batch.reduce(Operation::ADD, HALF, FLOAT, {5, 333}, {0});
  batch.reduce(Operation::ADD, FLOAT, FLOAT, {5000}, {0});
  batch.reduce(Operation::MIN, FLOAT, FLOAT, {3, 700}, {1});
  batch.reduce(Operation::LOG_ADD, FLOAT, FLOAT, {700, 3}, {0});
  batch.runAndCheck();
  // Reducing dim 0 of {96, 40} leaves 40 outputs whose partials are on every tile: they are
  // spread over several tiles rather than gathered on one.
  auto mapping = h.graph().getTileMapping(outs[4]);
  std::size_t used = 0;
  for (const auto &tile : mapping)
    used += !tile.empty();
  EXPECT_GT(used, 4u);
}

// Views as inputs: the partials are not in the tensor's own order in memory.
TEST(Reduce, ViewsAsInputs) {
  OpHarness h(4);
  Batch batch(h);
  auto &graph = h.graph();
  auto values = inputValues(Operation::ADD, FLOAT, 6 * 10 * 4, 7);
  Tensor x = h.input("x", FLOAT, {6, 10, 4}, values);
  // Host copies of the same views, to reduce on the host.
  auto at = [&](std::size_t a, std::size_t b, std::size_t c) {
    return values[(a * 10 + b) * 4 + c];
  };
  {
    // transpose: {4, 10, 6}
    Tensor v = x.dimShuffle({2, 1, 0});
    std::vector<double> hv;
    for (std::size_t c = 0; c < 4; ++c)
      for (std::size_t b = 0; b < 10; ++b)
        for (std::size_t a = 0; a < 6; ++a)
          hv.push_back(at(a, b, c));
    for (const auto &dims : allDimSets(3)) {
      Tensor out = popops::reduce(graph, v, dims, Operation::ADD, h.prog());
      batch.expect(out, Operation::ADD, FLOAT, hv, {4, 10, 6}, dims, "dimShuffle {2,1,0}");
    }
  }
  {
    // slice and subSample: x[1:5, ::3, 1:3] = {4, 4, 2}
    Tensor v = x.slice({1, 0, 1}, {5, 10, 3}).subSample(3, 1);
    std::vector<double> hv;
    for (std::size_t a = 1; a < 5; ++a)
      for (std::size_t b = 0; b < 10; b += 3)
        for (std::size_t c = 1; c < 3; ++c)
          hv.push_back(at(a, b, c));
    for (const auto &dims : allDimSets(3)) {
      Tensor out = popops::reduce(graph, v, dims, Operation::ADD, h.prog());
      batch.expect(out, Operation::ADD, FLOAT, hv, {4, 4, 2}, dims, "slice + subSample");
    }
  }
  {
    // reverse and concat with a second variable: {6, 10, 8}
    auto yv = inputValues(Operation::ADD, FLOAT, 6 * 10 * 4, 8);
    Tensor y = h.input("y", FLOAT, {6, 10, 4}, yv);
    Tensor v = concat(x.reverse(1), y, 2);
    std::vector<double> hv;
    for (std::size_t a = 0; a < 6; ++a)
      for (std::size_t b = 0; b < 10; ++b) {
        for (std::size_t c = 0; c < 4; ++c)
          hv.push_back(at(a, 9 - b, c));
        for (std::size_t c = 0; c < 4; ++c)
          hv.push_back(yv[(a * 10 + b) * 4 + c]);
      }
    for (const auto &dims : allDimSets(3)) {
      Tensor out = popops::reduce(graph, v, dims, Operation::ADD, h.prog());
      batch.expect(out, Operation::ADD, FLOAT, hv, {6, 10, 8}, dims, "reverse + concat");
    }
  }
  {
    // broadcast: x[0] repeated 3 times along a new dimension: {3, 10, 4}
    Tensor v = x[0].expand({0}).broadcast(3, 0);
    std::vector<double> hv;
    for (std::size_t r = 0; r < 3; ++r)
      for (std::size_t i = 0; i < 40; ++i)
        hv.push_back(values[i]);
    for (const auto &dims : allDimSets(3)) {
      Tensor out = popops::reduce(graph, v, dims, Operation::MAX, h.prog());
      batch.expect(out, Operation::MAX, FLOAT, hv, {3, 10, 4}, dims, "broadcast");
    }
  }
  batch.runAndCheck();
}

// Random shapes (ranks 1 to 4, sizes 1 to 9), dimension sets, operations and types, over inputs
// mapped in random chunks to random tiles and seen through random views: the planner's cuts
// (pieces, groups, workers, stages) meet every kind of boundary.
TEST(Reduce, RandomShapesMappingsAndViews) {
  std::mt19937 rng(2024);
  auto pick = [&](std::size_t n) { return std::size_t(rng() % n); };
  for (unsigned tiles : {1u, 5u, 16u}) {
    OpHarness h(tiles);
    Batch batch(h);
    auto &graph = h.graph();
    for (int c = 0; c < 24; ++c) {
      const Operation op = kOps[pick(kOps.size())];
      const auto pairs = typePairs(op);
      const auto [inType, outType] = pairs[pick(pairs.size())];
      std::vector<std::size_t> shape(1 + pick(4));
      std::size_t n = 1;
      for (auto &d : shape) {
        d = 1 + pick(9);
        n *= d;
      }
      auto values = inputValues(op, inType, n, unsigned(rng()));
      const std::string name = "r" + std::to_string(c);
      Tensor var = graph.addVariable(inType, shape, name);
      // Random chunks to random tiles.
      Tensor flat = var.flatten();
      for (std::size_t b = 0; b < n;) {
        std::size_t e = std::min(n, b + 1 + pick(40));
        graph.setTileMapping(flat.slice(b, e), unsigned(pick(tiles)));
        b = e;
      }
      h.write(name, var, values);
      // A random view: dimensions shuffled, maybe one reversed; the host values follow.
      std::vector<unsigned> perm(shape.size());
      std::iota(perm.begin(), perm.end(), 0u);
      std::shuffle(perm.begin(), perm.end(), rng);
      const bool reverse = pick(2) == 0;
      Tensor in = var.dimShuffle(perm);
      std::vector<std::size_t> viewShape;
      for (auto d : perm)
        viewShape.push_back(shape[d]);
      if (reverse)
        in = in.reverse(0);
      std::vector<double> viewValues(n);
      std::vector<std::size_t> index(viewShape.size(), 0);
      for (std::size_t i = 0; i < n; ++i) {
        std::size_t src = 0;
        for (std::size_t d = 0; d < shape.size(); ++d) {
          // Source index of dimension d: position of d in perm.
          std::size_t v = std::find(perm.begin(), perm.end(), unsigned(d)) - perm.begin();
          std::size_t x = index[v];
          if (reverse && v == 0)
            x = viewShape[0] - 1 - x;
          src = src * shape[d] + x;
        }
        viewValues[i] = values[src];
        for (std::size_t d = viewShape.size(); d-- > 0;)
          if (++index[d] < viewShape[d])
            break;
          else
            index[d] = 0;
      }
      std::vector<std::size_t> dims;
      for (std::size_t d = 0; d < viewShape.size(); ++d)
        if (pick(2))
          dims.push_back(d);
      std::shuffle(dims.begin(), dims.end(), rng);
      Tensor out = popops::reduce(graph, in, outType, dims, op, h.prog());
      batch.expect(out, op, outType, viewValues, viewShape, dims,
                   std::to_string(tiles) +
                       " tiles: " + describe(op, inType, outType, viewShape, dims) +
                       (reverse ? " reversed" : ""));
    }
    batch.runAndCheck();
  }
}

// reduceWithOutput into views of an output, mapped or not.
TEST(Reduce, OutputViews) {
  OpHarness h(4);
  Batch batch(h);
  auto &graph = h.graph();
  auto values = inputValues(Operation::ADD, HALF, 8 * 12, 3);
  Tensor in = h.input("in", HALF, {8, 12}, values);
  // Mapped output seen transposed: {12} result written into column 0 of a {1, 12} variable.
  Tensor mapped = graph.addVariable(FLOAT, {12, 2});
  poputil::mapTensorLinearly(graph, mapped);
  popops::reduceWithOutput(graph, in, mapped.slice(0, 1, 1).flatten(), {0}, Operation::ADD,
                           h.prog());
  batch.expect(mapped.slice(0, 1, 1).flatten(), Operation::ADD, FLOAT, values, {8, 12}, {0},
               "into a column");
  // Unmapped output: the reduction maps it.
  Tensor unmapped = graph.addVariable(HALF, {8});
  popops::reduceWithOutput(graph, in, unmapped, {1}, Operation::ADD, h.prog());
  bool complete = false;
  graph.getTileMapping(unmapped, &complete);
  EXPECT_TRUE(complete);
  batch.expect(unmapped, Operation::ADD, HALF, values, {8, 12}, {1}, "unmapped output");
  batch.runAndCheck();
}

// out = scale * r and out += scale * r (LOG_ADD: scale added, update log-added), with the
// scale on another tile than most of the work.
TEST(Reduce, ScaleAndUpdate) {
  OpHarness h(4);
  Batch batch(h);
  auto &graph = h.graph();
  // Negative scales for signed results; an unsigned result takes a positive one.
  auto scaleFor = [&](Type t) { return t == UNSIGNED_INT ? 1.5 : -1.5; };
  Tensor negative = graph.addConstant(FLOAT, {}, -1.5f),
         positive = graph.addConstant(FLOAT, {}, 1.5f);
  graph.setTileMapping(negative, 3);
  graph.setTileMapping(positive, 3);
  int n = 0;
  for (Operation op : {Operation::ADD, Operation::SQUARE_ADD, Operation::LOG_ADD})
    for (auto [inType, outType] : typePairs(op))
      for (bool update : {false, true})
        for (bool scaled : {false, true})
          for (const auto &dims : std::vector<std::vector<std::size_t>>{{0}, {1}, {0, 1}, {}}) {
            ++n;
            const std::vector<std::size_t> shape{6, 20};
            auto values = inputValues(op, inType, 120, unsigned(n));
            Tensor in = h.input("in" + std::to_string(n), inType, shape, values);
            std::vector<std::size_t> outShape;
            for (std::size_t d = 0; d < 2; ++d)
              if (std::find(dims.begin(), dims.end(), d) == dims.end())
                outShape.push_back(shape[d]);
            std::size_t numOut = 1;
            for (auto s : outShape)
              numOut *= s;
            auto initial = inputValues(op, outType, numOut, unsigned(1000 + n));
            Tensor out = h.input("init" + std::to_string(n), outType, outShape, initial);
            const double scaleValue = scaleFor(outType);
            Tensor scale = scaleValue < 0 ? negative : positive;
            ReduceParams params =
                scaled ? ReduceParams(op, update, scale) : ReduceParams(op, update);
            popops::reduceWithOutput(graph, in, out, dims, params, h.prog());
            std::ostringstream what;
            what << describe(op, inType, outType, shape, dims) << (update ? " update" : "")
                 << (scaled ? " scaled" : "");
            batch.expect(out, op, outType, values, shape, dims, what.str(),
                         scaled ? std::optional<double>(scaleValue) : std::nullopt,
                         update ? &initial : nullptr);
          }
  batch.runAndCheck();
}
// The compute-set forms: two reductions made into one list share its compute sets.
TEST(Reduce, ComputeSetFormsShareStages) {
  OpHarness h(4);
  Batch batch(h);
  auto &graph = h.graph();
  auto a = inputValues(Operation::ADD, FLOAT, 40 * 30, 1);
  auto b = inputValues(Operation::MAX, HALF, 40 * 30, 2);
  Tensor ta = h.input("a", FLOAT, {40, 30}, a), tb = h.input("b", HALF, {40, 30}, b);
  std::vector<ComputeSet> css;
  Tensor ra = popops::reduce(graph, ta, {0}, Operation::ADD, css);
  const std::size_t stagesA = css.size();
  Tensor rb = popops::reduce(graph, tb, HALF, {0}, Operation::MAX, css);
  Tensor rc = graph.addVariable(FLOAT, {40});
  popops::reduceWithOutput(graph, ta, rc, {1}, Operation::ADD, css);
  EXPECT_GE(stagesA, 1u);
  EXPECT_LE(css.size(), 3u);
  for (const auto &cs : css)
    h.prog().add(program::Execute(cs));
  batch.expect(ra, Operation::ADD, FLOAT, a, {40, 30}, {0}, "css: ADD dim 0");
  batch.expect(rb, Operation::MAX, HALF, b, {40, 30}, {0}, "css: MAX dim 0");
  batch.expect(rc, Operation::ADD, FLOAT, a, {40, 30}, {1}, "css: ADD dim 1 with output");
  batch.runAndCheck();
}

// A large fan-in end to end: outputs whose partials are on all of 256 tiles (more than
// 2 sqrt(256) = 32 sources) are folded on several of those tiles before the output's tile
// (ReduceFanIn.cpp; its choice is tested in ReduceFanInTest.cpp). Scalar and 3-wide outputs,
// odd sizes, half and float, ADD, SQUARE_ADD and MAX: values as the reference, in at most four
// stages (each tile's own fold, the intermediate one, the output's tile, the last of its
// workers' results).
TEST(Reduce, LargeFanInAddsAnIntermediateStage) {
  OpHarness h(256);
  Batch batch(h);
  struct Case {
    Operation op;
    Type in, out;
    std::vector<std::size_t> shape;
  };
  const std::vector<Case> cases = {{Operation::ADD, FLOAT, FLOAT, {256 * 64 + 13}},
                                   {Operation::ADD, HALF, HALF, {256 * 64 + 7}},
                                   {Operation::SQUARE_ADD, HALF, FLOAT, {256 * 64 + 1}},
                                   {Operation::MAX, FLOAT, FLOAT, {256 * 64 + 3}},
                                   {Operation::ADD, FLOAT, FLOAT, {256 * 64 + 5, 3}}};
  unsigned seed = 11;
  for (const auto &c : cases) {
    std::size_t n = 1;
    for (auto s : c.shape)
      n *= s;
    auto values = inputValues(c.op, c.in, n, seed++);
    Tensor in = h.input("in" + std::to_string(seed), c.in, c.shape, values);
    std::vector<ComputeSet> css;
    Tensor out = popops::reduce(h.graph(), in, c.out, {0}, c.op, css);
    const std::string what = describe(c.op, c.in, c.out, c.shape, {0});
    EXPECT_LE(css.size(), 4u) << what;
    for (const auto &cs : css)
      h.prog().add(program::Execute(cs));
    batch.expect(out, c.op, c.out, values, c.shape, {0}, what);
  }
  batch.runAndCheck();
}

// reduceMany: outputs made or given, output types, updates into given outputs; all the
// reductions share compute sets.
TEST(Reduce, ReduceMany) {
  OpHarness h(4);
  Batch batch(h);
  auto &graph = h.graph();
  auto a = inputValues(Operation::ADD, HALF, 24 * 18, 1);
  auto b = inputValues(Operation::MIN, INT, 24 * 18, 2);
  auto c = inputValues(Operation::LOGICAL_OR, BOOL, 24 * 18, 3);
  Tensor ta = h.input("a", HALF, {24, 18}, a), tb = h.input("b", INT, {24, 18}, b),
         tc = h.input("c", BOOL, {24, 18}, c);
  std::vector<popops::SingleReduceOp> ops{
      {ta, {0}, Operation::ADD, FLOAT, "sum"},
      {tb, {1}, Operation::MIN, "min"},
      {tc, {0, 1}, Operation::LOGICAL_OR},
  };
  std::vector<Tensor> outs;
  const auto before = graph.getNumComputeSets();
  popops::reduceMany(graph, ops, outs, h.prog());
  const auto made = graph.getNumComputeSets() - before;
  ASSERT_EQ(outs.size(), 3u);
  EXPECT_EQ(outs[0].elementType(), FLOAT);
  EXPECT_EQ(outs[1].elementType(), INT);
  EXPECT_EQ(outs[2].rank(), 0u);
  // Each reduction alone needs at most two stages: shared, they need no more.
  EXPECT_LE(made, 2u);
  batch.expect(outs[0], Operation::ADD, FLOAT, a, {24, 18}, {0}, "reduceMany sum");
  batch.expect(outs[1], Operation::MIN, INT, b, {24, 18}, {1}, "reduceMany min");
  batch.expect(outs[2], Operation::LOGICAL_OR, BOOL, c, {24, 18}, {0, 1}, "reduceMany or");

  // Given outputs, one of them updated.
  auto init = inputValues(Operation::ADD, FLOAT, 18, 9);
  Tensor given = h.input("given", FLOAT, {18}, init);
  Tensor other = graph.addVariable(INT, {24});
  poputil::mapTensorLinearly(graph, other);
  std::vector<popops::SingleReduceOp> more{{ta, {0}, ReduceParams(Operation::ADD, true)},
                                           {tb, {1}, Operation::MAX}};
  std::vector<Tensor> givenOuts{given, other};
  popops::reduceMany(graph, more, givenOuts, h.prog());
  batch.expect(given, Operation::ADD, FLOAT, a, {24, 18}, {0}, "reduceMany update", std::nullopt,
               &init);
  batch.expect(other, Operation::MAX, INT, b, {24, 18}, {1}, "reduceMany given output");
  batch.runAndCheck();
}

// accumType.interTile = half keeps half partial results between stages: still within half
// precision of the sum.
TEST(Reduce, AccumTypeOption) {
  OpHarness h(4);
  auto values = inputValues(Operation::ADD, HALF, 64 * 16, 4);
  Tensor in = h.input("in", HALF, {64, 16}, values);
  Tensor out = popops::reduce(h.graph(), in, HALF, {0}, Operation::ADD, h.prog(), {},
                              {{"accumType.interTile", "half"}, {"accumType.inVertex", "float"}});
  h.output("out", out);
  h.run();
  auto r = ref::reduce(Operation::ADD, values, {64, 16}, {0}, HALF);
  auto expected = ref::finish(Operation::ADD, r, HALF);
  for (std::size_t o = 0; o < expected.size(); ++o)
    EXPECT_NEAR(h.result("out")[o], expected[o], 4 * ulp(HALF, r.magnitude[o])) << o;
}

/// Runs `f`, expecting a poplibs_error whose message contains each of `parts`.
template <class F> void expectError(F f, const std::vector<std::string> &parts) {
  try {
    f();
    ADD_FAILURE() << "expected poputil::poplibs_error";
  } catch (const poputil::poplibs_error &e) {
    for (const auto &p : parts)
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
          << "'" << e.what() << "' should mention '" << p << "'";
  }
}

TEST(Reduce, Errors) {
  OpHarness h(2);
  auto &graph = h.graph();
  auto &prog = h.prog();
  Tensor f = graph.addVariable(FLOAT, {2, 3, 4});
  Tensor b = graph.addVariable(BOOL, {2, 3});
  poputil::mapTensorLinearly(graph, f);
  poputil::mapTensorLinearly(graph, b);
  expectError([&] { popops::reduce(graph, f, {3}, Operation::ADD, prog); },
              {"reduce", "dimension 3", "{2,3,4}", "rank 3"});
  expectError(
      [&] {
        popops::reduce(graph, f, {1, 0, 1}, Operation::ADD, prog);
      },
      {"reduce", "{1,0,1}", "dimension 1 twice"});
  Tensor wrongShape = graph.addVariable(FLOAT, {2, 3});
  expectError([&] { popops::reduceWithOutput(graph, f, wrongShape, {0}, Operation::ADD, prog); },
              {"reduceWithOutput", "{2,3}", "{2,3,4}", "{3,4}"});
  Tensor wrongType = graph.addVariable(INT, {3, 4});
  expectError([&] { popops::reduceWithOutput(graph, f, wrongType, {0}, Operation::ADD, prog); },
              {"reduceWithOutput", "ADD", "float", "int"});
  expectError([&] { popops::reduce(graph, f, {0}, Operation::LOGICAL_AND, prog); },
              {"reduce", "LOGICAL_AND", "float", "bool->bool"});
  expectError([&] { popops::reduce(graph, b, {0}, Operation::ADD, prog); },
              {"reduce", "ADD", "bool"});
  expectError([&] { popops::reduce(graph, f, HALF, {0}, Operation::MAX, prog); },
              {"reduce", "MAX", "float", "half"});
  Tensor halfScale = graph.addConstant(HALF, {}, 2.0f);
  Tensor vecScale = graph.addConstant(FLOAT, {2}, 2.0f);
  graph.setTileMapping(halfScale, 0);
  graph.setTileMapping(vecScale, 0);
  expectError(
      [&] { popops::reduce(graph, f, {0}, ReduceParams(Operation::ADD, false, halfScale), prog); },
      {"reduce", "scalar float", "half{}"});
  expectError(
      [&] { popops::reduce(graph, f, {0}, ReduceParams(Operation::ADD, false, vecScale), prog); },
      {"reduce", "scalar float", "float{2}"});
  Tensor scale = graph.addConstant(FLOAT, {}, 2.0f);
  graph.setTileMapping(scale, 0);
  expectError(
      [&] { popops::reduce(graph, f, {0}, ReduceParams(Operation::MUL, false, scale), prog); },
      {"reduce", "MUL", "scale"});
  Tensor out = graph.addVariable(FLOAT, {3, 4});
  expectError(
      [&] {
        popops::reduceWithOutput(graph, f, out, {0}, ReduceParams(Operation::MAX, true), prog);
      },
      {"reduceWithOutput", "MAX", "update"});
  std::vector<Tensor> outs{out};
  std::vector<popops::SingleReduceOp> two{{f, {0}, Operation::ADD}, {f, {1}, Operation::ADD}};
  expectError([&] { popops::reduceMany(graph, two, outs, prog); },
              {"reduceMany", "2 reductions", "1 outputs"});
  std::vector<Tensor> none;
  std::vector<popops::SingleReduceOp> upd{{f, {0}, ReduceParams(Operation::ADD, true)}};
  expectError([&] { popops::reduceMany(graph, upd, none, prog); },
              {"reduceMany", "reduction 0", "update"});
  Tensor unmapped = graph.addVariable(FLOAT, {5, 2});
  graph.setTileMapping(unmapped.slice(0, 3), 1);
  expectError([&] { popops::reduce(graph, unmapped, {0}, Operation::ADD, prog); },
              {"reduce", "{5,2}", "not completely mapped"});
  std::vector<popops::SingleReduceOp> bad{{f, {0}, Operation::ADD}, {f, {7}, Operation::ADD}};
  expectError([&] { popops::reduceMany(graph, bad, none, prog); },
              {"reduceMany: reduction 1", "dimension 7"});
}

TEST(Reduce, BadOptionsAreInvalidOptions) {
  OpHarness h(2);
  Tensor f = h.input("f", FLOAT, {4, 4}, std::vector<double>(16, 1.0));
  for (auto [key, value] : {std::pair<std::string, std::string>{"accumType.interTile", "double"},
                            {"accumType.inVertex", "int"},
                            {"accumType.unknown", "float"}}) {
    try {
      popops::reduce(h.graph(), f, {0}, Operation::ADD, h.prog(), {}, {{key, value}});
      ADD_FAILURE() << "expected invalid_option for " << key;
    } catch (const poplar::invalid_option &e) {
      EXPECT_NE(std::string(e.what()).find("reduce"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(value), std::string::npos) << e.what();
    }
  }
}

TEST(Reduce, OperationNamesReadAndWrite) {
  for (Operation op : kOps) {
    std::stringstream s;
    s << op;
    Operation back = Operation::MAX;
    s >> back;
    EXPECT_FALSE(s.fail()) << s.str();
    EXPECT_EQ(back, op) << s.str();
  }
  EXPECT_EQ(opName(Operation::LOG_ADD), "LOG_ADD");
  std::stringstream bad("SUBTRACT");
  Operation op = Operation::ADD;
  bad >> op;
  EXPECT_TRUE(bad.fail());
  EXPECT_EQ(op, Operation::ADD);
}
/// The most input elements any tile holds.
std::size_t heaviestTile(const Graph &graph, const Tensor &t) {
  std::size_t most = 0;
  for (const auto &tile : graph.getTileMapping(t)) {
    std::size_t n = 0;
    for (const auto &iv : tile)
      n += iv.size();
    most = std::max(most, n);
  }
  return most;
}

/// Simulated cycles of one ADD reduction of a float input of `shape` over `dims`, mapped
/// linearly over `tiles` tiles, or all on tile 0; `held` gets the most elements a tile holds.
std::uint64_t reductionCycles(unsigned tiles, const std::vector<std::size_t> &shape,
                              const std::vector<std::size_t> &dims, bool onOneTile,
                              std::size_t &held) {
  OpHarness h(tiles);
  std::size_t n = 1;
  for (auto s : shape)
    n *= s;
  Tensor in = h.input("in", FLOAT, shape, inputValues(Operation::ADD, FLOAT, n, 5));
  if (onOneTile)
    h.graph().setTileMapping(in, 0);
  held = heaviestTile(h.graph(), in);
  h.output("out", popops::reduce(h.graph(), in, dims, Operation::ADD, h.prog()));
  h.run();
  return h.cycles();
}

// The plan spreads the work as the input is spread: each tile folds what it holds on its six
// workers, then the partial results are folded on the outputs' tiles, spread over the tiles. So
// the simulated cycles stay below a bound made of the heaviest tile's share of the input and the
// fixed costs of the stages; the same reductions done on one tile are far above it.
//
// Per element: the float lane loops cost about 1.5 worker cycles (8 outputs at a time, or
// contiguous partials), so with six workers about 1.5 tile cycles per element a tile holds; the
// bound allows 4, for region overheads and the later stages. Fixed: up to four compute sets
// (a sync of 90 each, vertex launches, the exchange of the partial results). The reductions over
// the outer dimension (a bias gradient's shape) took 15,992 and 17,238 cycles when their tiles
// folded one-row pieces with a set-up each and the intermediate stage was taken at a loss: over
// this bound.
TEST(Reduce, CyclesFollowThePerTileWork) {
  constexpr std::uint64_t kCyclesPerElement = 4, kFixedCycles = 2300;
  const std::vector<std::pair<std::vector<std::size_t>, std::vector<std::size_t>>> cases = {
      {{96, 256}, {0}},
      {{96, 256}, {1}},
      {{96, 256}, {0, 1}},
      {{16, 24, 64}, {0, 2}},
      {{6, 4096}, {0}}};
  for (const auto &[shape, dims] : cases) {
    std::size_t held = 0, all = 0;
    const auto spread = reductionCycles(16, shape, dims, false, held);
    const std::uint64_t bound = kCyclesPerElement * held + kFixedCycles;
    const auto oneTile = reductionCycles(16, shape, dims, true, all);
    std::ostringstream what;
    what << describe(Operation::ADD, FLOAT, FLOAT, shape, dims) << ": " << held
         << " elements on the heaviest of 16 tiles, " << spread << " cycles; all " << all
         << " on one tile, " << oneTile << " cycles; bound " << bound;
    SCOPED_TRACE(what.str());
    EXPECT_EQ(held * 16, all);
    EXPECT_LT(spread, bound);
    EXPECT_GT(oneTile, bound);
  }
}
} // namespace
