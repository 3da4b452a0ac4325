// Tutorial 1 (complete, hardware path): as the model version, but on an IPU found through the
// DeviceManager (here a simulated full-size IPU that attaches like real hardware).
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>

#include <algorithm>
#include <iostream>

using namespace poplar;

int main() {
  // Ask the device manager for single IPUs and attach to the first one that is free.
  auto manager = DeviceManager::createDeviceManager();
  auto devices = manager.getDevices(poplar::TargetType::IPU, 1);
  std::cout << "Trying to attach to IPU\n";
  auto it = std::find_if(devices.begin(), devices.end(),
                         [](Device &device) { return device.attach(); });
  if (it == devices.end()) {
    std::cerr << "Error attaching to device\n";
    return 1;
  }
  auto device = std::move(*it);
  std::cout << "Attached to IPU " << device.getId() << std::endl;
  Target target = device.getTarget();

  Graph graph(target);
  Tensor v1 = graph.addVariable(FLOAT, {4}, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {4}, "v2");
  for (unsigned i = 0; i < 4; ++i) {
    graph.setTileMapping(v2[i], i);
  }
  graph.setTileMapping(v1, 0);
  Tensor v3 = graph.addVariable(FLOAT, {4, 4}, "v3");
  Tensor v4 = graph.addVariable(INT, {10}, "v4");
  graph.setTileMapping(v3, 0);
  graph.setTileMapping(v4, 0);
  Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  graph.setTileMapping(c1, 0);

  program::Sequence prog;
  prog.add(program::Copy(c1, v1));
  prog.add(program::PrintTensor("v1-debug", v1));
  prog.add(program::Copy(v1, v2));
  prog.add(program::PrintTensor("v2-debug", v2));
  graph.createHostWrite("v3-write", v3);
  graph.createHostRead("v3-read", v3);
  prog.add(program::Copy(v1.slice(0, 3), v3.slice({1, 1}, {2, 4})));
  DataStream inStream = graph.addHostToDeviceFIFO("v4-input-stream", INT, 10);
  prog.add(program::Copy(inStream, v4));
  prog.add(program::PrintTensor("v4-0", v4));
  prog.add(program::Copy(inStream, v4));
  prog.add(program::PrintTensor("v4-1", v4));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> h3(4 * 4, 0);
  engine.writeTensor("v3-write", h3.data(), h3.data() + h3.size());
  std::vector<int> inData(10 * 3);
  for (unsigned i = 0; i < 10 * 3; ++i) {
    inData[i] = i;
  }
  engine.connectStream("v4-input-stream", &inData[0], &inData[10 * 3]);

  std::cout << "Running program\n";
  engine.run(0);
  std::cout << "Program complete\n";

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
