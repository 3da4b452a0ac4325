// Tutorial 3 (start here): the graph and programs are ready; add the compute set of SumVertex
// vertices following the README (complete/ has the answer).
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>

using namespace poplar;
using namespace poplar::program;

int main() {
  // Create the IPU model device
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();

  // Create the Graph object
  Graph graph(target);

  // Add codelets to the graph
  graph.addCodelets("tut3_codelets.cpp");

  // Add variables to the graph
  Tensor v1 = graph.addVariable(FLOAT, {4}, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {4}, "v2");
  for (unsigned i = 0; i < 4; ++i) {
    graph.setTileMapping(v1[i], i);
    graph.setTileMapping(v2[i], i);
  }

  // Create a control program that is a sequence of steps
  Sequence prog;

  // Add a step to initialise v1 from a constant
  Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  graph.setTileMapping(c1, 0);
  prog.add(Copy(c1, v1));

  // Add a compute set
  // TODO: graph.addComputeSet("computeSet")

  // Add vertices to the compute set
  // TODO: for each i in 0..3, a "SumVertex" with "in" connected to v1.slice(i, 4) and "out" to
  // v2[i], mapped to tile i, with a performance estimate of 20 cycles

  // Add a step to execute the compute set
  // TODO: prog.add(Execute(computeSet))

  // Add a step to print out v2
  prog.add(PrintTensor("v2", v2));

  // Create the engine
  Engine engine(graph, prog);
  engine.load(device);

  // Run the control program
  std::cout << "Running program\n";
  engine.run(0);
  std::cout << "Program complete\n";

  return 0;
}
