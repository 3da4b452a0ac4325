// Tutorial 7 (complete): a MultiVertex, whose compute(workerId) runs in all six worker contexts
// of a tile at once, against a Vertex doing the same work (y = a * x + y) in one context.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

// Adds to `cs` one vertex of type `vertexType` per tile, each on that tile's part of x and y.
void addAxpyVertices(Graph &graph, ComputeSet cs, const char *vertexType, Tensor x, Tensor y,
                     unsigned numTiles, float a) {
  const unsigned perTile = x.numElements() / numTiles;
  for (unsigned tile = 0; tile < numTiles; ++tile) {
    Tensor xs = x.slice(tile * perTile, (tile + 1) * perTile);
    Tensor ys = y.slice(tile * perTile, (tile + 1) * perTile);
    VertexRef v = graph.addVertex(cs, vertexType, {{"x", xs}, {"y", ys}});
    // The scalar member `a` is part of the vertex's state, fixed when the graph is built.
    graph.setInitialValue(v["a"], a);
    graph.setTileMapping(v, tile);
  }
}

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("multivertex-codelets.cpp");

  // x[i] = i and y = 1, 600 elements of each on each of two tiles.
  const unsigned numTiles = 2, perTile = 600, n = numTiles * perTile;
  std::vector<float> hx(n), hy(n);
  for (unsigned i = 0; i < n; ++i)
    hx[i] = float(i);
  Tensor x = graph.addConstant<float>(FLOAT, {n}, hx.data(), "x");
  Tensor y0 = graph.addConstant<float>(FLOAT, {n}, 1.0f, "y0");
  Tensor y = graph.addVariable(FLOAT, {n}, "y");
  for (unsigned tile = 0; tile < numTiles; ++tile) {
    graph.setTileMapping(x.slice(tile * perTile, (tile + 1) * perTile), tile);
    graph.setTileMapping(y0.slice(tile * perTile, (tile + 1) * perTile), tile);
    graph.setTileMapping(y.slice(tile * perTile, (tile + 1) * perTile), tile);
  }
  graph.createHostRead("y", y);

  // Two compute sets doing the same update: one Vertex per tile, then one MultiVertex per tile.
  ComputeSet single = graph.addComputeSet("axpyVertex");
  addAxpyVertices(graph, single, "AxpyVertex", x, y, numTiles, 2.0f);
  ComputeSet multi = graph.addComputeSet("axpyMultiVertex");
  addAxpyVertices(graph, multi, "AxpyMultiVertex", x, y, numTiles, 2.0f);

  // y = 1, then y = 2x + y twice: y[i] = 4i + 1.
  Sequence prog({Copy(y0, y), Execute(single), Execute(multi)});

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  engine.readTensor("y", hy.data(), hy.data() + n);

  for (unsigned i = 0; i < n; ++i) {
    if (hy[i] != 4.0f * i + 1) {
      std::cout << "ERROR: y[" << i << "] = " << hy[i] << ", expected " << 4.0f * i + 1 << "\n";
      return 1;
    }
  }
  std::cout << "y[0..5] = " << hy[0] << " " << hy[1] << " " << hy[2] << " " << hy[3] << " " << hy[4]
            << " " << hy[5] << "\n";
  std::cout << "Program complete\n";

  // The execution steps show the cycles of each compute set: with six workers sharing the
  // vector, axpyMultiVertex takes about a sixth of the cycles of axpyVertex.
  engine.printProfileSummary(std::cout, OptionFlags{{"showExecutionSteps", "true"}});
  return 0;
}
