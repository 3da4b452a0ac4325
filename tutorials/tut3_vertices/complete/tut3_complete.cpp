// Tutorial 3 (complete): a custom vertex in a compute set, run over four tiles.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();
  Graph graph(target);

  // The codelet source is compiled by popc when it is added (and cached).
  graph.addCodelets("tut3_codelets.cpp");

  Tensor v1 = graph.addVariable(FLOAT, {4}, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {4}, "v2");
  for (unsigned i = 0; i < 4; ++i) {
    graph.setTileMapping(v1[i], i);
    graph.setTileMapping(v2[i], i);
  }

  Sequence prog;
  Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  graph.setTileMapping(c1, 0);
  prog.add(Copy(c1, v1));

  // One vertex per tile: vertex i sums v1[i..3] into v2[i].
  ComputeSet computeSet = graph.addComputeSet("computeSet");
  for (unsigned i = 0; i < 4; ++i) {
    VertexRef vtx = graph.addVertex(computeSet, "SumVertex");
    graph.connect(vtx["in"], v1.slice(i, 4));
    graph.connect(vtx["out"], v2[i]);
    graph.setTileMapping(vtx, i);
    graph.setPerfEstimate(vtx, 20);
  }
  prog.add(Execute(computeSet));
  prog.add(PrintTensor("v2", v2));

  Engine engine(graph, prog);
  engine.load(device);
  std::cout << "Running program\n";
  engine.run(0);
  std::cout << "Program complete\n";
  return 0;
}
