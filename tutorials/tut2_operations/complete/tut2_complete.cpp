// Tutorial 2 (complete): PopLibs operations. popops::add builds the vertices and compute set
// of an element-wise addition, on whatever tiles its operands live; a transposed view is added
// as it is, without a copy in the program.
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  // A simulated ipu2 and a graph for it.
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();
  Graph graph(target);

  // PopLibs' vertices must be added to a graph before its functions are used.
  popops::addCodelets(graph);

  // Two 2x2 variables; each element of v1 on a tile of its own, v2 all on tile 4.
  Tensor v1 = graph.addVariable(FLOAT, {2, 2}, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {2, 2}, "v2");
  for (unsigned i = 0; i < 2; ++i) {
    for (unsigned j = 0; j < 2; ++j) {
      graph.setTileMapping(v1[i][j], i * 2 + j);
      graph.setTileMapping(v2[i][j], 4);
    }
  }

  // Constants that initialise the variables.
  Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  Tensor c2 = graph.addConstant<float>(FLOAT, {4}, {4.0, 3.0, 2.0, 1.0});
  graph.setTileMapping(c1, 0);
  graph.setTileMapping(c2, 4);

  Sequence prog;
  prog.add(Copy(c1, v1.flatten()));
  prog.add(Copy(c2, v2.flatten()));

  // v3 = v1 + v2: a new tensor, laid out like v1.
  Tensor v3 = popops::add(graph, v1, v2, prog, "Add");
  prog.add(PrintTensor("v3", v3));

  // v4 = v3 + v2.
  Tensor v4 = popops::add(graph, v3, v2, prog, "Add");
  prog.add(PrintTensor("v4", v4));

  // v5 = v1 + transpose(v2): the operand is a view of v2, not a copy.
  Tensor v5 = popops::add(graph, v1, v2.transpose(), prog, "Add");
  prog.add(PrintTensor("v5", v5));

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);

  std::cout << "Program complete\n";
  return 0;
}
