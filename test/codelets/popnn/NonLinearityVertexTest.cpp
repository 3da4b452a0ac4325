// Every NonLinearity vertex (1-D, 1-D in place, 2-D, 2-D in place, the two gradients) for each
// non-linearity and float/half: outputs against the host reference over growing sizes, cycles
// against popnn's estimate.
#include "CycleEstimators.hpp"
#include "NnActivations.hpp"
#include "VertexCycles.hpp"

#include <popnn/NonLinearityDefUtil.hpp>
#include <popnn/codelets.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace poplar;
using popnn::NonLinearityType;
using popsdk::test::hostData;
using popsdk::test::RunResult;
using popsdk::test::VertexTester;
namespace ref = popsdk::reference;
namespace est = popnn::internal;

const std::vector<NonLinearityType> kTypes = {
    NonLinearityType::SIGMOID, NonLinearityType::HARD_SIGMOID, NonLinearityType::RELU,
    NonLinearityType::TANH,    NonLinearityType::GELU,         NonLinearityType::GELU_ERF,
    NonLinearityType::SWISH};
const std::vector<std::size_t> kSizes = {1, 3, 8, 61, 480};

std::string vertexName(const std::string &templ, Type type, NonLinearityType nl) {
  return poputil::templateVertex("popnn::" + templ, type, nl);
}

/// 2-D vertices get three regions of uneven sizes (or one for tiny n).
std::vector<std::size_t> regionsOf(std::size_t n) {
  if (n < 3)
    return {n};
  return {n / 2, n / 3, n - n / 2 - n / 3};
}

std::vector<std::vector<double>> split(const std::vector<double> &v,
                                       const std::vector<std::size_t> &sizes) {
  std::vector<std::vector<double>> out;
  std::size_t at = 0;
  for (auto s : sizes) {
    out.emplace_back(v.begin() + at, v.begin() + at + s);
    at += s;
  }
  return out;
}

void expectNear(const std::vector<double> &got, const std::vector<double> &want, Type type,
                const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double tol = type == HALF ? 1e-2 : 2e-5;
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], tol * (std::fabs(want[i]) + 0.1)) << what << "[" << i << "]";
}

enum class Form { OneD, OneDInPlace, TwoD, TwoDInPlace, Grad1D, Grad2D };

std::string templateOf(Form f) {
  switch (f) {
  case Form::OneD:
    return "NonLinearity1D";
  case Form::OneDInPlace:
    return "NonLinearity1DInPlace";
  case Form::TwoD:
    return "NonLinearity2D";
  case Form::TwoDInPlace:
    return "NonLinearity2DInPlace";
  case Form::Grad1D:
    return "NonLinearityGrad1D";
  default:
    return "NonLinearityGrad2D";
  }
}

void runForm(Form form, Type type, NonLinearityType nl) {
  const std::string templ = templateOf(form);
  const std::string name = vertexName(templ, type, nl);
  const bool twoD = form == Form::TwoD || form == Form::TwoDInPlace || form == Form::Grad2D;
  const bool grad = form == Form::Grad1D || form == Form::Grad2D;
  std::vector<VertexTester> testers;
  std::vector<std::vector<double>> wants;
  for (auto n : kSizes) {
    auto x = hostData(type, n, -4, 4, unsigned(n));
    for (auto &v : x)
      v += 1.0 / 128;
    auto g = hostData(type, n, -1, 1, unsigned(n) + 7);
    auto regions = twoD ? regionsOf(n) : std::vector<std::size_t>{n};
    VertexTester t(popnn::addCodelets, name);
    if (grad) {
      auto act = ref::gradientActivations(nl, x, 1);
      for (auto &a : act)
        a = popsdk::test::roundTo(type, a);
      // The derivative at the activation the vertex reads, from the reference forward.
      auto fd = ref::finiteDifferenceGradient(nl, x, g, 1);
      if (twoD)
        t.inputList("outGrad", type, split(g, regions))
            .inputList("out", type, split(act, regions))
            .outputList("inGrad", type, regions);
      else
        t.input("outGrad", type, g).input("out", type, act).output("inGrad", type, n);
      wants.push_back(fd);
    } else {
      if (form == Form::OneD)
        t.input("data", type, x).output("out", type, n);
      else if (form == Form::OneDInPlace)
        t.inout("data", type, x);
      else if (form == Form::TwoD)
        t.inputList("data", type, split(x, regions)).outputList("out", type, regions);
      else
        t.inoutList("data", type, split(x, regions));
      wants.push_back(ref::nonLinearity(nl, x, 1));
    }
    testers.push_back(t);
  }
  auto results = VertexTester::runEach(testers);
  std::vector<popnn::test::CycleSample> samples;
  auto device = popsdk::test::testDevice(1);
  const std::string field = grad                                         ? "inGrad"
                            : (form == Form::OneD || form == Form::TwoD) ? "out"
                                                                         : "data";
  for (std::size_t i = 0; i < kSizes.size(); ++i) {
    auto regions = twoD ? regionsOf(kSizes[i]) : std::vector<std::size_t>{kSizes[i]};
    std::vector<unsigned> r(regions.begin(), regions.end());
    expectNear(results[i].output(field), wants[i], type, name + " n=" + std::to_string(kSizes[i]));
    est::VertexCost cost{device.getTarget(), int(nl), type, type, r};
    samples.push_back({kSizes[i], twoD ? results[i].threadCycles : results[i].tileCycles,
                       est::estimatorOf(templ)(cost)});
  }
  // Bounds: PopLibs' assembly handles a natural vector (2 floats, 4 halves) per bundle; popc's
  // C++ loops one element at a time in about 5 to 20 instructions, halves through float with
  // 2-cycle loads and stores, so it is never faster and at most 14x (float) or 35x (half)
  // slower (docs/popnn.md, "Cycles").
  if (type == HALF)
    popnn::test::checkCycles(name, samples, 5, 35);
  else
    popnn::test::checkCycles(name, samples, 1, 14);
}

class NonLinearityVertices
    : public ::testing::TestWithParam<std::tuple<Form, Type, NonLinearityType>> {};

TEST_P(NonLinearityVertices, MatchReferenceAndEstimate) {
  auto [form, type, nl] = GetParam();
  runForm(form, type, nl);
}

INSTANTIATE_TEST_SUITE_P(
    Popnn, NonLinearityVertices,
    ::testing::Combine(::testing::Values(Form::OneD, Form::OneDInPlace, Form::TwoD,
                                         Form::TwoDInPlace, Form::Grad1D, Form::Grad2D),
                       ::testing::Values(FLOAT, HALF), ::testing::ValuesIn(kTypes)),
    [](const auto &info) {
      return templateOf(std::get<0>(info.param)) + "_" + std::get<1>(info.param).toString() + "_" +
             popnn::asString(std::get<2>(info.param));
    });

} // namespace
