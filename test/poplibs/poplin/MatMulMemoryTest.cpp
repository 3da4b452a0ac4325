// poplin matmul temporaries under tile memory reuse: the copy buffers of its compute sets are
// not always-live, and two matmuls in sequence share them (tiles hold less than the parts).
#include "compiler/Compile.hpp"
#include "compiler/Liveness.hpp"

#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>

#include <gtest/gtest.h>

using namespace poplar;

namespace {

TEST(MatMulMemory, FieldCopyBuffersAreNotAlwaysLiveAndShare) {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  program::Sequence prog;
  Tensor a = poplin::createMatMulInputLHS(graph, FLOAT, {64, 96}, {96, 80}, "a");
  Tensor b = poplin::createMatMulInputRHS(graph, FLOAT, {64, 96}, {96, 80}, "b");
  Tensor c = poplin::matMul(graph, a, b, prog, FLOAT, "c");
  Tensor e = poplin::createMatMulInputRHS(graph, FLOAT, {64, 80}, {80, 48}, "e");
  Tensor d = poplin::matMul(graph, c, e, prog, FLOAT, "d");
  graph.createHostWrite("a", a);
  graph.createHostWrite("b", b);
  graph.createHostWrite("e", e);
  graph.createHostRead("d", d);

  auto live = detail::analyseLiveness(graph.getState(), {prog});
  for (bool always : live.computeSetAlwaysLive)
    EXPECT_FALSE(always);
  auto cg = detail::compile(graph.getState(), {prog});
  std::uint64_t fieldData = 0, shared = 0, region = 0;
  for (const auto &t : cg->profile.tileMemory) {
    fieldData += t.bytes[unsigned(detail::MemoryCategory::vertexFieldData)];
    shared += t.sharedBytes;
    region += t.notAlwaysLive;
    EXPECT_LE(t.notAlwaysLive, t.sharedBytes);
    EXPECT_EQ(t.excludingGaps(), t.alwaysLive() + t.notAlwaysLive);
  }
  ASSERT_GT(fieldData, 0u) << "the plan no longer copies operands into buffers";
  EXPECT_GE(shared, fieldData); // every field buffer is in a shared region
  EXPECT_LT(region, shared);    // and the two matmuls' ones share addresses
}

} // namespace
