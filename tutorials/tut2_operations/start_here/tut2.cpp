// Tutorial 2 (start here): the set-up of tut2_complete.cpp without the operations. Add
// popops::add calls after the copies and print their results with PrintTensor.
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();
  Graph graph(target);

  // Add codelets to the graph.
  popops::addCodelets(graph);

  Tensor v1 = graph.addVariable(FLOAT, {2, 2}, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {2, 2}, "v2");
  for (unsigned i = 0; i < 2; ++i) {
    for (unsigned j = 0; j < 2; ++j) {
      graph.setTileMapping(v1[i][j], i * 2 + j);
      graph.setTileMapping(v2[i][j], 4);
    }
  }

  Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  Tensor c2 = graph.addConstant<float>(FLOAT, {4}, {4.0, 3.0, 2.0, 1.0});
  graph.setTileMapping(c1, 0);
  graph.setTileMapping(c2, 4);

  Sequence prog;
  prog.add(Copy(c1, v1.flatten()));
  prog.add(Copy(c2, v2.flatten()));

  // Add the operations here.

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);

  std::cout << "Program complete\n";
  return 0;
}
