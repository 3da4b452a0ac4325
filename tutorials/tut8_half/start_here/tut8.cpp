// Tutorial 8 (start here): the host program is complete; write HalfScaleVertex::compute() in
// half-codelets.cpp until "out" shows the input times 2 (see README).
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>

#include <cstdint>
#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

// Prints "name: v0 v1 ..." with the default (6 significant digit) float formatting.
static void print(const char *name, const std::vector<float> &values) {
  std::cout << name << ":";
  for (unsigned i = 0; i < values.size(); ++i)
    std::cout << " " << values[i];
  std::cout << "\n";
}

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();
  Graph graph(target);
  graph.addCodelets("half-codelets.cpp");

  // Values chosen to show half's limits: 0.1 and 1/3 are not exact, 2049 needs 12 significant
  // bits (half has 11), 60000 is near the largest half (65504).
  std::vector<float> hIn = {1.0f, 0.1f, 1.0f / 3, 2049.0f, 60000.0f, 0.0001f};
  const unsigned n = hIn.size();

  // HALF tensors take 2 bytes per element on the device.
  Tensor in = graph.addVariable(HALF, {n}, "in");
  Tensor out = graph.addVariable(HALF, {n}, "out");
  Tensor sum = graph.addVariable(FLOAT, {}, "sum");
  graph.setTileMapping(in, 0);
  graph.setTileMapping(out, 0);
  graph.setTileMapping(sum, 0);

  ComputeSet cs = graph.addComputeSet("scale");
  VertexRef v = graph.addVertex(cs, "HalfScaleVertex", {{"in", in}, {"out", out}, {"sum", sum}});
  graph.setInitialValue(v["scale"], 2.0f);
  graph.setTileMapping(v, 0);

  graph.createHostWrite("in", in);
  graph.createHostRead("out", out);
  graph.createHostRead("sum", sum);

  Engine engine(graph, Execute(cs));
  engine.load(device);

  // The host has no half type: the buffer holds the device's 2-byte values, and
  // copyFloatToDeviceHalf rounds each float to the nearest half into it.
  std::vector<std::uint16_t> deviceHalves(n);
  copyFloatToDeviceHalf(target, hIn.data(), deviceHalves.data(), n);
  engine.writeTensor("in", deviceHalves.data(), deviceHalves.data() + n);

  engine.run(0);

  // And back: read the 2-byte values, then widen them to float (exactly: every half is a float).
  std::vector<float> hRoundTrip(n), hOut(n);
  copyDeviceHalfToFloat(target, deviceHalves.data(), hRoundTrip.data(), n);
  engine.readTensor("out", deviceHalves.data(), deviceHalves.data() + n);
  copyDeviceHalfToFloat(target, deviceHalves.data(), hOut.data(), n);
  float hSum = 0;
  engine.readTensor("sum", &hSum, &hSum + 1);

  print("in (float)", hIn);
  print("in (as half)", hRoundTrip);
  print("out = in * 2 (half)", hOut);
  std::cout << "sum (float) = " << hSum << "\n";
  std::cout << "Program complete\n";
  return 0;
}
