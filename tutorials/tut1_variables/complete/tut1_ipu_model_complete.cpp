// Tutorial 1 (complete, IPU model): variables, constants, tile mapping, copies, slices, streams
// and host read/write.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>

using namespace poplar;

int main() {
  // Create the IPU model device: an IPU-like target whose figures a program may change.
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();

  // The graph holds the variables and the code that will run on the device.
  Graph graph(target);

  // Add variables: v1 on tile 0, v2 spread one element per tile.
  Tensor v1 = graph.addVariable(FLOAT, {4}, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {4}, "v2");
  for (unsigned i = 0; i < 4; ++i) {
    graph.setTileMapping(v2[i], i);
  }
  graph.setTileMapping(v1, 0);

  // A 2-D variable mapped to one tile, and an int variable fed from a stream.
  Tensor v3 = graph.addVariable(FLOAT, {4, 4}, "v3");
  Tensor v4 = graph.addVariable(INT, {10}, "v4");
  graph.setTileMapping(v3, 0);
  graph.setTileMapping(v4, 0);

  // A constant: its values are part of the compiled program.
  Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  graph.setTileMapping(c1, 0);

  // The control program: copy the constant into v1, v1 into v2 (an exchange across tiles),
  // then a slice of v1 into a 2-D slice of v3.
  program::Sequence prog;
  prog.add(program::Copy(c1, v1));
  prog.add(program::PrintTensor("v1-debug", v1));
  prog.add(program::Copy(v1, v2));
  prog.add(program::PrintTensor("v2-debug", v2));

  // Host access to v3: written before the run, read after it.
  graph.createHostWrite("v3-write", v3);
  graph.createHostRead("v3-read", v3);
  Tensor v1slice = v1.slice(0, 3);
  Tensor v3slice = v3.slice({1, 1}, {2, 4});
  prog.add(program::Copy(v1slice, v3slice));

  // A stream of ints from the host: each Copy takes the next 10 values of the buffer.
  DataStream inStream = graph.addHostToDeviceFIFO("v4-input-stream", INT, 10);
  prog.add(program::Copy(inStream, v4));
  prog.add(program::PrintTensor("v4-0", v4));
  prog.add(program::Copy(inStream, v4));
  prog.add(program::PrintTensor("v4-1", v4));

  // Compile the graph and program, and load them onto the device.
  Engine engine(graph, prog);
  engine.load(device);

  // Zero v3 from the host before the run.
  std::vector<float> h3(4 * 4, 0);
  engine.writeTensor("v3-write", h3.data(), h3.data() + h3.size());

  // The stream reads a circular buffer of 30 ints.
  std::vector<int> inData(10 * 3);
  for (unsigned i = 0; i < 10 * 3; ++i) {
    inData[i] = i;
  }
  engine.connectStream("v4-input-stream", &inData[0], &inData[10 * 3]);

  std::cout << "Running program\n";
  engine.run(0);
  std::cout << "Program complete\n";

  // Read v3 back and print it.
  engine.readTensor("v3-read", h3.data(), h3.data() + h3.size());
  std::cout << "\nh3 data:\n";
  for (unsigned i = 0; i < 4; ++i) {
    std::cout << "  ";
    for (unsigned j = 0; j < 4; ++j) {
      std::cout << h3[i * 4 + j] << " ";
    }
    std::cout << "\n";
  }
  return 0;
}
