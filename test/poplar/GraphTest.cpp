// Graph building through the public API: variables, constants, tile mappings, clones, virtual
// graphs, initial values, host handles and FIFOs, checked by running small engines.
#include <poplar/Engine.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

Device smallDevice(unsigned tiles = 4) {
  IPUModel model;
  model.tilesPerIPU = tiles;
  return model.createDevice();
}

/// A fresh host handle name; shared by every runAndRead<T> (a counter inside the template would
/// restart for each T and clash when one graph is read as two types).
std::string nextReadHandle() {
  static unsigned counter = 0;
  return "read" + std::to_string(counter++);
}

/// Reads tensor `t` of `graph` after running `prog` (a read handle is added for it).
template <class T>
std::vector<T> runAndRead(Graph &graph, const Device &device, const Tensor &t,
                          const Program &prog = Sequence()) {
  std::string handle = nextReadHandle();
  graph.createHostRead(handle, t);
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::vector<T> out(t.numElements());
  engine.readTensor(handle, out.data(), out.data() + out.size());
  return out;
}

TileToTensorMapping oneTile(unsigned numTiles, unsigned tile, std::size_t begin, std::size_t end) {
  TileToTensorMapping m(numTiles);
  m[tile].push_back(Interval(begin, end));
  return m;
}

TEST(Graph, AddVariableShapesAndTypes) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {4}, "a");
  Tensor b = graph.addVariable(INT, {2, 3}, "b");
  Tensor c = graph.addVariable(HALF, {}, "c");
  Tensor d = graph.addVariable(BOOL, {0, 5});
  EXPECT_EQ(a.elementType(), FLOAT);
  EXPECT_EQ(a.shape(), (std::vector<std::size_t>{4}));
  EXPECT_EQ(b.elementType(), INT);
  EXPECT_EQ(b.rank(), 2u);
  EXPECT_EQ(b.numElements(), 6u);
  EXPECT_EQ(c.rank(), 0u);
  EXPECT_EQ(c.numElements(), 1u);
  EXPECT_EQ(d.numElements(), 0u);
  EXPECT_EQ(graph.getTarget().getNumTiles(), 4u);
  // Distinct variables never alias.
  EXPECT_FALSE(a.intersectsWith(graph.addVariable(FLOAT, {4})));
}

TEST(Graph, VariablesStartZeroed) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(FLOAT, {3, 2}, "v");
  graph.setTileMapping(v[0], 0);
  graph.setTileMapping(v[1], 1);
  graph.setTileMapping(v[2], 3);
  EXPECT_EQ(runAndRead<float>(graph, device, v), std::vector<float>(6, 0.0f));
}

TEST(Graph, ConstantFromInitializerList) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor c = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  graph.setTileMapping(c, 0);
  EXPECT_EQ(c.elementType(), FLOAT);
  EXPECT_EQ(c.shape(), (std::vector<std::size_t>{4}));
  Tensor v = graph.addVariable(FLOAT, {4}, "v");
  graph.setTileMapping(v, 2);
  EXPECT_EQ(runAndRead<float>(graph, device, v, Copy(c, v)),
            (std::vector<float>{1.0f, 1.5f, 2.0f, 2.5f}));
}

TEST(Graph, ConstantScalarValueFillsTheShape) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor c = graph.addConstant<int>(INT, {2, 3}, 7);
  Tensor s = graph.addConstant(FLOAT, {}, 2.5f);
  graph.setTileMapping(c, 1);
  graph.setTileMapping(s, 1);
  EXPECT_EQ(s.rank(), 0u);
  Tensor v = graph.addVariable(INT, {2, 3});
  Tensor w = graph.addVariable(FLOAT, {});
  graph.setTileMapping(v, 0);
  graph.setTileMapping(w, 0);
  Sequence prog{Copy(c, v), Copy(s, w)};
  EXPECT_EQ(runAndRead<int>(graph, device, v, prog), std::vector<int>(6, 7));
  EXPECT_EQ(runAndRead<float>(graph, device, w, prog), std::vector<float>{2.5f});
}

TEST(Graph, ConstantFromPointerAndConversion) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  const double values[] = {1.0, -2.0, 3.0};
  Tensor c = graph.addConstant<double>(INT, {3}, values); // host doubles become device ints
  graph.setTileMapping(c, 0);
  Tensor v = graph.addVariable(INT, {3});
  graph.setTileMapping(v, 1);
  EXPECT_EQ(runAndRead<int>(graph, device, v, Copy(c, v)), (std::vector<int>{1, -2, 3}));
}

TEST(Graph, HalfConstants) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor fromFloats = graph.addConstant<float>(HALF, {3}, {1.0, 0.5, -2.25});
  Tensor fromBits = graph.addConstantHalf(HALF, {2}, floatToHalf(3.5f));
  graph.setTileMapping(fromFloats, 0);
  graph.setTileMapping(fromBits, 1);
  EXPECT_EQ(fromFloats.elementType(), HALF);
  Tensor v = graph.addVariable(HALF, {5}, "v");
  graph.setTileMapping(v, 2);
  Sequence prog{Copy(fromFloats, v.slice(0, 3)), Copy(fromBits, v.slice(3, 5))};
  auto bits = runAndRead<std::uint16_t>(graph, device, v, prog);
  std::vector<float> out;
  for (auto b : bits)
    out.push_back(halfToFloat(b));
  EXPECT_EQ(out, (std::vector<float>{1.0f, 0.5f, -2.25f, 3.5f, 3.5f}));
}

TEST(Graph, Regression_AddConstantHalfScalarIsABitPattern) {
  // addConstantHalf(type, shape, uint16_t) converted the bits 0x4300 as the number 17152.
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor c = graph.addConstantHalf(HALF, {3}, std::uint16_t(0x4300)); // 3.5
  graph.setTileMapping(c, 1);
  Tensor v = graph.addVariable(HALF, {3});
  graph.setTileMapping(v, 0);
  EXPECT_EQ(runAndRead<std::uint16_t>(graph, device, v, Copy(c, v)),
            std::vector<std::uint16_t>(3, 0x4300));
}

TEST(Graph, ConstantWithTheWrongNumberOfValuesThrows) {
  Graph graph(smallDevice().getTarget());
  EXPECT_THROW(graph.addConstant<float>(FLOAT, {3}, {1.0, 2.0}), poplar_error);
}

TEST(Graph, WholeTensorMappingRoundTrip) {
  Graph graph(smallDevice().getTarget());
  Tensor v = graph.addVariable(FLOAT, {2, 3});
  graph.setTileMapping(v, 3);
  auto m = graph.getTileMapping(v);
  ASSERT_EQ(m.size(), 4u);
  EXPECT_TRUE(m[0].empty());
  EXPECT_TRUE(m[1].empty());
  EXPECT_TRUE(m[2].empty());
  EXPECT_EQ(m[3], (std::vector<Interval>{Interval(0, 6)}));
  // Remapping replaces the old tile.
  graph.setTileMapping(v, 1);
  EXPECT_EQ(graph.getTileMapping(v), oneTile(4, 1, 0, 6));
}

TEST(Graph, PerElementMappingRoundTrip) {
  Graph graph(smallDevice().getTarget());
  Tensor v = graph.addVariable(INT, {2, 2});
  for (unsigned i = 0; i < 2; ++i)
    for (unsigned j = 0; j < 2; ++j)
      graph.setTileMapping(v[i][j], 3 - (i * 2 + j));
  auto m = graph.getTileMapping(v);
  EXPECT_EQ(m[3], (std::vector<Interval>{Interval(0, 1)}));
  EXPECT_EQ(m[2], (std::vector<Interval>{Interval(1, 2)}));
  EXPECT_EQ(m[1], (std::vector<Interval>{Interval(2, 3)}));
  EXPECT_EQ(m[0], (std::vector<Interval>{Interval(3, 4)}));
  // A view's mapping is in the view's own flat order.
  auto row = graph.getTileMapping(v[1]);
  EXPECT_EQ(row[1], (std::vector<Interval>{Interval(0, 1)}));
  EXPECT_EQ(row[0], (std::vector<Interval>{Interval(1, 2)}));
  auto col = graph.getTileMapping(v.transpose()[0]); // elements (0,0) and (1,0)
  EXPECT_EQ(col[3], (std::vector<Interval>{Interval(0, 1)}));
  EXPECT_EQ(col[1], (std::vector<Interval>{Interval(1, 2)}));
  EXPECT_EQ(graph.getTileMapping(v[0][1]), oneTile(4, 2, 0, 1));
}

TEST(Graph, TileToTensorMappingRoundTrip) {
  Graph graph(smallDevice().getTarget());
  Tensor v = graph.addVariable(FLOAT, {8});
  TileToTensorMapping m(4);
  m[0] = {Interval(0, 2)};
  m[2] = {Interval(2, 3), Interval(5, 8)};
  m[3] = {Interval(3, 5)};
  graph.setTileMapping(v, m);
  EXPECT_EQ(graph.getTileMapping(v), m);
  // Mapping a reshaped view uses its flat order, which is the variable's.
  Tensor w = graph.addVariable(FLOAT, {2, 4});
  graph.setTileMapping(w, m);
  EXPECT_EQ(graph.getTileMapping(w.flatten()), m);
  // A shorter mapping list covers the first tiles only.
  Tensor x = graph.addVariable(FLOAT, {3});
  graph.setTileMapping(x, TileToTensorMapping{{Interval(0, 1)}, {Interval(1, 3)}});
  EXPECT_EQ(graph.getTileMapping(x)[1], (std::vector<Interval>{Interval(1, 3)}));
}

TEST(Graph, MappingAViewThroughATranspose) {
  Graph graph(smallDevice().getTarget());
  Tensor v = graph.addVariable(FLOAT, {2, 2});
  graph.setTileMapping(v, 0);
  // Column 1 of v, via the transpose, goes to tile 2: elements 1 and 3 of v.
  graph.setTileMapping(v.transpose()[1], 2);
  auto m = graph.getTileMapping(v);
  EXPECT_EQ(m[0], (std::vector<Interval>{Interval(0, 1), Interval(2, 3)}));
  EXPECT_EQ(m[2], (std::vector<Interval>{Interval(1, 2), Interval(3, 4)}));
}

TEST(Graph, IncompleteMappingIsReported) {
  Graph graph(smallDevice().getTarget());
  Tensor v = graph.addVariable(FLOAT, {4});
  graph.setTileMapping(v.slice(0, 2), 1);
  bool complete = true;
  auto m = graph.getTileMapping(v, &complete);
  EXPECT_FALSE(complete);
  EXPECT_EQ(m[1], (std::vector<Interval>{Interval(0, 2)}));
  EXPECT_THROW(graph.getTileMapping(v), poplar_error);
  EXPECT_THROW(graph.getTileMapping(v, true), poplar_error);
  EXPECT_NO_THROW(graph.getTileMapping(v, false));
  graph.setTileMapping(v.slice(2, 4), 2);
  complete = false;
  graph.getTileMapping(v, &complete);
  EXPECT_TRUE(complete);
}

TEST(Graph, LinearlyMappedVariableSpreadsOverTiles) {
  Graph graph(smallDevice().getTarget());
  Tensor v = graph.addVariable(FLOAT, {8}, VariableMappingMethod::LINEAR, "lin");
  auto m = graph.getTileMapping(v);
  std::size_t total = 0;
  for (unsigned t = 0; t < 4; ++t) {
    EXPECT_FALSE(m[t].empty()) << "tile " << t;
    for (const auto &i : m[t])
      total += i.size();
  }
  EXPECT_EQ(total, 8u);
}

TEST(Graph, CloneKeepsTypeShapeAndMapping) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(FLOAT, {2, 3}, "v");
  TileToTensorMapping m(4);
  m[1] = {Interval(0, 4)};
  m[3] = {Interval(4, 6)};
  graph.setTileMapping(v, m);
  Tensor c = graph.clone(v, "c");
  EXPECT_EQ(c.shape(), v.shape());
  EXPECT_EQ(c.elementType(), FLOAT);
  EXPECT_FALSE(c.intersectsWith(v));
  EXPECT_EQ(graph.getTileMapping(c), m);
  Tensor h = graph.clone(HALF, v, "h");
  EXPECT_EQ(h.elementType(), HALF);
  EXPECT_EQ(graph.getTileMapping(h), m);
  // The clone of a view follows the view's order.
  Tensor t = graph.clone(v.transpose());
  EXPECT_EQ(t.shape(), (std::vector<std::size_t>{3, 2}));
  EXPECT_EQ(graph.getTileMapping(t), graph.getTileMapping(v.transpose()));
}

TEST(Graph, VirtualGraphOffsetsTiles) {
  Device device = smallDevice(8);
  Graph graph(device.getTarget());
  Graph upper = graph.createVirtualGraph(4, 8);
  EXPECT_EQ(upper.getTarget().getNumTiles(), 4u);
  EXPECT_EQ(&upper.getTopLevelGraph(), &graph);
  Tensor v = upper.addVariable(INT, {4}, "v");
  upper.setTileMapping(v.slice(0, 2), 0);
  upper.setTileMapping(v.slice(2, 4), 3);
  // Tile 0 of the virtual graph is tile 4 of the top-level graph.
  auto top = graph.getTileMapping(v);
  ASSERT_EQ(top.size(), 8u);
  EXPECT_EQ(top[4], (std::vector<Interval>{Interval(0, 2)}));
  EXPECT_EQ(top[7], (std::vector<Interval>{Interval(2, 4)}));
  auto local = upper.getTileMapping(v);
  ASSERT_EQ(local.size(), 4u);
  EXPECT_EQ(local[0], (std::vector<Interval>{Interval(0, 2)}));
  EXPECT_EQ(local[3], (std::vector<Interval>{Interval(2, 4)}));
  EXPECT_THROW(upper.setTileMapping(v, 4), poplar_error);
  // A variable mapped below the virtual graph's tiles is not complete there.
  Tensor w = graph.addVariable(INT, {1});
  graph.setTileMapping(w, 0);
  bool complete = true;
  upper.getTileMapping(w, &complete);
  EXPECT_FALSE(complete);
  // Both graphs share variables: one engine over the top level sees them all.
  Tensor c = upper.addConstant<int>(INT, {4}, {1, 2, 3, 4});
  upper.setTileMapping(c, 1);
  EXPECT_EQ(runAndRead<int>(graph, device, v, Copy(c, v)), (std::vector<int>{1, 2, 3, 4}));
}

TEST(Graph, NestedVirtualGraph) {
  Graph graph(smallDevice(8).getTarget());
  Graph mid = graph.createVirtualGraph(2, 8);
  Graph inner = mid.createVirtualGraph(1, 3); // top-level tiles 3 and 4
  EXPECT_EQ(inner.getTarget().getNumTiles(), 2u);
  Tensor v = inner.addVariable(FLOAT, {2});
  inner.setTileMapping(v, 1);
  EXPECT_EQ(graph.getTileMapping(v)[4], (std::vector<Interval>{Interval(0, 2)}));
  EXPECT_EQ(&inner.getTopLevelGraph(), &graph);
  EXPECT_THROW(graph.createVirtualGraph(6, 9), poplar_error);
  EXPECT_THROW(graph.createVirtualGraph(3, 3), poplar_error);
}

TEST(Graph, SetInitialValue) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(FLOAT, {4}, "v");
  graph.setTileMapping(v, 0);
  graph.setInitialValue(v, ArrayRef<float>({1.0f, 2.0f, 3.0f, 4.0f}));
  Tensor w = graph.addVariable(INT, {4}, "w");
  graph.setTileMapping(w.slice(0, 2), 1);
  graph.setTileMapping(w.slice(2, 4), 2);
  graph.setInitialValue(w.slice(1, 3), 9); // a view: the other elements stay zero
  Tensor b = graph.addVariable(BOOL, {2}, "b");
  graph.setTileMapping(b, 3);
  graph.setInitialValue(b.reverse(0), ArrayRef<bool>({true, false}));
  graph.createHostRead("w", w);
  graph.createHostRead("b", b);
  graph.createHostRead("v", v);
  Engine engine(graph, Sequence());
  engine.load(device);
  std::vector<float> hv(4);
  std::vector<int> hw(4);
  bool hb[2] = {};
  engine.readTensor("v", hv.data(), hv.data() + 4);
  engine.readTensor("w", hw.data(), hw.data() + 4);
  engine.readTensor("b", hb, hb + 2);
  EXPECT_EQ(hv, (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(hw, (std::vector<int>{0, 9, 9, 0}));
  EXPECT_FALSE(hb[0]);
  EXPECT_TRUE(hb[1]);
}

TEST(Graph, HostWriteAndReadThroughViews) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(INT, {2, 3}, "v");
  graph.setTileMapping(v[0], 0);
  graph.setTileMapping(v[1], 3);
  graph.createHostWrite("v-write", v);
  graph.createHostRead("vT-read", v.transpose()); // host sees the transposed order
  graph.createHostRead("col-read", v.slice(1, 2, 1));
  Engine engine(graph, Sequence());
  engine.load(device);
  std::vector<int> in{1, 2, 3, 4, 5, 6};
  engine.writeTensor("v-write", in.data(), in.data() + in.size());
  std::vector<int> t(6), col(2);
  engine.readTensor("vT-read", t.data(), t.data() + t.size());
  engine.readTensor("col-read", col.data(), col.data() + col.size());
  EXPECT_EQ(t, (std::vector<int>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(col, (std::vector<int>{2, 5}));
  // The single-pointer forms move the whole tensor too.
  std::vector<int> in2{6, 5, 4, 3, 2, 1};
  engine.writeTensor("v-write", in2.data());
  engine.readTensor("vT-read", t.data());
  EXPECT_EQ(t, (std::vector<int>{6, 3, 5, 2, 4, 1}));
}

TEST(Graph, Fifos) {
  Graph graph(smallDevice().getTarget());
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 10);
  DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 3);
  EXPECT_EQ(in.handle(), "in");
  EXPECT_EQ(in.elementType(), INT);
  EXPECT_EQ(in.numElements(), 10u);
  EXPECT_EQ(out.handle(), "out");
  EXPECT_EQ(out.elementType(), FLOAT);
  EXPECT_EQ(out.numElements(), 3u);
  // Stream and host-handle names share one namespace.
  Tensor v = graph.addVariable(INT, {10});
  EXPECT_THROW(graph.createHostWrite("in", v), poplar_error);
  EXPECT_THROW(graph.addDeviceToHostFIFO("in", INT, 10), poplar_error);
}

TEST(Graph, ComputeSetsAndFunctionsAreCounted) {
  Graph graph(smallDevice().getTarget());
  EXPECT_EQ(graph.getNumComputeSets(), 0u);
  ComputeSet a = graph.addComputeSet("a");
  ComputeSet b = graph.addComputeSet("b");
  EXPECT_NE(a.getId(), b.getId());
  EXPECT_EQ(graph.getNumComputeSets(), 2u);
  EXPECT_EQ(graph.getNumVertices(), 0u);
  Function f = graph.addFunction(Sequence());
  Function g = graph.addFunction(Sequence());
  EXPECT_NE(f.getId(), g.getId());
  EXPECT_EQ(graph.getReplicationFactor(), 1u);
}

TEST(Graph, GraphFromDeviceAndMove) {
  Device device = smallDevice(2);
  Graph graph(device);
  EXPECT_EQ(graph.getTarget().getNumTiles(), 2u);
  Tensor v = graph.addVariable(FLOAT, {2});
  graph.setTileMapping(v, 1);
  Graph moved = std::move(graph);
  EXPECT_EQ(moved.getTileMapping(v)[1], (std::vector<Interval>{Interval(0, 2)}));
}

} // namespace

TEST(Graph, Regression_MappingColumnByColumnGivesRowIntervals) {
  // tut6's original loop order maps a row-major matrix one column segment at a time; the
  // mapping must come out the same as mapping row by row (and stay fast: it once copied the
  // whole interval list on each call).
  Device device = smallDevice();
  Graph graph(device.getTarget());
  const std::size_t rows = 3000, cols = 7;
  Tensor m = graph.addVariable(FLOAT, {rows, cols});
  for (std::size_t c = 0; c < cols; ++c)
    for (std::size_t r = 0; r < rows; ++r)
      graph.setTileMapping(m[r].slice(c, c + 1), unsigned(r % 4));
  auto mapping = graph.getTileMapping(m);
  for (unsigned tile = 0; tile < 4; ++tile) {
    ASSERT_EQ(mapping[tile].size(), rows / 4);
    for (std::size_t k = 0; k < mapping[tile].size(); ++k) {
      std::size_t row = tile + 4 * k;
      EXPECT_EQ(mapping[tile][k], Interval(row * cols, (row + 1) * cols));
    }
  }
}
