// A custom vertex mixed with PopLibs, compiled once and run from a saved executable.
//
// The codelet is precompiled with popc (codelets.gp). The "compute" program runs the custom
// vertex on every tile that holds the input, then a fused popops expression and a popops
// reduction over rows. The three programs (write, compute, read) are compiled into one
// Executable, saved to a file, loaded back, and run by index.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <cmath>
#include <fstream>
#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  const unsigned rows = 16, cols = 300;
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("codelets.gp");
  popops::addCodelets(graph);

  Tensor x = graph.addVariable(FLOAT, {rows, cols}, "x");
  poputil::mapTensorLinearly(graph, x);
  Tensor y = graph.clone(x, "y");
  Tensor rowSums = graph.addVariable(FLOAT, {rows}, "rowSums");
  poputil::mapTensorLinearly(graph, rowSums);

  DataStream inStream = graph.addHostToDeviceFIFO("x-in", FLOAT, rows * cols);
  DataStream outStream = graph.addDeviceToHostFIFO("sums-out", FLOAT, rows);

  // y = 2x + 1 with the custom vertex, one per tile region of x.
  ComputeSet cs = graph.addComputeSet("scaleShift");
  auto mapping = graph.getTileMapping(x);
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    for (const auto &region : mapping[tile]) {
      VertexRef v = graph.addVertex(cs, "ScaleShift",
                                    {{"in", x.flatten().slice(region)},
                                     {"out", y.flatten().slice(region)}});
      graph.setInitialValue(v["scale"], 2.0f);
      graph.setInitialValue(v["shift"], 1.0f);
      graph.setTileMapping(v, tile);
    }
  }
  Sequence compute;
  compute.add(Execute(cs));
  // z = y * y - x, fused into one generated vertex; then the sum of each row of z.
  namespace pe = popops::expr;
  Tensor z = popops::map(graph, pe::_1 * pe::_1 - pe::_2, {y, x}, compute, "square");
  popops::reduceWithOutput(graph, z, rowSums, {1}, popops::Operation::ADD, compute, "rowSums");

  std::vector<Program> programs = {Copy(inStream, x), compute, Copy(rowSums, outStream)};
  {
    Executable exe = compileGraph(graph, programs);
    std::ofstream file("example.exe", std::ios::binary);
    exe.serialize(file);
  }
  std::ifstream file("example.exe", std::ios::binary);
  Engine engine(Executable::deserialize(file));
  engine.load(device);

  std::vector<float> input(rows * cols), sums(rows);
  for (unsigned i = 0; i < input.size(); ++i)
    input[i] = float(i % 7) * 0.25f - 0.5f;
  engine.connectStream("x-in", input.data());
  engine.connectStream("sums-out", sums.data());
  engine.run(0); // write
  engine.run(1); // compute
  std::cout << "compute program: " << engine.getLastRunCycles() << " cycles\n";
  engine.run(2); // read

  bool ok = true;
  for (unsigned r = 0; r < rows; ++r) {
    double expected = 0;
    for (unsigned c = 0; c < cols; ++c) {
      double v = input[r * cols + c];
      expected += (2 * v + 1) * (2 * v + 1) - v;
    }
    if (std::fabs(sums[r] - expected) > 1e-3 * std::fabs(expected) + 1e-3) {
      std::cout << "row " << r << ": " << sums[r] << ", expected " << expected << "\n";
      ok = false;
    }
  }
  std::cout << "row 0 sum: " << sums[0] << "\n" << (ok ? "Results OK" : "Results WRONG") << "\n";
  return ok ? 0 : 1;
}
