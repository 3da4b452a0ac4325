// The loss transform and arg max/min vertices against the host reference over growing sizes,
// cycles against popnn's estimates.
#include "CycleEstimators.hpp"
#include "VertexCycles.hpp"

#include <popnn/codelets.hpp>
#include <poputil/VertexTemplates.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace {

using namespace poplar;
using popsdk::test::hostData;
using popsdk::test::VertexTester;
namespace est = popnn::internal;

const std::vector<std::size_t> kSizes = {1, 5, 64, 301};

void expectNear(const std::vector<double> &got, const std::vector<double> &want, double tol,
                const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], tol * (std::fabs(want[i]) + 0.1)) << what << "[" << i << "]";
}

class LossVertices : public ::testing::TestWithParam<std::tuple<bool, Type>> {};

TEST_P(LossVertices, MatchReferenceAndEstimate) {
  auto [crossEntropy, type] = GetParam();
  const std::string templ = crossEntropy ? "LossCrossEntropyTransform" : "LossSumSquaredTransform";
  const std::string name = poputil::templateVertex("popnn::" + templ, type);
  const double deltasScale = 3, outScale = 2;
  std::vector<VertexTester> testers;
  std::vector<std::pair<std::vector<double>, std::vector<double>>> wants;
  for (auto n : kSizes) {
    auto p = hostData(type, n, 0.015625, 1, unsigned(n));
    std::vector<double> hot(n, 0);
    hot[n / 2] = 1;
    std::vector<double> deltas(n), terms(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (crossEntropy) {
        deltas[i] = deltasScale / outScale * (p[i] - hot[i] * outScale);
        terms[i] = -hot[i] * (std::log(p[i]) - std::log(outScale));
      } else {
        deltas[i] = p[i] - hot[i];
        terms[i] = 0.5 * deltas[i] * deltas[i];
      }
    }
    VertexTester t(popnn::addCodelets, name);
    t.input("probs", type, p)
        .input("expected", type, hot)
        .output("deltas", type, n)
        .output("transformed", type, n)
        .state("size", UNSIGNED_SHORT, double(n));
    if (crossEntropy)
      t.scalarInput("deltasScale", type, deltasScale)
          .scalarInput("modelOutputScaling", type, outScale);
    testers.push_back(t);
    wants.push_back({deltas, terms});
  }
  auto results = VertexTester::runEach(testers);
  auto device = popsdk::test::testDevice(1);
  std::vector<popnn::test::CycleSample> samples;
  double tol = type == HALF ? 1e-2 : 1e-5;
  for (std::size_t i = 0; i < kSizes.size(); ++i) {
    expectNear(results[i].output("deltas"), wants[i].first, tol, name + " deltas");
    expectNear(results[i].output("transformed"), wants[i].second, tol, name + " transformed");
    est::VertexCost cost{device.getTarget(), -1, type, type, {unsigned(kSizes[i])}};
    samples.push_back({kSizes[i], results[i].threadCycles, est::estimatorOf(templ)(cost)});
  }
  // PopLibs' assembly takes 4 (sum-squared) or 9 (cross-entropy, a log) cycles per element, two
  // halves at a time; popc's loop takes one element per trip, log included.
  popnn::test::checkCycles(name, samples, 1, type == HALF ? 12 : 6);
}

INSTANTIATE_TEST_SUITE_P(Popnn, LossVertices,
                         ::testing::Combine(::testing::Bool(), ::testing::Values(FLOAT, HALF)),
                         [](const auto &info) {
                           return std::string(std::get<0>(info.param) ? "CrossEntropy"
                                                                      : "SumSquared") +
                                  "_" + std::get<1>(info.param).toString();
                         });

class ClassVertices : public ::testing::TestWithParam<std::tuple<bool, Type>> {};

/// The gather stage: each worker's best of its chunk and its column (offset by `index`).
TEST_P(ClassVertices, GatherMatchesReferenceAndEstimate) {
  auto [isMax, type] = GetParam();
  const std::string templ = isMax ? "ReduceMaxClassGather" : "ReduceMinClassGather";
  const std::string name = poputil::templateVertex("popnn::" + templ, type, UNSIGNED_INT);
  const Type valueType = type == HALF ? FLOAT : type;
  const unsigned index = 100;
  std::vector<VertexTester> testers;
  std::vector<std::pair<std::vector<double>, std::vector<double>>> wants;
  for (auto n : kSizes) {
    auto x = hostData(type, n, type == UNSIGNED_INT ? 0 : -100, 100, unsigned(n) + 3);
    std::size_t workerSize = (n + 5) / 6, chunks = (n + workerSize - 1) / workerSize;
    std::vector<double> values, labels;
    for (std::size_t c = 0; c < chunks; ++c) {
      auto b = x.begin() + c * workerSize, e = x.begin() + std::min(n, (c + 1) * workerSize);
      auto best = isMax ? std::max_element(b, e) : std::min_element(b, e);
      values.push_back(*best);
      labels.push_back(double(index + (best - x.begin())));
    }
    VertexTester t(popnn::addCodelets, name);
    t.input("activations", type, x)
        .output("maxValue", valueType, chunks)
        .output("maxIndex", UNSIGNED_INT, chunks)
        .state("index", UNSIGNED_INT, index)
        .state("size", UNSIGNED_INT, double(n))
        .state("workerSize", UNSIGNED_INT, double(workerSize));
    testers.push_back(t);
    wants.push_back({values, labels});
  }
  auto results = VertexTester::runEach(testers);
  auto device = popsdk::test::testDevice(1);
  std::vector<popnn::test::CycleSample> samples;
  for (std::size_t i = 0; i < kSizes.size(); ++i) {
    EXPECT_EQ(results[i].output("maxValue"), wants[i].first) << name;
    EXPECT_EQ(results[i].output("maxIndex"), wants[i].second) << name;
    est::VertexCost cost{device.getTarget(), -1, type, type, {unsigned(kSizes[i])}};
    samples.push_back({kSizes[i], results[i].tileCycles, est::estimatorOf(templ)(cost)});
  }
  // Our estimate counts the loop popc generates.
  popnn::test::checkCycles(name, samples, 0.8, 1.25);
}

/// The select stage: the best candidate, the first on ties.
TEST_P(ClassVertices, SparseMatchesReferenceAndEstimate) {
  auto [isMax, type] = GetParam();
  const std::string templ = isMax ? "ReduceMaxClassSparse" : "ReduceMinClassSparse";
  const std::string name = poputil::templateVertex("popnn::" + templ, type, UNSIGNED_INT);
  const Type valueType = type == HALF ? FLOAT : type;
  std::vector<VertexTester> testers;
  std::vector<std::pair<double, double>> wants;
  for (auto n : kSizes) {
    auto v = hostData(valueType, n, type == UNSIGNED_INT ? 0 : -100, 100, unsigned(n) + 5);
    std::vector<double> labels(n);
    for (std::size_t i = 0; i < n; ++i)
      labels[i] = double(7 * i + 1);
    auto best = isMax ? std::max_element(v.begin(), v.end()) : std::min_element(v.begin(), v.end());
    VertexTester t(popnn::addCodelets, name);
    t.input("activations", valueType, v)
        .input("labels", UNSIGNED_INT, labels)
        .scalarOutput("maxValue", valueType)
        .scalarOutput("maxIndex", UNSIGNED_INT);
    testers.push_back(t);
    wants.push_back({*best, labels[std::size_t(best - v.begin())]});
  }
  auto results = VertexTester::runEach(testers);
  auto device = popsdk::test::testDevice(1);
  std::vector<popnn::test::CycleSample> samples;
  for (std::size_t i = 0; i < kSizes.size(); ++i) {
    EXPECT_EQ(results[i].output("maxValue")[0], wants[i].first) << name;
    EXPECT_EQ(results[i].output("maxIndex")[0], wants[i].second) << name;
    est::VertexCost cost{device.getTarget(), -1, type, type, {unsigned(kSizes[i])}};
    samples.push_back({kSizes[i], results[i].threadCycles, est::estimatorOf(templ)(cost)});
  }
  // Our estimate counts the loop popc generates.
  popnn::test::checkCycles(name, samples, 0.8, 1.25);
}

INSTANTIATE_TEST_SUITE_P(Popnn, ClassVertices,
                         ::testing::Combine(::testing::Bool(),
                                            ::testing::Values(FLOAT, HALF, INT, UNSIGNED_INT)),
                         [](const auto &info) {
                           std::string t = std::get<1>(info.param).toString();
                           std::replace(t.begin(), t.end(), ' ', '_');
                           return std::string(std::get<0>(info.param) ? "Max" : "Min") + "_" + t;
                         });

} // namespace
