// popnn losses, accuracy, arg max/min and top-K against the host reference: both loss types,
// masked labels, the scaling tensors, float and half, one and four tiles; the cross-entropy
// deltas against central differences of the loss of softmax(logits).
#include "FiniteDifference.hpp"
#include "NnActivations.hpp"
#include "NnLoss.hpp"
#include "NnTest.hpp"

#include <popnn/Loss.hpp>
#include <poputil/TileMapping.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace {

using namespace poplar;
using popnn::test::expectClose;
using popnn::test::NnHarness;
using popnn::test::tolerance;
using popsdk::test::hostData;
namespace ref = popsdk::reference;

const std::uint32_t kMasked = MASKED_LABEL_CODE;

std::vector<double> asDoubles(const std::vector<std::uint32_t> &v) {
  std::vector<double> out;
  for (auto x : v)
    out.push_back(x == kMasked ? double(kMasked) : double(x));
  return out;
}

/// Probabilities: the softmax of some logits, rounded to the device type.
std::vector<double> probabilities(Type type, const std::vector<double> &logits,
                                  std::size_t classes) {
  auto p = ref::nonLinearity(popnn::NonLinearityType::SOFTMAX, logits, classes);
  for (auto &x : p)
    x = popsdk::test::roundTo(type, x);
  return p;
}

void lossTest(popnn::LossType lossType, Type type, unsigned tiles, bool withScales) {
  const std::size_t rows = 6, classes = 13;
  auto logits = hostData(FLOAT, rows * classes, -3, 3, 11);
  auto probs = probabilities(type, logits, classes);
  std::vector<std::uint32_t> labels = {3, 0, kMasked, 12, 7, 7};
  NnHarness h(tiles);
  Tensor out = h.input("probs", type, {rows, classes}, probs);
  Tensor expected = h.input("labels", UNSIGNED_INT, {rows}, asDoubles(labels));
  Tensor loss = h.graph().addVariable(type, {rows}, "loss");
  Tensor deltas = h.graph().addVariable(type, {rows, classes}, "deltas");
  Tensor numCorrect = h.graph().addVariable(UNSIGNED_INT, {1}, "numCorrect");
  h.graph().setTileMapping(loss, 0);
  h.graph().setTileMapping(numCorrect, tiles - 1);
  poputil::mapTensorLinearly(h.graph(), deltas);
  double deltasScale = withScales ? 4 : 1, outScale = withScales ? 2 : 1;
  if (withScales) {
    Tensor ds = h.input("deltasScale", type, {1}, {deltasScale});
    Tensor os = h.input("outScale", type, {}, {outScale});
    h.prog().add(
        popnn::calcLoss(h.graph(), out, expected, loss, deltas, ds, os, numCorrect, lossType));
  } else {
    h.prog().add(popnn::calcLoss(h.graph(), out, expected, loss, deltas, numCorrect, lossType));
  }
  h.output("loss", loss);
  h.output("deltas", deltas);
  h.output("numCorrect", numCorrect);
  h.run();
  // With outScale, the outputs given are taken as already scaled.
  std::vector<double> scaled = probs;
  auto want = ref::calcLoss(lossType == popnn::CROSS_ENTROPY_LOSS, scaled, labels, classes,
                            deltasScale, outScale);
  expectClose(h.result("loss"), want.loss, tolerance(type) * 5, "loss");
  expectClose(h.result("deltas"), want.deltas, tolerance(type), "deltas");
  EXPECT_EQ(h.result("numCorrect")[0], double(ref::numCorrect(probs, labels, classes)));
}

TEST(PopnnLoss, SumSquaredFloatOneTile) { lossTest(popnn::SUM_SQUARED_LOSS, FLOAT, 1, false); }
TEST(PopnnLoss, SumSquaredHalfFourTiles) { lossTest(popnn::SUM_SQUARED_LOSS, HALF, 4, false); }
TEST(PopnnLoss, CrossEntropyFloatFourTiles) {
  lossTest(popnn::CROSS_ENTROPY_LOSS, FLOAT, 4, false);
}
TEST(PopnnLoss, CrossEntropyHalfScaled) { lossTest(popnn::CROSS_ENTROPY_LOSS, HALF, 4, true); }
TEST(PopnnLoss, CrossEntropyFloatScaledOneTile) {
  lossTest(popnn::CROSS_ENTROPY_LOSS, FLOAT, 1, true);
}

/// The deltas are the loss's gradient: for sum-squared with respect to the outputs, for
/// cross-entropy with respect to the logits whose softmax the outputs are.
TEST(PopnnLoss, DeltasAreFiniteDifferenceGradients) {
  const std::size_t rows = 3, classes = 5;
  auto logits = hostData(FLOAT, rows * classes, -2, 2, 12);
  auto probs = ref::nonLinearity(popnn::NonLinearityType::SOFTMAX, logits, classes);
  std::vector<std::uint32_t> labels = {4, 1, 2};
  NnHarness h(2);
  Tensor out = h.input("probs", FLOAT, {rows, classes}, probs);
  Tensor expected = h.input("labels", INT, {rows}, asDoubles(labels));
  std::map<popnn::LossType, Tensor> deltas;
  for (auto lt : {popnn::SUM_SQUARED_LOSS, popnn::CROSS_ENTROPY_LOSS}) {
    Tensor loss = h.graph().addVariable(FLOAT, {rows}, "loss");
    deltas[lt] = h.graph().addVariable(FLOAT, {rows, classes}, "deltas");
    h.graph().setTileMapping(loss, 1);
    h.graph().setTileMapping(deltas[lt], 0);
    h.prog().add(popnn::calcLoss(h.graph(), out, expected, loss, deltas[lt], lt));
    h.output(lt == popnn::SUM_SQUARED_LOSS ? "ss" : "ce", deltas[lt]);
  }
  h.run();
  auto total = [&](bool ce, const std::vector<double> &p) {
    auto l = ref::calcLoss(ce, p, labels, classes).loss;
    double s = 0;
    for (double x : l)
      s += x;
    return std::vector<double>{s};
  };
  auto ssGrad =
      ref::vectorJacobianProduct([&](const auto &p) { return total(false, p); }, probs, {1.0});
  auto ceGrad = ref::vectorJacobianProduct(
      [&](const auto &z) {
        return total(true, ref::nonLinearity(popnn::NonLinearityType::SOFTMAX, z, classes));
      },
      logits, {1.0});
  expectClose(h.result("ss"), ssGrad, 1e-4, "sum-squared deltas");
  expectClose(h.result("ce"), ceGrad, 1e-4, "cross-entropy deltas");
}

void argTest(Type type, unsigned tiles) {
  const std::size_t rows = 5, cols = 29;
  auto x = hostData(type, rows * cols, type == UNSIGNED_INT ? 0 : -50, 50, 21);
  // A tie in row 1: the first column wins.
  x[cols + 3] = x[cols + 20] = 100;
  NnHarness h(tiles);
  Tensor in = h.input("x", type, {rows, cols}, x);
  auto [max, argMax] = popnn::maxAndArgMax(h.graph(), in, h.prog());
  auto [min, argMin] = popnn::minAndArgMin(h.graph(), in, h.prog());
  h.output("argMax", argMax);
  h.output("max", max);
  h.output("argMin", argMin);
  h.output("min", min);
  h.output("argMax2", popnn::argMax(h.graph(), in, h.prog()));
  h.output("argMin2", popnn::argMin(h.graph(), in, h.prog()));
  h.run();
  for (bool isMax : {true, false}) {
    auto want = ref::argBest(x, cols, isMax);
    std::vector<double> wantIdx(want.begin(), want.end()), wantVal;
    for (std::size_t r = 0; r < rows; ++r)
      wantVal.push_back(x[r * cols + want[r]]);
    std::string n = isMax ? "Max" : "Min";
    EXPECT_EQ(h.result("arg" + n), wantIdx) << type;
    EXPECT_EQ(h.result("arg" + n + "2"), wantIdx) << type;
    EXPECT_EQ(h.result(isMax ? "max" : "min"), wantVal) << type;
  }
  EXPECT_EQ(h.result("argMax")[1], 3.0);
}

TEST(PopnnArgMax, FloatOneTile) { argTest(FLOAT, 1); }
TEST(PopnnArgMax, FloatFourTiles) { argTest(FLOAT, 4); }
TEST(PopnnArgMax, HalfFourTiles) { argTest(HALF, 4); }
TEST(PopnnArgMax, IntFourTiles) { argTest(INT, 4); }
TEST(PopnnArgMax, UnsignedFourTiles) { argTest(UNSIGNED_INT, 4); }

TEST(PopnnTopK, SortedAndUnsorted) {
  const std::size_t rows = 3, cols = 17, k = 4;
  auto x = hostData(FLOAT, rows * cols, -10, 10, 31);
  NnHarness h(4);
  Tensor in = h.input("x", FLOAT, {rows, cols}, x);
  Tensor sortedIdx, unsortedIdx;
  h.output("sorted", popnn::topK(h.graph(), in, sortedIdx, k, true, h.prog()));
  h.output("unsorted", popnn::topK(h.graph(), in, unsortedIdx, k, false, h.prog()));
  h.output("sortedIdx", sortedIdx);
  h.output("unsortedIdx", unsortedIdx);
  h.run();
  auto values = h.result("sorted"), idx = h.result("sortedIdx");
  auto uvalues = h.result("unsorted"), uidx = h.result("unsortedIdx");
  for (std::size_t r = 0; r < rows; ++r) {
    std::vector<double> row(x.begin() + r * cols, x.begin() + (r + 1) * cols);
    std::vector<double> want = row;
    std::sort(want.begin(), want.end(), std::greater<>());
    want.resize(k);
    std::vector<double> got(values.begin() + r * k, values.begin() + (r + 1) * k);
    EXPECT_EQ(got, want) << "row " << r;
    std::vector<double> ugot(uvalues.begin() + r * k, uvalues.begin() + (r + 1) * k);
    std::sort(ugot.begin(), ugot.end(), std::greater<>());
    EXPECT_EQ(ugot, want) << "row " << r << " unsorted";
    for (std::size_t j = 0; j < k; ++j) {
      EXPECT_EQ(row[std::size_t(idx[r * k + j])], values[r * k + j]);
      EXPECT_EQ(row[std::size_t(uidx[r * k + j])], uvalues[r * k + j]);
    }
  }
}

} // namespace
