// Tutorial 5 (start here): matrix-vector multiply; add the vertices in buildMultiplyProgram
// following the README (step 2). complete/ has the answer.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poputil/TileMapping.hpp>

#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

// Compares the device's result with a host sum of each row (exactly: same order, same type).
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

// Returns a program that sets out = matrix * in.
Program buildMultiplyProgram(Graph &graph, Tensor matrix, Tensor in, Tensor out) {
  ComputeSet mulCS = graph.addComputeSet("mulCS");

  /* TO DO (2): for each row i of the matrix, add a "DotProductVertex" to mulCS connecting "a" to
   * matrix[i], "b" to in and "out" to out[i]; map it to tile i and give it a perf estimate. */

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

  std::cout << "Creating environment (compiling vertex programs)\n";
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();
  Graph graph(target);
  graph.addCodelets("matrix-mul-codelets.cpp");

  std::cout << "Constructing compute graph and control program\n";
  Tensor matrix = graph.addVariable(FLOAT, {numRows, numCols}, "matrix");
  Tensor inputVector = graph.addVariable(FLOAT, {numCols}, "inputVector");
  Tensor outputVector = graph.addVariable(FLOAT, {numRows}, "outputVector");
  poputil::mapTensorLinearly(graph, matrix);
  poputil::mapTensorLinearly(graph, inputVector);
  poputil::mapTensorLinearly(graph, outputVector);

  auto hMatrix = std::vector<float>(numRows * numCols);
  auto hInput = std::vector<float>(numCols);
  auto hOutput = std::vector<float>(numRows);
  for (unsigned col = 0; col < numCols; ++col) {
    hInput[col] = col;
    for (unsigned row = 0; row < numRows; ++row) {
      hMatrix[row * numCols + col] = row * col;
    }
  }

  auto mulProg = buildMultiplyProgram(graph, matrix, inputVector, outputVector);
  auto inStreamV = graph.addHostToDeviceFIFO("inputVector", FLOAT, numCols);
  auto inStreamM = graph.addHostToDeviceFIFO("inputMatrix", FLOAT, numCols * numRows);
  auto outStream = graph.addDeviceToHostFIFO("out", FLOAT, numRows);
  auto prog = Sequence({Copy(inStreamV, inputVector), Copy(inStreamM, matrix), mulProg,
                        Copy(outputVector, outStream)});

  Engine engine(graph, prog);
  engine.load(device);
  engine.connectStream("inputVector", hInput.data());
  engine.connectStream("inputMatrix", hMatrix.data());
  engine.connectStream("out", hOutput.data());

  std::cout << "Running graph program to multiply matrix by vector\n";
  engine.run();

  return checkResult(hMatrix.data(), hInput.data(), hOutput.data(), numRows, numCols);
}
