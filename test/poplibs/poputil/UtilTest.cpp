// poputil's graph helpers: duplicate, cloneN, broadcasting and vertex names.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poputil/Broadcast.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

using namespace poplar;
using namespace poplar::program;

Device smallDevice() {
  IPUModel model("ipu2");
  model.tilesPerIPU = 4;
  return model.createDevice();
}

TEST(PoputilUtil, DuplicateCopiesIntoATensorLaidOutLikeTheSource) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor in = graph.addVariable(FLOAT, {2, 3}, "in");
  graph.setTileMapping(in[0], 1);
  graph.setTileMapping(in[1], 3);
  Sequence prog;
  Tensor out = poputil::duplicate(graph, in, prog);
  EXPECT_EQ(graph.getTileMapping(out), graph.getTileMapping(in));
  graph.createHostWrite("in", in);
  graph.createHostRead("out", out);
  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> values = {1, 2, 3, 4, 5, 6}, result(6);
  engine.writeTensor("in", values.data(), values.data() + 6);
  engine.run(0);
  engine.readTensor("out", result.data(), result.data() + 6);
  EXPECT_EQ(result, values);
}

TEST(PoputilUtil, CloneNStacksClonesInANewOuterDimension) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor t = graph.addVariable(HALF, {5});
  graph.setTileMapping(t, 2);
  Tensor n = poputil::cloneN(graph, t, 3);
  EXPECT_EQ(n.shape(), (std::vector<std::size_t>{3, 5}));
  EXPECT_EQ(n.elementType(), HALF);
  for (unsigned i = 0; i < 3; ++i)
    EXPECT_EQ(graph.getTileMapping(n[i]), graph.getTileMapping(t));
  EXPECT_FALSE(n[0].intersectsWith(n[1]));
  EXPECT_EQ(poputil::cloneN(graph, t, 0).shape(), (std::vector<std::size_t>{0, 5}));
}

TEST(PoputilBroadcast, NumpyRulesAndErrors) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {3, 1});
  Tensor b = graph.addVariable(FLOAT, {4});
  poputil::broadcastToMatch(a, b);
  EXPECT_EQ(a.shape(), (std::vector<std::size_t>{3, 4}));
  EXPECT_EQ(b.shape(), (std::vector<std::size_t>{3, 4}));
  Tensor c = graph.addVariable(FLOAT, {2, 3});
  EXPECT_FALSE(poputil::canBroadcastToMatch(c, b));
  try {
    poputil::broadcastToMatch(c, b);
    ADD_FAILURE() << "expected poplibs_error";
  } catch (const poputil::poplibs_error &e) {
    EXPECT_NE(std::string(e.what()).find("{2,3}"), std::string::npos) << e.what();
  }
}

TEST(PoputilBroadcast, BroadcastOperandLivesWhereItsSlicesAre) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor full = graph.addVariable(FLOAT, {6, 4});
  // Column j of `full` lives mostly on tile j (row 5 on tile 0).
  for (unsigned j = 0; j < 4; ++j)
    graph.setTileMapping(full.slice(0, 5, 0).slice(j, j + 1, 1), j);
  graph.setTileMapping(full[5], 0);
  Tensor bias = poputil::createBroadcastOperand(graph, full, HALF, 1);
  EXPECT_EQ(bias.shape(), (std::vector<std::size_t>{4}));
  EXPECT_EQ(bias.elementType(), HALF);
  for (unsigned j = 0; j < 4; ++j)
    EXPECT_EQ(graph.getTileMapping(bias[j])[j].size(), 1u) << j;
  EXPECT_THROW(poputil::createBroadcastOperand(graph, full, FLOAT, 2), poputil::poplibs_error);
}

TEST(PoputilVertexTemplates, NamesAsPopcPrintsThem) {
  EXPECT_EQ(poputil::templateVertex("popops::ScaledAdd2D", HALF, FLOAT, true, 3u),
            "popops::ScaledAdd2D<half,float,true,3>");
  EXPECT_EQ(poputil::templateVertex("popops::Cast1D", UNSIGNED_INT, BOOL),
            "popops::Cast1D<unsigned int,bool>");
}

} // namespace
