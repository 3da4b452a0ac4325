// popnn's normalisations (bn, gn contiguous and strided, ln, in) against the host reference:
// statistics (biased, unbiased, stable), whitening and normalising, parameter updates, and the
// gradients (both forms of each) against central differences of the reference layer, on four
// tiles; batch norm in half as well.
#include "FiniteDifference.hpp"
#include "NnNorms.hpp"
#include "NnTest.hpp"

#include <popnn/BatchNorm.hpp>
#include <popnn/GroupNorm.hpp>
#include <popnn/InstanceNorm.hpp>
#include <popnn/LayerNorm.hpp>

#include <gtest/gtest.h>

#include <functional>

namespace {

using namespace poplar;
using namespace poplar::program;
using popnn::test::expectClose;
using popnn::test::NnHarness;
using popsdk::test::hostData;
namespace ref = popsdk::reference;

using TensorPair = std::pair<Tensor, Tensor>;

/// One normalisation's public functions behind one interface, and its reference grouping.
struct NormUnderTest {
  std::string name;
  ref::NormGrouping grouping;
  std::function<TensorPair(Graph &, const Tensor &, float, Sequence &, bool, bool, const Type &)>
      statistics;
  std::function<Tensor(Graph &, const Tensor &, const Tensor &, const Tensor &, Sequence &)> whiten;
  std::function<TensorPair(Graph &, const Tensor &, const Tensor &, const Tensor &, const Tensor &,
                           const Tensor &, Sequence &)>
      normalise;
  std::function<Tensor(Graph &, const Tensor &, const Tensor &, const Tensor &, const Tensor &,
                       const Tensor &, Sequence &)>
      gradients;
  std::function<Tensor(Graph &, const Tensor &, const Tensor &, const Tensor &, const Tensor &,
                       Sequence &)>
      gradientsWhitened;
  std::function<TensorPair(Graph &, const Tensor &, const Tensor &, const Tensor &, const Tensor &,
                           Sequence &)>
      paramGradients;
  std::function<TensorPair(Graph &, const Tensor &, const Tensor &, Sequence &)>
      paramGradientsWhitened;
  std::function<void(Graph &, const Tensor &, const Tensor &, float, Tensor &, Tensor &,
                     Sequence &)>
      paramUpdate;
  std::function<void(Graph &, const Tensor &, const Tensor &, const Tensor &, Tensor &, Tensor &,
                     Sequence &)>
      paramUpdateTensor;
};

// The same lambdas for every namespace; statsArgs are the extra statistics arguments.
#define NORM_UNDER_TEST(label, grouping, ns, prefix, options, ...)                                 \
  NormUnderTest {                                                                                  \
    label, grouping,                                                                               \
        [=](Graph &g, const Tensor &a, float eps, Sequence &p, bool unbiased, bool stable,         \
            const Type &pt) {                                                                      \
          return ns::prefix##Statistics(g, a, eps, p, __VA_ARGS__ unbiased, stable, pt, {},        \
                                        options);                                                  \
        },                                                                                         \
        [=](Graph &g, const Tensor &a, const Tensor &m, const Tensor &s, Sequence &p) {            \
          return ns::prefix##Whiten(g, a, m, s, p, {}, options);                                   \
        },                                                                                         \
        [=](Graph &g, const Tensor &a, const Tensor &ga, const Tensor &be, const Tensor &m,        \
            const Tensor &s,                                                                       \
            Sequence &p) { return ns::prefix##alise(g, a, ga, be, m, s, p, {}, options); },        \
        [=](Graph &g, const Tensor &a, const Tensor &d, const Tensor &m, const Tensor &s,          \
            const Tensor &ga, Sequence &p) {                                                       \
          return ns::prefix##Gradients(g, a, d, m, s, ga, p, FLOAT, {}, options);                  \
        },                                                                                         \
        [=](Graph &g, const Tensor &w, const Tensor &d, const Tensor &s, const Tensor &ga,         \
            Sequence &p) { return ns::prefix##Gradients(g, w, d, s, ga, p, FLOAT, {}, options); }, \
        [=](Graph &g, const Tensor &a, const Tensor &d, const Tensor &m, const Tensor &s,          \
            Sequence &p) {                                                                         \
          return ns::prefix##ParamGradients(g, a, d, m, s, p, FLOAT, {}, options);                 \
        },                                                                                         \
        [=](Graph &g, const Tensor &w, const Tensor &d, Sequence &p) {                             \
          return ns::prefix##ParamGradients(g, w, d, p, FLOAT, {}, options);                       \
        },                                                                                         \
        [=](Graph &g, const Tensor &gd, const Tensor &bd, float sc, Tensor &ga, Tensor &be,        \
            Sequence &p) { ns::prefix##ParamUpdate(g, gd, bd, sc, ga, be, p, {}, options); },      \
        [=](Graph &g, const Tensor &gd, const Tensor &bd, const Tensor &sc, Tensor &ga,            \
            Tensor &be,                                                                            \
            Sequence &p) { ns::prefix##ParamUpdate(g, gd, bd, sc, ga, be, p, {}, options); }       \
  }

const OptionFlags kNone;
const OptionFlags kStrided{{"groupNormStridedChannelGrouping", "true"}};

std::vector<NormUnderTest> norms() {
  return {
      NORM_UNDER_TEST("bn", (ref::NormGrouping{true, 1, false}), popnn::bn, batchNorm, kNone, ),
      NORM_UNDER_TEST("gn", (ref::NormGrouping{false, 2, false}), popnn::gn, groupNorm, kNone,
                      2u, ),
      NORM_UNDER_TEST("gnStrided", (ref::NormGrouping{false, 2, true}), popnn::gn, groupNorm,
                      kStrided, 2u, ),
      NORM_UNDER_TEST("ln", (ref::NormGrouping{false, 1, false}), popnn::ln, layerNorm, kNone, ),
      NORM_UNDER_TEST("in", (ref::NormGrouping{false, 4, false}), popnn::in, instanceNorm, kNone, ),
  };
}

const ref::NormShape kShape{3, 4, 6};
const std::vector<std::size_t> kActsShape = {3, 4, 2, 3};
const double kEps = 1e-3;

std::vector<double> concatValues(const std::vector<double> &a, const std::vector<double> &b) {
  auto out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

class PopnnNorms : public ::testing::TestWithParam<NormUnderTest> {};

/// Statistics in every variant, whitening and normalising.
TEST_P(PopnnNorms, ForwardMatchesReference) {
  const auto &n = GetParam();
  auto x = hostData(FLOAT, 72, -2, 3, 41);
  auto gamma = hostData(FLOAT, 4, 0.5, 2, 42), beta = hostData(FLOAT, 4, -1, 1, 43);
  NnHarness h(4);
  Tensor acts = h.input("acts", FLOAT, kActsShape, x);
  Tensor ga = h.input("gamma", FLOAT, {4}, gamma), be = h.input("beta", FLOAT, {4}, beta);
  for (bool unbiased : {false, true}) {
    for (bool stable : {false, true}) {
      auto [m, s] = n.statistics(h.graph(), acts, kEps, h.prog(), unbiased, stable, FLOAT);
      std::string k = std::to_string(unbiased) + std::to_string(stable);
      h.output("mean" + k, m);
      h.output("istd" + k, s);
      if (!unbiased && !stable) {
        h.output("whiten", n.whiten(h.graph(), acts, m, s, h.prog()));
        auto [out, whitened] = n.normalise(h.graph(), acts, ga, be, m, s, h.prog());
        h.output("out", out);
        h.output("whitened", whitened);
      }
    }
  }
  h.run();
  for (bool unbiased : {false, true}) {
    auto [mean, istd] = ref::normStatistics(n.grouping, kShape, x, kEps, unbiased);
    for (bool stable : {false, true}) {
      std::string k = std::to_string(unbiased) + std::to_string(stable);
      expectClose(h.result("mean" + k), mean, 1e-5, n.name + " mean " + k);
      expectClose(h.result("istd" + k), istd, 1e-4, n.name + " invStdDev " + k);
    }
  }
  auto [mean, istd] = ref::normStatistics(n.grouping, kShape, x, kEps, false);
  auto whitened = ref::normWhiten(n.grouping, kShape, x, mean, istd);
  expectClose(h.result("whiten"), whitened, 1e-4, n.name + " whiten");
  expectClose(h.result("whitened"), whitened, 1e-4, n.name + " whitened");
  expectClose(h.result("out"), ref::normAffine(kShape, whitened, gamma, beta), 1e-4, n.name);
}

/// Both forms of the input and parameter gradients against central differences of the whole
/// reference layer (statistics included).
TEST_P(PopnnNorms, GradientsMatchFiniteDifferences) {
  const auto &n = GetParam();
  auto x = hostData(FLOAT, 72, -2, 3, 51);
  auto d = hostData(FLOAT, 72, -1, 1, 52);
  auto gamma = hostData(FLOAT, 4, 0.5, 2, 53), beta = hostData(FLOAT, 4, -1, 1, 54);
  NnHarness h(4);
  Tensor acts = h.input("acts", FLOAT, kActsShape, x);
  Tensor grads = h.input("grads", FLOAT, kActsShape, d);
  Tensor ga = h.input("gamma", FLOAT, {4}, gamma), be = h.input("beta", FLOAT, {4}, beta);
  auto [m, s] = n.statistics(h.graph(), acts, kEps, h.prog(), false, false, FLOAT);
  auto [out, whitened] = n.normalise(h.graph(), acts, ga, be, m, s, h.prog());
  h.output("dx", n.gradients(h.graph(), acts, grads, m, s, ga, h.prog()));
  h.output("dxW", n.gradientsWhitened(h.graph(), whitened, grads, s, ga, h.prog()));
  auto [dg, db] = n.paramGradients(h.graph(), acts, grads, m, s, h.prog());
  auto [dgW, dbW] = n.paramGradientsWhitened(h.graph(), whitened, grads, h.prog());
  h.output("dg", dg);
  h.output("db", db);
  h.output("dgW", dgW);
  h.output("dbW", dbW);
  h.run();
  auto wantDx = ref::vectorJacobianProduct(
      [&](const std::vector<double> &v) {
        return ref::normLayer(n.grouping, kShape, v, gamma, beta, kEps);
      },
      x, d, 1e-4);
  auto wantParams = ref::vectorJacobianProduct(
      [&](const std::vector<double> &p) {
        std::vector<double> g(p.begin(), p.begin() + 4), b(p.begin() + 4, p.end());
        return ref::normLayer(n.grouping, kShape, x, g, b, kEps);
      },
      concatValues(gamma, beta), d, 1e-4);
  expectClose(h.result("dx"), wantDx, 2e-3, n.name + " gradients");
  expectClose(h.result("dxW"), wantDx, 2e-3, n.name + " gradients from whitened");
  auto got = concatValues(h.result("dg"), h.result("db"));
  auto gotW = concatValues(h.result("dgW"), h.result("dbW"));
  expectClose(got, wantParams, 1e-3, n.name + " param gradients");
  expectClose(gotW, wantParams, 1e-3, n.name + " param gradients from whitened");
}

TEST_P(PopnnNorms, ParamUpdateSubtractsScaledDeltas) {
  const auto &n = GetParam();
  auto gamma = hostData(FLOAT, 4, 0.5, 2, 61), beta = hostData(FLOAT, 4, -1, 1, 62);
  auto dg = hostData(FLOAT, 4, -1, 1, 63), db = hostData(FLOAT, 4, -1, 1, 64);
  NnHarness h(2);
  Tensor ga = h.input("gamma", FLOAT, {4}, gamma), be = h.input("beta", FLOAT, {4}, beta);
  Tensor ga2 = h.input("gamma2", FLOAT, {4}, gamma), be2 = h.input("beta2", FLOAT, {4}, beta);
  Tensor gd = h.input("dg", FLOAT, {4}, dg), bd = h.input("db", FLOAT, {4}, db);
  Tensor scale = h.input("scale", FLOAT, {}, {0.5});
  n.paramUpdate(h.graph(), gd, bd, 0.25f, ga, be, h.prog());
  n.paramUpdateTensor(h.graph(), gd, bd, scale, ga2, be2, h.prog());
  h.output("0", ga);
  h.output("1", be);
  h.output("2", ga2);
  h.output("3", be2);
  h.run();
  auto update = [](std::vector<double> p, const std::vector<double> &d, double s) {
    for (std::size_t i = 0; i < p.size(); ++i)
      p[i] -= s * d[i];
    return p;
  };
  expectClose(h.result("0"), update(gamma, dg, 0.25), 1e-6, n.name + " gamma");
  expectClose(h.result("1"), update(beta, db, 0.25), 1e-6, n.name + " beta");
  expectClose(h.result("2"), update(gamma, dg, 0.5), 1e-6, n.name + " gamma (tensor scale)");
  expectClose(h.result("3"), update(beta, db, 0.5), 1e-6, n.name + " beta (tensor scale)");
}

INSTANTIATE_TEST_SUITE_P(EveryNorm, PopnnNorms, ::testing::ValuesIn(norms()),
                         [](const auto &info) { return info.param.name; });

TEST(PopnnBatchNorm, HalfForwardAndFoldedNormalise) {
  auto x = hostData(HALF, 72, -2, 3, 71);
  auto gamma = hostData(HALF, 4, 0.5, 2, 72), beta = hostData(HALF, 4, -1, 1, 73);
  NnHarness h(4);
  Tensor acts = h.input("acts", HALF, kActsShape, x);
  Tensor ga = h.input("gamma", HALF, {4}, gamma), be = h.input("beta", HALF, {4}, beta);
  auto [m, s] = popnn::bn::batchNormStatistics(h.graph(), acts, kEps, h.prog(), false);
  auto [out, whitened] = popnn::bn::batchNormalise(h.graph(), acts, ga, be, m, s, h.prog());
  h.output("mean", m);
  h.output("out", out);
  h.output("folded", popnn::bn::batchNormalise(h.graph(), acts, ga, be, h.prog()));
  h.run();
  auto [mean, istd] = ref::normStatistics({true, 1, false}, kShape, x, kEps, false);
  expectClose(h.result("mean"), mean, 1e-2, "half mean");
  expectClose(h.result("out"), ref::normLayer({true, 1, false}, kShape, x, gamma, beta, kEps), 3e-2,
              "half batchNormalise");
  expectClose(h.result("folded"), ref::normAffine(kShape, x, gamma, beta), 1e-2,
              "half batchNormalise(combinedMultiplicand, addend)");
}

} // namespace
