// popnn's errors: each bad argument throws poputil::poplibs_error (poplar::invalid_option for a
// bad option) naming the API, the argument and the values.
#include "ExpectThrows.hpp"
#include "NnTest.hpp"

#include <poplar/exceptions.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/GroupNorm.hpp>
#include <popnn/LayerNorm.hpp>
#include <popnn/LogSoftmax.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Pooling.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using popnn::NonLinearityType;
using popnn::test::NnHarness;
using popsdk::test::expectThrowsWith;
using Error = poputil::poplibs_error;

Tensor mapped(Graph &graph, Type type, std::vector<std::size_t> shape) {
  Tensor t = graph.addVariable(type, shape, "t");
  poputil::mapTensorLinearly(graph, t);
  return t;
}

TEST(PopnnErrors, NonLinearity) {
  NnHarness h(2);
  Graph &g = h.graph();
  Tensor ints = mapped(g, INT, {4});
  expectThrowsWith<Error>([&] { popnn::nonLinearity(g, NonLinearityType::GELU, ints, h.prog()); },
                          {"popnn::nonLinearity", "t", "int", "float or half"});
  Tensor f = mapped(g, FLOAT, {2, 3});
  ComputeSet cs = g.addComputeSet("cs");
  expectThrowsWith<Error>(
      [&] { popnn::nonLinearityInPlace(g, NonLinearityType::SOFTMAX_STABLE, f, cs); },
      {"popnn::nonLinearityInPlace", "SOFTMAX_STABLE", "Sequence"});
  expectThrowsWith<Error>(
      [&] {
        popnn::nonLinearityInputGradient(g, NonLinearityType::TANH, f, f.transpose(), h.prog());
      },
      {"popnn::nonLinearityInputGradient", "outGradient", "{3,2}", "{2,3}"});
  expectThrowsWith<Error>(
      [&] { popnn::nonLinearity(g, static_cast<NonLinearityType>(42), f, h.prog()); },
      {"popnn::nonLinearity", "unknown NonLinearityType", "42"});
  expectThrowsWith<Error>([&] { popnn::logSoftmax(g, ints, h.prog()); },
                          {"popnn::logSoftmax", "t", "int"});
}

TEST(PopnnErrors, Loss) {
  NnHarness h(2);
  Graph &g = h.graph();
  Tensor out = mapped(g, FLOAT, {4, 5}), loss = mapped(g, FLOAT, {4});
  Tensor deltas = mapped(g, FLOAT, {4, 5}), labels = mapped(g, UNSIGNED_INT, {4});
  expectThrowsWith<Error>(
      [&] {
        popnn::calcLoss(g, out, mapped(g, FLOAT, {4}), loss, deltas, popnn::SUM_SQUARED_LOSS);
      },
      {"popnn::calcLoss", "expected", "float", "class labels"});
  expectThrowsWith<Error>(
      [&] {
        popnn::calcLoss(g, out, labels, loss, mapped(g, FLOAT, {5, 4}), popnn::SUM_SQUARED_LOSS);
      },
      {"popnn::calcLoss", "deltas", "{5,4}", "{4,5}"});
  expectThrowsWith<Error>(
      [&] {
        popnn::calcLoss(g, mapped(g, FLOAT, {4, 5, 1}), labels, loss, deltas,
                        popnn::CROSS_ENTROPY_LOSS);
      },
      {"popnn::calcLoss", "modelOutputs", "rank 3", "rank 2"});
  expectThrowsWith<Error>(
      [&] {
        popnn::calcLoss(g, out, labels, loss, deltas, mapped(g, FLOAT, {2}), mapped(g, FLOAT, {1}),
                        popnn::CROSS_ENTROPY_LOSS);
      },
      {"popnn::calcLoss", "deltasScale", "2 elements"});
  expectThrowsWith<Error>([&] { popnn::calcAccuracy(g, out, labels, mapped(g, FLOAT, {1})); },
                          {"popnn::calcAccuracy", "numCorrect", "float", "unsigned int"});
  expectThrowsWith<Error>([&] { popnn::argMax(g, mapped(g, FLOAT, {7}), h.prog()); },
                          {"popnn::argMax", "input", "{7}", "rank 2"});
  expectThrowsWith<Error>(
      [&] {
        popnn::argMin(g, mapped(g, BOOL, {2, 2}), h.prog());
      },
      {"popnn::argMin", "input", "bool"});
  Tensor indices;
  expectThrowsWith<Error>([&] { popnn::topK(g, out, indices, 6, true, h.prog()); },
                          {"popnn::topK", "K = 6", "5 columns"});
}

TEST(PopnnErrors, Pooling) {
  NnHarness h(2);
  Graph &g = h.graph();
  popnn::pooling::PoolParams p(popnn::PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 3,
                               2, FLOAT);
  expectThrowsWith<Error>(
      [&] {
        popnn::pooling::pool(g, p, mapped(g, FLOAT, {2, 3, 4, 5}), h.prog());
      },
      {"popnn::pooling::pool", "in", "{2,3,4,5}", "{2,3,4,4}"});
  auto tooBig = p;
  tooBig.kernelShape = {5, 2};
  expectThrowsWith<Error>(
      [&] {
        popnn::pooling::pool(g, tooBig, mapped(g, FLOAT, {2, 3, 4, 4}), h.prog());
      },
      {"popnn::pooling::pool", "field dimension 0", "kernel 5"});
  auto ragged = p;
  ragged.stride = {1};
  expectThrowsWith<Error>(
      [&] {
        popnn::pooling::pool(g, ragged, mapped(g, FLOAT, {2, 3, 4, 4}), h.prog());
      },
      {"popnn::pooling::pool", "2 entries"});
  expectThrowsWith<poplar::invalid_option>(
      [&] {
        popnn::pooling::pool(g, p, mapped(g, FLOAT, {2, 3, 4, 4}), h.prog(), {},
                             {{"poolUseIntrospectiveMapping", "maybe"}});
      },
      {"popnn::pooling::pool", "poolUseIntrospectiveMapping", "maybe"});
  expectThrowsWith<Error>(
      [&] {
        popnn::pooling::poolInputGradient(g, p, 1, mapped(g, FLOAT, {2, 3, 2, 2}), h.prog());
      },
      {"popnn::pooling::poolInputGradient", "MAX"});
}

TEST(PopnnErrors, Norms) {
  NnHarness h(2);
  Graph &g = h.graph();
  Tensor acts = mapped(g, FLOAT, {2, 4, 3});
  expectThrowsWith<Error>(
      [&] { popnn::gn::groupNormStatistics(g, acts, 1e-5f, h.prog(), 3, false); },
      {"popnn::gn::groupNormStatistics", "numGroups = 3", "4 channels"});
  expectThrowsWith<Error>(
      [&] { popnn::bn::batchNormStatistics(g, mapped(g, FLOAT, {6}), 1e-5f, h.prog(), false); },
      {"popnn::bn::batchNormStatistics", "acts", "rank 1"});
  expectThrowsWith<Error>(
      [&] {
        popnn::bn::batchNormStatistics(g, mapped(g, INT, {2, 4}), 1e-5f, h.prog(), false);
      },
      {"popnn::bn::batchNormStatistics", "acts", "int"});
  expectThrowsWith<Error>(
      [&] {
        popnn::bn::batchNormWhiten(g, acts, mapped(g, FLOAT, {3}), mapped(g, FLOAT, {4}), h.prog());
      },
      {"popnn::bn::batchNormWhiten", "mean", "{3}", "need 4"});
  expectThrowsWith<Error>(
      [&] {
        popnn::ln::layerNormalise(g, acts, mapped(g, FLOAT, {3}), mapped(g, FLOAT, {4}),
                                  mapped(g, FLOAT, {2}), mapped(g, FLOAT, {2}), h.prog());
      },
      {"popnn::ln::layerNormalise", "gamma", "{3}", "{4}"});
  expectThrowsWith<Error>(
      [&] {
        popnn::bn::batchNormStatistics(g, mapped(g, FLOAT, {1, 4}), 1e-5f, h.prog(), true);
      },
      {"popnn::bn::batchNormStatistics", "covers 1 elements", "unbiased"});
  expectThrowsWith<poplar::invalid_option>(
      [&] {
        popnn::bn::batchNormStatistics(g, acts, 1e-5f, h.prog(), false, false, FLOAT, {},
                                       {{"noSuchOption", "1"}});
      },
      {"popnn::bn::batchNormStatistics", "noSuchOption"});
  Tensor gamma = mapped(g, FLOAT, {4}), beta = mapped(g, FLOAT, {4});
  expectThrowsWith<Error>(
      [&] {
        popnn::bn::batchNormParamUpdate(g, mapped(g, FLOAT, {5}), mapped(g, FLOAT, {4}), 0.1f,
                                        gamma, beta, h.prog());
      },
      {"popnn::bn::batchNormParamUpdate", "gammaDelta", "{5}", "{4}"});
}

} // namespace
