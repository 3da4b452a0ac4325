// Tutorial 5 (complete, hardware path): as tut5_complete.cpp, on an IPU found through the
// DeviceManager (here a simulated full-size IPU that attaches like real hardware).
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

// Compares the device's result with a host sum of each row. The host accumulates in float in
// the order the vertex does, so the results must be equal, not just close.
int checkResult(float *matrix, float *input, float *output, unsigned numRows, unsigned numCols) {
  for (unsigned row = 0; row < numRows; ++row) {
    float sum = 0;
    for (unsigned col = 0; col < numCols; ++col) {
      sum += matrix[row * numCols + col] * input[col];
    }
    if (output[row] != sum) {
      std::cout << "ERROR: output " << row << ": expected=" << sum << ", actual=" << output[row]
                << "\n";
      return 1;
    }
  }
  std::cout << "Multiplication result OK\n";
  return 0;
}

// Returns a program that sets out = matrix * in: one compute set holding a vertex per row.
Program buildMultiplyProgram(Graph &graph, Tensor matrix, Tensor in, Tensor out) {
  // A compute set is a group of vertices that run in parallel, in one BSP step.
  ComputeSet mulCS = graph.addComputeSet("mulCS");

  // Vertex i takes row i of the matrix and the whole input vector and writes element i of the
  // output. Connections are given as {field, tensor} pairs.
  auto numRows = matrix.dim(0);
  for (unsigned i = 0; i < numRows; ++i) {
    auto v =
        graph.addVertex(mulCS, "DotProductVertex", {{"a", matrix[i]}, {"b", in}, {"out", out[i]}});
    // Vertex i runs on tile i. Its inputs live wherever mapTensorLinearly put them: what is not
    // on tile i is exchanged to it before the compute set runs.
    graph.setTileMapping(v, i);
  }

  // A program that runs the compute set.
  return Execute(mulCS);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " numRows numCols\n";
    return 1;
  }

  unsigned numRows = std::atoi(argv[1]);
  unsigned numCols = std::atoi(argv[2]);
  std::cout << "Multiplying matrix of size " << numRows << "x" << numCols << " by vector of size "
            << numCols << "\n";

  // Ask the device manager for single IPUs and attach to the first one that is free.
  auto manager = DeviceManager::createDeviceManager();
  auto devices = manager.getDevices(poplar::TargetType::IPU, 1);
  std::cout << "Trying to attach to IPU\n";
  auto it =
      std::find_if(devices.begin(), devices.end(), [](Device &device) { return device.attach(); });
  if (it == devices.end()) {
    std::cerr << "Error attaching to device\n";
    return 1;
  }
  auto device = std::move(*it);
  std::cout << "Attached to IPU " << device.getId() << std::endl;
  Target target = device.getTarget();

  std::cout << "Creating environment (compiling vertex programs)\n";
  Graph graph(target);
  graph.addCodelets("matrix-mul-codelets.cpp");

  std::cout << "Constructing compute graph and control program\n";

  // The device-side tensors, each spread evenly over the tiles.
  Tensor matrix = graph.addVariable(FLOAT, {numRows, numCols}, "matrix");
  Tensor inputVector = graph.addVariable(FLOAT, {numCols}, "inputVector");
  Tensor outputVector = graph.addVariable(FLOAT, {numRows}, "outputVector");
  poputil::mapTensorLinearly(graph, matrix);
  poputil::mapTensorLinearly(graph, inputVector);
  poputil::mapTensorLinearly(graph, outputVector);

  // Host buffers with sample data: input[col] = col and matrix[row][col] = row * col.
  auto hMatrix = std::vector<float>(numRows * numCols);
  auto hInput = std::vector<float>(numCols);
  auto hOutput = std::vector<float>(numRows);
  for (unsigned col = 0; col < numCols; ++col) {
    hInput[col] = col;
    for (unsigned row = 0; row < numRows; ++row) {
      hMatrix[row * numCols + col] = row * col;
    }
  }

  // The multiply, and the streams that carry the data in and out.
  auto mulProg = buildMultiplyProgram(graph, matrix, inputVector, outputVector);
  auto inStreamV = graph.addHostToDeviceFIFO("inputVector", FLOAT, numCols);
  auto inStreamM = graph.addHostToDeviceFIFO("inputMatrix", FLOAT, numCols * numRows);
  auto outStream = graph.addDeviceToHostFIFO("out", FLOAT, numRows);

  // The whole program: copy the inputs in, multiply, copy the result out.
  auto prog = Sequence({Copy(inStreamV, inputVector), Copy(inStreamM, matrix), mulProg,
                        Copy(outputVector, outStream)});

  Engine engine(graph, prog);
  engine.load(device);
  // Each stream reads (or writes) the same host buffer on every copy.
  engine.connectStream("inputVector", hInput.data());
  engine.connectStream("inputMatrix", hMatrix.data());
  engine.connectStream("out", hOutput.data());

  std::cout << "Running graph program to multiply matrix by vector\n";
  engine.run();

  return checkResult(hMatrix.data(), hInput.data(), hOutput.data(), numRows, numCols);
}
