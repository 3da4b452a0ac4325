// popops' reduction vertices (codelets/popops/Reduce.cpp) one by one: ContinuousReduce and Reduce
// for the ops and types whose folds run in float lanes (ADD, SQUARE_ADD, MAX, MIN on float and
// half) and one that does not (MUL), over counts that leave every vector remainder, odd counts
// that start later outputs misaligned, and region widths around the 8-output block. Values are
// multiples of 1/64 of a few units, so every sum is exact in float in any order and the results
// must equal the host's.
#include "VertexChecks.hpp"

#include <popops/codelets.hpp>
#include <poputil/VertexTemplates.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <ostream>
#include <string>

namespace {

using namespace popsdk::test;
using namespace poplar;

struct OpCase {
  std::string op; // popops::Reduce<op>
  Type partials, out;
  friend std::ostream &operator<<(std::ostream &os, const OpCase &c) {
    return os << c.op << " " << c.partials.toString() << "->" << c.out.toString();
  }
};

double fold(const std::string &op, const std::vector<double> &x, std::size_t begin, std::size_t end,
            std::size_t step) {
  double acc = op == "ReduceMul"   ? 1
               : op == "ReduceMax" ? -std::numeric_limits<double>::infinity()
               : op == "ReduceMin" ? std::numeric_limits<double>::infinity()
                                   : 0;
  for (std::size_t i = begin; i < end; i += step) {
    if (op == "ReduceAdd")
      acc += x[i];
    else if (op == "ReduceSquareAdd")
      acc += x[i] * x[i];
    else if (op == "ReduceMul")
      acc *= x[i];
    else if (op == "ReduceMax")
      acc = std::max(acc, x[i]);
    else
      acc = std::min(acc, x[i]);
  }
  return acc;
}

/// Values whose folds are exact: products of values near 1 are kept short.
std::vector<double> valuesFor(const OpCase &c, std::size_t n, unsigned seed) {
  if (c.op == "ReduceMul")
    return hostData(c.partials, n, 0.75, 1.25, seed);
  return hostData(c.partials, n, -4, 4, seed);
}

std::string vertexName(const std::string &templ, const OpCase &c) {
  return poputil::templateVertex("popops::" + templ, "popops::" + c.op, c.partials, c.out, false);
}

class ReduceVertex : public testing::TestWithParam<OpCase> {};

// numOutputs x numPartials contiguous partials: odd counts start every other output's run at an
// odd element (a misaligned pair), small ones leave only the scalar steps.
TEST_P(ReduceVertex, ContinuousReduce) {
  const OpCase c = GetParam();
  const double tol = c.op == "ReduceMul" ? 1e-6 : 0;
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {3, 7}, {4, 9}, {2, 64}, {5, 101}, {1, 1000}};
  std::vector<VertexTester> testers;
  std::vector<std::vector<double>> wants;
  for (const auto &[outputs, partials] : shapes) {
    auto x = valuesFor(c, outputs * partials, unsigned(outputs * 131 + partials));
    std::vector<double> want;
    for (std::size_t o = 0; o < outputs; ++o)
      want.push_back(roundTo(c.out, fold(c.op, x, o * partials, (o + 1) * partials, 1)));
    wants.push_back(want);
    testers.push_back(VertexTester(popops::addCodelets, vertexName("ContinuousReduce", c))
                          .input("partials", c.partials, x)
                          .output("out", c.out, outputs)
                          .state("numOutputsM1", UNSIGNED_INT, double(outputs - 1))
                          .state("numPartials", UNSIGNED_INT, double(partials)));
  }
  const auto results = VertexTester::runEach(testers);
  for (std::size_t i = 0; i < shapes.size(); ++i)
    expectValues(results[i].output("out"), wants[i], tol,
                 vertexName("ContinuousReduce", c) + " " + std::to_string(shapes[i].first) + "x" +
                     std::to_string(shapes[i].second));
}

// Output regions of widths 1 (runs of partials), 8 and 16 (whole blocks, every row pair-aligned),
// 9 and 3 (a block and single columns, rows not aligned), each from several partial regions of
// one to a few rows; then regions whose partial regions are all one row (16, and 10: a block and
// two single columns), which the lanes read with a loop of their own.
TEST_P(ReduceVertex, Reduce) {
  const OpCase c = GetParam();
  const double tol = c.op == "ReduceMul" ? 1e-6 : 0;
  const std::vector<std::size_t> widths = {1, 8, 9, 16, 3, 1, 16, 10};
  const std::vector<std::vector<std::size_t>> rowsOf = {{37, 4, 1}, {3, 1}, {2, 5},    {1, 1, 2},
                                                        {4},        {5},    {1, 1, 1}, {1, 1}};
  std::vector<std::vector<double>> partials;
  std::vector<double> counts, want;
  unsigned seed = 7;
  for (std::size_t r = 0; r < widths.size(); ++r) {
    std::vector<double> all;
    for (auto rows : rowsOf[r]) {
      auto x = valuesFor(c, rows * widths[r], seed++);
      all.insert(all.end(), x.begin(), x.end());
      partials.push_back(x);
    }
    counts.push_back(double(rowsOf[r].size()));
    for (std::size_t col = 0; col < widths[r]; ++col)
      want.push_back(roundTo(c.out, fold(c.op, all, col, all.size(), widths[r])));
  }
  auto result = VertexTester(popops::addCodelets, vertexName("Reduce", c))
                    .outputList("out", c.out, widths)
                    .input("numPartials", UNSIGNED_SHORT, counts)
                    .inputList("partials", c.partials, partials)
                    .run();
  expectValues(result.output("out"), want, tol, vertexName("Reduce", c));
}

// A region of 256 outputs from six one-row partial regions (what a tile folds when six rows
// are cut by outputs between its workers, or arrive from six tiles) costs no more than the same
// six rows as one partial region: each row costs its loads and adds, not a set-up of its own
// per block of outputs (it did: 8,355 thread cycles against 2,435 for one row).
TEST(ReduceVertexCycles, OneRowRegionsCostNoMoreThanOneRegionOfTheirRows) {
  constexpr std::size_t kWidth = 256, kRows = 6;
  const OpCase c{"ReduceAdd", FLOAT, FLOAT};
  std::vector<std::vector<double>> rows;
  for (std::size_t r = 0; r < kRows; ++r)
    rows.push_back(valuesFor(c, kWidth, unsigned(r + 1)));
  std::vector<double> joined;
  for (const auto &row : rows)
    joined.insert(joined.end(), row.begin(), row.end());
  auto tester = [&](const std::vector<std::vector<double>> &partials) {
    return VertexTester(popops::addCodelets, vertexName("Reduce", c))
        .outputList("out", c.out, {kWidth})
        .input("numPartials", UNSIGNED_SHORT, {double(partials.size())})
        .inputList("partials", c.partials, partials);
  };
  const auto results = VertexTester::runEach({tester(rows), tester({joined})});
  EXPECT_EQ(results[0].output("out"), results[1].output("out"));
  EXPECT_LE(results[0].threadCycles, results[1].threadCycles)
      << "six one-row regions against one region of six rows, " << kWidth << " outputs";
}

INSTANTIATE_TEST_SUITE_P(
    Lanes, ReduceVertex,
    testing::Values(OpCase{"ReduceAdd", FLOAT, FLOAT}, OpCase{"ReduceAdd", HALF, HALF},
                    OpCase{"ReduceAdd", HALF, FLOAT}, OpCase{"ReduceAdd", FLOAT, HALF},
                    OpCase{"ReduceSquareAdd", FLOAT, FLOAT}, OpCase{"ReduceSquareAdd", HALF, FLOAT},
                    OpCase{"ReduceMax", FLOAT, FLOAT}, OpCase{"ReduceMax", HALF, HALF},
                    OpCase{"ReduceMin", FLOAT, FLOAT}, OpCase{"ReduceMin", HALF, HALF},
                    OpCase{"ReduceMul", FLOAT, FLOAT}),
    [](const testing::TestParamInfo<OpCase> &i) {
      return i.param.op + "_" + i.param.partials.toString() + "_" + i.param.out.toString();
    });

} // namespace
