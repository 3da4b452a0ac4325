// popops' transpose vertices (Transpose2D, Transpose1DSingleWorker, Transpose1D and
// SplitTranspose1D) for every type of their Vertices.def rows, on the single-vertex harness: each
// output matrix against the host transpose of its input, over edge shapes (1x1, single rows and
// columns, odd sides, 4x4 blocks, matrix counts below, at and above the six workers), and the
// estimators' formulas.
#include "TransposeCycles.hpp"
#include "VertexChecks.hpp"
#include "VertexTable.hpp"

#include <popops/codelets.hpp>

#include <gtest/gtest.h>

#include "popops/TypeLists.hpp"

#include <string>
#include <vector>

namespace {

using namespace popsdk::test;
using namespace poplar;

struct Instance {
  std::string name; // "Transpose2D<unsigned short>"
  Type type;
};

#define ADD_INSTANCE(list, templ, T)                                                               \
  list.push_back({std::string(#templ "<") + #T + ">", typeOf(#T)});

std::string gpName(const std::string &templ, const Type &type) {
  std::string t = type == UNSIGNED_INT ? "unsigned int" : type.toString();
  return "popops::" + templ + "<" + t + ">";
}

/// The types of each transpose template, from the table's type lists.
std::vector<Type> typesOf(const std::string &templ) {
  std::vector<Instance> list;
  if (templ == "Transpose2D") {
    POPOPS_TYPES_TRANSPOSE(ADD_INSTANCE, list, Transpose2D)
  } else {
    POPOPS_TYPES_TRANSPOSE_FAST(ADD_INSTANCE, list, Transpose1D)
  }
  std::vector<Type> types;
  for (const auto &i : list)
    types.push_back(i.type);
  return types;
}

/// `m` matrices rows x cols, one after another, transposed one by one.
std::vector<double> hostTranspose(const std::vector<double> &in, unsigned m, unsigned rows,
                                  unsigned cols) {
  std::vector<double> out(in.size());
  for (unsigned k = 0; k < m; ++k)
    for (unsigned r = 0; r < rows; ++r)
      for (unsigned c = 0; c < cols; ++c)
        out[k * rows * cols + c * rows + r] = in[k * rows * cols + r * cols + c];
  return out;
}

std::vector<double> valuesFor(const Type &type, std::size_t n, unsigned seed) {
  double lo = type == UNSIGNED_INT || type == UNSIGNED_SHORT ? 0 : -1000;
  return hostData(type, n, lo, type == HALF ? 1000 : 30000, seed);
}

struct Shape {
  unsigned matrices, rows, cols;
};

void runCases(const std::string &templ, const Type &type, const std::vector<Shape> &shapes) {
  std::vector<VertexTester> testers;
  std::vector<std::vector<double>> wants;
  for (const auto &s : shapes) {
    const std::size_t size = std::size_t(s.rows) * s.cols;
    auto in = valuesFor(type, s.matrices * size, s.rows * 131 + s.cols);
    wants.push_back(hostTranspose(in, s.matrices, s.rows, s.cols));
    VertexTester t(popops::addCodelets, gpName(templ, type));
    if (templ == "Transpose2D") {
      std::vector<std::vector<double>> ins;
      for (unsigned k = 0; k < s.matrices; ++k)
        ins.emplace_back(in.begin() + k * size, in.begin() + (k + 1) * size);
      t.inputList("src", type, ins)
          .outputList("dst", type, std::vector<std::size_t>(s.matrices, size))
          .state("numSrcRows", UNSIGNED_SHORT, s.rows)
          .state("numSrcColumns", UNSIGNED_SHORT, s.cols);
    } else {
      t.input("src", type, in)
          .output("dst", type, in.size())
          .state("numSrcRowsD4Or8", UNSIGNED_SHORT, s.rows / 4)
          .state("numSrcColumnsD4Or8", UNSIGNED_SHORT, s.cols / 4);
      if (templ == "Transpose1DSingleWorker") {
        t.state("numTranspositionsM1", UNSIGNED_SHORT, s.matrices - 1);
      } else if (templ == "SplitTranspose1D") {
        auto list = popops::internal::splitTranspose1DWorkList(s.rows, s.cols, s.matrices, 6);
        t.input("workList", UNSIGNED_SHORT, std::vector<double>(list.begin(), list.end()));
      } else {
        auto split = popops::internal::transposeWorkerSplit(s.matrices, 6);
        t.state("numTranspositions", UNSIGNED_SHORT, split.perWorker)
            .state("workerCount", UNSIGNED_SHORT, split.workerCount);
      }
    }
    testers.push_back(std::move(t));
  }
  auto results = VertexTester::runEach(testers);
  auto device = testDevice(1);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const auto &s = shapes[i];
    // The simulator's measurement (PopLibs' unit: a MultiVertex's tile cycles, a Vertex's own)
    // beside PopLibs' estimate, recorded for docs/popops.md; the library charges the estimate.
    popops::internal::VertexCost cost{device.getTarget(), -1,        type, type,
                                      {s.rows, s.cols},   s.matrices};
    using namespace popops::internal;
    const bool multi = templ == "Transpose1D" || templ == "SplitTranspose1D";
    auto estimate = templ == "Transpose2D"        ? transpose2DCycles(cost)
                    : templ == "Transpose1D"      ? transpose1DCycles(cost)
                    : templ == "SplitTranspose1D" ? splitTranspose1DCycles(cost)
                                                  : transpose1DSingleWorkerCycles(cost);
    auto measured = multi ? results[i].tileCycles : results[i].threadCycles;
    ::testing::Test::RecordProperty(
        templ + "_" + type.toString() + "_" + std::to_string(s.matrices) + "x" +
            std::to_string(s.rows) + "x" + std::to_string(s.cols),
        std::to_string(measured) + " simulated, " + std::to_string(estimate) + " estimated");
    // A list output reads back as the concatenation of its vectors, so every form compares alike.
    expectValues(results[i].output("dst"), wants[i], 0,
                 templ + " " + type.toString() + " " + std::to_string(s.matrices) + "x" +
                     std::to_string(s.rows) + "x" + std::to_string(s.cols));
  }
}

TEST(TransposeVertex, Transpose2DEveryType) {
  const std::vector<Shape> shapes = {{1, 1, 1}, {2, 1, 5}, {3, 5, 1}, {2, 3, 2},
                                     {1, 4, 4}, {2, 5, 7}, {3, 8, 12}};
  for (const auto &type : typesOf("Transpose2D"))
    runCases("Transpose2D", type, shapes);
}

TEST(TransposeVertex, Transpose1DSingleWorkerEveryType) {
  const std::vector<Shape> shapes = {{1, 4, 4}, {3, 4, 4}, {2, 8, 4}, {2, 4, 12}, {1, 16, 8}};
  for (const auto &type : typesOf("Transpose1DSingleWorker"))
    runCases("Transpose1DSingleWorker", type, shapes);
}

TEST(TransposeVertex, Transpose1DEveryTypeAndWorkerSplit) {
  // 1 and 5 matrices leave workers idle, 6 gives one each, 7 and 13 give some workers one more.
  const std::vector<Shape> shapes = {{1, 4, 4}, {5, 4, 8}, {6, 8, 4}, {7, 4, 4}, {13, 8, 8}};
  for (const auto &type : typesOf("Transpose1D"))
    runCases("Transpose1D", type, shapes);
}

TEST(TransposeVertex, SplitTranspose1DEveryTypeAndSplit) {
  // One matrix over six workers by 4x4 blocks (or a single block), two over three workers each,
  // three over two.
  const std::vector<Shape> shapes = {{1, 4, 4}, {1, 8, 8}, {2, 12, 8}, {3, 4, 16}};
  for (const auto &type : typesOf("SplitTranspose1D"))
    runCases("SplitTranspose1D", type, shapes);
}

TEST(TransposeVertex, SplitWorkListCoversEachMatrixOnce) {
  // 2 matrices of 12x8 over 6 workers: 3 per matrix, one block row of 4 each, both columns.
  auto list = popops::internal::splitTranspose1DWorkList(12, 8, 2, 6);
  std::vector<unsigned> want = {0,  0,  1, 2, 8,  1,  1, 2, 16, 2,  1, 2,
                                24, 24, 1, 2, 32, 25, 1, 2, 40, 26, 1, 2};
  EXPECT_EQ(list, want);
  EXPECT_TRUE(popops::internal::canSplitTranspose(3, 6));
  EXPECT_FALSE(popops::internal::canSplitTranspose(4, 6));
  EXPECT_FALSE(popops::internal::canSplitTranspose(6, 6));
}

TEST(TransposeVertex, WorkerSplitIsPopLibs) {
  auto s = popops::internal::transposeWorkerSplit(4, 6);
  EXPECT_EQ(s.perWorker, 1u);
  EXPECT_EQ(s.workerCount, 4u);
  s = popops::internal::transposeWorkerSplit(12, 6);
  EXPECT_EQ(s.perWorker, 2u);
  EXPECT_EQ(s.workerCount, 6u);
  s = popops::internal::transposeWorkerSplit(13, 6);
  EXPECT_EQ(s.perWorker, 3u);
  EXPECT_EQ(s.workerCount, 1u);
}

// The estimators against values worked by hand from PopLibs' formulas.
TEST(TransposeVertex, EstimatorsFollowPopLibsFormulas) {
  auto device = testDevice(1);
  const Target &target = device.getTarget();
  auto cost = [&](Type type, unsigned rows, unsigned cols, unsigned m) {
    return popops::internal::VertexCost{target, -1, type, type, {rows, cols}, m};
  };
  using namespace popops::internal;
  // Float fast path: 27 + m (11 + r/2 (6 + 3 (c/2 - 1))).
  EXPECT_EQ(transpose2DCycles(cost(FLOAT, 4, 4, 2)), 85u);
  // Float odd side: 13 + m (8 + c (5 + 2r)).
  EXPECT_EQ(transpose2DCycles(cost(FLOAT, 3, 5, 1)), 13u + 8 + 5 * 11);
  // Half 4x4: 32 + 15m; 8x8: 37 + m (12 + r/4 (15 + 4 (c/4 - 2))); 3x3: 15 + m (8 + c (5 + 5r/2)).
  EXPECT_EQ(transpose2DCycles(cost(HALF, 4, 4, 1)), 47u);
  EXPECT_EQ(transpose2DCycles(cost(HALF, 8, 8, 1)), 79u);
  EXPECT_EQ(transpose2DCycles(cost(HALF, 3, 3, 1)), 59u);
  // Single worker 4x4: 29 (one matrix) or 37 + 4 (m - 2), plus 1 to unpack the pointers.
  EXPECT_EQ(transpose1DSingleWorkerCycles(cost(HALF, 4, 4, 1)), 30u);
  EXPECT_EQ(transpose1DSingleWorkerCycles(cost(HALF, 4, 4, 3)), 42u);
  // 8x8: 29 + m (18 + 2 (12 + 0)) + 1.
  EXPECT_EQ(transpose1DSingleWorkerCycles(cost(SHORT, 8, 8, 2)), 29u + 2 * 42 + 1);
  // Twelve 4x4 on six workers: 2 each; 7 + 6 (38 + 1 - 7).
  EXPECT_EQ(transpose1DCycles(cost(HALF, 4, 4, 12)), 199u);
}

} // namespace
