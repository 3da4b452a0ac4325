// Tutorial 4, starting point: three matrices on the tiles. Extend it to compute
// ((m1 * m2) * m3) with poplin::matMul, print the profile summary, and write a profile with
// POPLAR_ENGINE_OPTIONS (README.md).
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();

  Graph graph(target);
  popops::addCodelets(graph);
  poplin::addCodelets(graph);

  Tensor m1 = graph.addVariable(FLOAT, {900, 600}, "m1");
  Tensor m2 = graph.addVariable(FLOAT, {600, 300}, "m2");
  Tensor m3 = graph.addVariable(FLOAT, {300, 200}, "m3");
  poputil::mapTensorLinearly(graph, m1);
  poputil::mapTensorLinearly(graph, m2);
  poputil::mapTensorLinearly(graph, m3);

  Sequence prog;
  // TODO: add the products here.

  Engine engine(graph, prog);
  engine.load(device);
  std::cout << "Running program\n";
  engine.run(0);
  std::cout << "Program complete\n";
  return 0;
}
