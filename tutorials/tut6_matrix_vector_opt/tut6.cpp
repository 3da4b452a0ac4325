// Tutorial 6: an optimised matrix-vector multiply. Each row is cut into colsAxisSplit column
// segments whose dot products run in parallel all over the IPU, then a second compute set adds
// each row's partial sums. The split is chosen with a cycle estimate from the target's figures.
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <string>

using namespace poplar;
using namespace poplar::program;

// Integer division rounding up.
static unsigned ceilDiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

// The estimated cycles of the two phases of the multiply, each as compute plus exchange.
struct SplitCost {
  unsigned compute;        // the dot products on the busiest tile
  unsigned exchange;       // bringing input-vector segments to that tile
  unsigned reduceExchange; // bringing a row's partial sums to its reducing tile
  unsigned reduceCompute;  // the reductions on the busiest tile
  unsigned total() const { return compute + exchange + reduceExchange + reduceCompute; }
};

// Estimates the multiply's cycles when each row is cut into `split` segments. Only three
// figures of the target matter: tiles, worker contexts per tile and exchange bytes per cycle.
static SplitCost estimateCycles(const Graph &graph, unsigned numRows, unsigned numCols,
                                unsigned split) {
  const auto &target = graph.getTarget();
  const unsigned numTiles = target.getNumTiles();
  const unsigned numWorkers = target.getNumWorkerContexts();
  const unsigned exchangeBytesPerCycle = target.getExchangeBytesPerCycle();
  SplitCost cost;

  // numRows * split dot products, spread evenly: the busiest tile gets this many.
  const unsigned dotsPerTile = std::max(ceilDiv(numRows * split, numTiles), 1u);
  // A segment is at most this many columns; its dot product costs 5 cycles of overhead plus
  // one cycle per 2 multiply-adds (the estimate each vertex is given below).
  const unsigned segmentCols = ceilDiv(numCols, split);
  const unsigned cyclesPerDot = 5 + (segmentCols + 1) / 2;
  // The tile's workers take vertices numWorkers at a time, and each round costs numWorkers
  // cycles per vertex cycle (the workers share the pipeline in turn).
  cost.compute = ceilDiv(dotsPerTile, numWorkers) * numWorkers * cyclesPerDot;
  // Tiles are filled a segment at a time (every row of segment 0, then of segment 1, ...), so
  // the busiest tile needs ceil(dotsPerTile / numRows) segments of the input vector.
  cost.exchange =
      ceilDiv(dotsPerTile, numRows) * segmentCols * sizeof(float) / exchangeBytesPerCycle;

  // Then one reduction per row, spread the same way, each adding `split` partial sums that it
  // first receives.
  const unsigned reducesPerTile = std::max(ceilDiv(numRows, numTiles), 1u);
  cost.reduceCompute = ceilDiv(reducesPerTile, numWorkers) * numWorkers * (5 + (split + 1) / 2);
  cost.reduceExchange = reducesPerTile * split * sizeof(float) / exchangeBytesPerCycle;
  return cost;
}

static void printCost(unsigned split, const SplitCost &cost) {
  std::cout << "colsAxisSplit=" << split << ", total cost=" << cost.total()
            << " (compute cost=" << cost.compute << ", exchange cost=" << cost.exchange
            << ", reduce exchange cost=" << cost.reduceExchange
            << ", reduce compute cost=" << cost.reduceCompute << ")\n";
}

// Tries every split from 1 to numCols - 1 and returns the cheapest (the smallest on a tie).
static unsigned chooseColsAxisSplit(const Graph &graph, unsigned numRows, unsigned numCols) {
  unsigned best = 1;
  unsigned bestCost = std::numeric_limits<unsigned>::max();
  unsigned worstCost = 0;
  for (unsigned split = 1; split < std::max(numCols, 2u); ++split) {
    const unsigned cost = estimateCycles(graph, numRows, numCols, split).total();
    if (cost < bestCost) {
      best = split;
      bestCost = cost;
    }
    worstCost = std::max(worstCost, cost);
  }
  std::cout << "Best split chosen:\n";
  printCost(best, estimateCycles(graph, numRows, numCols, best));
  std::cout << "Worst cost seen: " << worstCost << "\n";
  return best;
}

// Returns a program that sets out = matrix * in, in two compute sets: partial dot products,
// then their sums.
static Program buildMultiplyProgram(Graph &graph, Tensor matrix, Tensor in, Tensor out) {
  const unsigned numRows = matrix.dim(0);
  const unsigned numCols = matrix.dim(1);
  const unsigned split = chooseColsAxisSplit(graph, numRows, numCols);
  const std::size_t numTiles = graph.getTarget().getNumTiles();

  // partials[row][s] is the dot product of segment s of the row.
  Tensor partials = graph.addVariable(FLOAT, {numRows, split}, "partials");

  // Every tile reads some of the input vector, so no tile is the right home for it: spread it
  // over all of them to balance memory.
  for (unsigned col = 0; col < numCols; ++col)
    graph.setTileMapping(in[col], col * numTiles / numCols);

  ComputeSet mulCS = graph.addComputeSet("mulCS");
  // Rows outer, segments inner: the matrix and the partial sums are then mapped in element
  // order, the cheapest order in which to build a mapping.
  for (unsigned row = 0; row < numRows; ++row) {
    for (unsigned s = 0; s < split; ++s) {
      // Segment s is columns [beginCol, endCol): the split need not divide numCols.
      const unsigned beginCol = std::size_t(s) * numCols / split;
      const unsigned endCol = std::size_t(s + 1) * numCols / split;
      auto v = graph.addVertex(mulCS, "DotProductVertex",
                               {{"a", matrix[row].slice(beginCol, endCol)},
                                {"b", in.slice(beginCol, endCol)},
                                {"out", partials[row][s]}});
      // Number the vertices segment by segment (s * numRows + row) and spread them evenly over
      // the tiles: a tile holds consecutive rows of one segment, so it needs one segment of
      // the input vector (two where segments meet). Its piece of the matrix and its output
      // live on the same tile, so only that input segment has to be exchanged.
      const unsigned tile =
          (std::size_t(s) * numRows + row) * numTiles / (std::size_t(split) * numRows);
      graph.setTileMapping(v, tile);
      graph.setTileMapping(matrix[row].slice(beginCol, endCol), tile);
      graph.setTileMapping(partials[row][s], tile);
      // 5 cycles to start, then 2 multiply-adds per cycle.
      graph.setPerfEstimate(v, 5 + ((endCol - beginCol) + 1) / 2);
    }
  }

  ComputeSet reduceCS = graph.addComputeSet("reduceCS");
  for (unsigned row = 0; row < numRows; ++row) {
    auto v = graph.addVertex(reduceCS, "ReduceVertex", {{"in", partials[row]}, {"out", out[row]}});
    // Rows spread evenly over the tiles; the result stays where it is computed.
    const unsigned tile = std::size_t(row) * numTiles / numRows;
    graph.setTileMapping(v, tile);
    graph.setTileMapping(out[row], tile);
    // 5 cycles to start, then 2 additions per cycle.
    graph.setPerfEstimate(v, 5 + (partials[row].numElements() + 1) / 2);
  }

  return Sequence({Execute(mulCS), Execute(reduceCS)});
}

// Compares with a host sum per row, allowing a relative error of 1e-5 (the device adds the
// segments in a different order).
static int checkResult(const float *matrix, const float *input, const float *output,
                       unsigned numRows, unsigned numCols) {
  for (unsigned row = 0; row < numRows; ++row) {
    float sum = 0;
    for (unsigned col = 0; col < numCols; ++col)
      sum += matrix[std::size_t(row) * numCols + col] * input[col];
    if (std::fabs(output[row] - sum) > 1e-5 * std::fabs(sum)) {
      std::cout << "ERROR: output " << row << ": expected=" << sum << ", actual=" << output[row]
                << "\n";
      return 1;
    }
  }
  std::cout << "Multiplication result OK\n";
  return 0;
}

static void usage(const char *program) {
  std::cerr << "usage: " << program << " numRows numCols [--device {model-ipu1,model-ipu2,ipu}]\n";
}

// Reads "numRows numCols [--device name]" in any order; prints what is wrong and returns false
// on bad arguments.
static bool parseArgs(int argc, char **argv, unsigned &numRows, unsigned &numCols,
                      const char *&device) {
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--device") == 0) {
      if (++i == argc) {
        printf("Missing argument following --device\n");
        return false;
      }
      device = argv[i];
      if (strcmp(device, "ipu") != 0 && strcmp(device, "model-ipu1") != 0 &&
          strcmp(device, "model-ipu2") != 0) {
        printf("Unrecognised device %s\n", device);
        return false;
      }
    } else if (numRows == 0 || numCols == 0) {
      const int value = atoi(argv[i]);
      if (value <= 0) {
        printf("Malformed %s argument\n", numRows == 0 ? "numRows" : "numCols");
        return false;
      }
      (numRows == 0 ? numRows : numCols) = value;
    } else {
      printf("Unexpected argument %s\n", argv[i]);
      return false;
    }
  }
  if (numRows == 0 || numCols == 0) {
    printf("Missing rows/cols arguments\n");
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  unsigned numRows = 0, numCols = 0;
  const char *dev = "model-ipu2";
  if (!parseArgs(argc, argv, numRows, numCols, dev)) {
    printf("Failed to parse arguments\n");
    usage(argv[0]);
    return 1;
  }
  printf("Device %s\n", dev);
  std::cout << "Multiplying matrix of size " << numRows << "x" << numCols << " by vector of size "
            << numCols << "\n";
  std::cout << "Constructing compute graph and control program\n";

  // A default Device is empty; one is moved into it below.
  Device device;
  if (strcmp(dev, "ipu") == 0) {
    // Attach to the first free single IPU the device manager offers.
    auto manager = DeviceManager::createDeviceManager();
    auto devices = manager.getDevices(poplar::TargetType::IPU, 1);
    std::cout << "Trying to attach to IPU\n";
    auto it = std::find_if(devices.begin(), devices.end(), [](Device &d) { return d.attach(); });
    if (it == devices.end()) {
      std::cerr << "Error attaching to device\n";
      return 1;
    }
    device = std::move(*it);
    std::cout << "Attached to IPU " << device.getId() << std::endl;
  } else {
    // "model-ipu2" -> IPUModel("ipu2"), with the simplest sync model: no extra delays.
    char ipuVersion[] = "ipuN";
    strncpy(ipuVersion, dev + strlen("model-"), strlen(ipuVersion));
    IPUModel ipuModel(ipuVersion);
    ipuModel.minIPUSyncDelay = 0;
    ipuModel.relativeSyncDelay = IPUModel::RelativeSyncDelayType::NO_DELAY;
    device = ipuModel.createDevice();
  }

  Graph graph(device);
  graph.addCodelets("matrix-mul-codelets.cpp");

  Tensor matrix = graph.addVariable(FLOAT, {numRows, numCols}, "matrix");
  Tensor inputVector = graph.addVariable(FLOAT, {numCols}, "inputVector");
  Tensor outputVector = graph.addVariable(FLOAT, {numRows}, "outputVector");

  // Sample data: input[col] = col and matrix[row][col] = row * col.
  std::vector<float> hMatrix(std::size_t(numRows) * numCols);
  std::vector<float> hInput(numCols);
  std::vector<float> hOutput(numRows);
  for (unsigned col = 0; col < numCols; ++col) {
    hInput[col] = col;
    for (unsigned row = 0; row < numRows; ++row)
      hMatrix[std::size_t(row) * numCols + col] = float(row) * col;
  }

  // The multiply maps the tensors as it builds its vertices.
  Program mulProg = buildMultiplyProgram(graph, matrix, inputVector, outputVector);

  DataStream inStreamV = graph.addHostToDeviceFIFO("inputVector", FLOAT, numCols);
  DataStream inStreamM = graph.addHostToDeviceFIFO("inputMatrix", FLOAT, numCols * numRows);
  DataStream outStream = graph.addDeviceToHostFIFO("out", FLOAT, numRows);

  // autoReport.all writes the profile (profile.pop) to the working directory.
  OptionFlags engineOpts{{"autoReport.all", "true"}};
  Engine engine(graph,
                Sequence({Copy(inStreamV, inputVector), Copy(inStreamM, matrix), mulProg,
                          Copy(outputVector, outStream)}),
                engineOpts);
  engine.load(device);
  engine.connectStream("inputVector", hInput.data());
  engine.connectStream("inputMatrix", hMatrix.data());
  engine.connectStream("out", hOutput.data());

  std::cout << "Running graph program to multiply matrix by vector\n";
  engine.run();

  if (checkResult(hMatrix.data(), hInput.data(), hOutput.data(), numRows, numCols) != 0)
    return 1;

  // The simulated cycles, step by step.
  engine.printProfileSummary(std::cout, OptionFlags{{"showExecutionSteps", "true"}});
  return 0;
}
