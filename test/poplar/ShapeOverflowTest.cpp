// Shapes whose element count or byte size does not fit in a size_t are refused with
// overflow_error naming the API and the shape; once they wrapped to a small number (a
// {2^40, 2^40} variable had 0 elements and the Engine built).
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include "ExpectThrows.hpp"

#include <gtest/gtest.h>

#include <functional>

using namespace poplar;

namespace {

const std::size_t kBig = std::size_t(1) << 40;

Graph smallGraph() {
  IPUModel model;
  model.tilesPerIPU = 4;
  return Graph(model.createDevice().getTarget());
}

/// f() throws overflow_error whose message holds every one of `parts`.
void expectOverflow(const std::function<void()> &f, const std::vector<std::string> &parts) {
  popsdk::test::expectThrowsWith<overflow_error>(f, parts);
}

} // namespace

TEST(ShapeOverflow, Regression_VariableElementCount) {
  Graph graph = smallGraph();
  expectOverflow(
      [&] {
        graph.addVariable(FLOAT, {kBig, kBig}, "huge");
      },
      {"Graph::addVariable", "{1099511627776,1099511627776}", "elements"});
  // Wrapping to exactly zero or to a small number is caught alike.
  expectOverflow(
      [&] {
        graph.addVariable(INT, {std::size_t(1) << 63, 2, 3});
      },
      {"Graph::addVariable", "{9223372036854775808,2,3}"});
  // Nothing was added: the graph still works.
  Tensor t = graph.addVariable(FLOAT, {2, 3});
  EXPECT_EQ(t.numElements(), 6u);
  // A zero dimension makes an empty tensor, however large the others.
  EXPECT_EQ(graph.addVariable(FLOAT, {0, kBig, kBig}).numElements(), 0u);
}

TEST(ShapeOverflow, Regression_VariableByteSize) {
  Graph graph = smallGraph();
  // 2^62 elements fit in a size_t; 2^62 floats of 4 bytes do not.
  expectOverflow([&] { graph.addVariable(FLOAT, {std::size_t(1) << 62}); },
                 {"Graph::addVariable", "{4611686018427387904}", "4-byte", "bytes"});
}

TEST(ShapeOverflow, Regression_ConstantShape) {
  Graph graph = smallGraph();
  expectOverflow(
      [&] {
        graph.addConstant(FLOAT, {kBig, kBig}, 1.0f);
      },
      {"Graph::addConstant", "{1099511627776,1099511627776}"});
  std::vector<float> values(4);
  expectOverflow(
      [&] {
        graph.addConstant<float>(FLOAT, {kBig, kBig}, values);
      },
      {"Graph::addConstant", "{1099511627776,1099511627776}"});
}

TEST(ShapeOverflow, ReshapeToAnOverflowingShape) {
  Graph graph = smallGraph();
  Tensor t = graph.addVariable(FLOAT, {4});
  expectOverflow(
      [&] {
        t.reshape({kBig, kBig});
      },
      {"Tensor::reshape", "{1099511627776,1099511627776}"});
  expectOverflow([&] { t.reshapePartial(0, 1, {kBig, kBig, 4}); }, {"Tensor::reshapePartial"});
}
