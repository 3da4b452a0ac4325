// Logistic regression on Fashion-MNIST trained on a simulated IPU, in the style of Graphcore's
// Poplar MNIST regression demo: y = softmax(x.W + b), cross-entropy loss and SGD, with the
// images and labels streamed from the host and a Repeat on the device over the batches.
#include "mnist.hpp"

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/EncodingConstants.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned numClasses = 10;

struct Options {
  unsigned trainImages = 60000; // images of the training set to use (at most 60,000)
  unsigned testImages = 10000;  // images of the test set to evaluate (at most 10,000)
  unsigned epochs = 1;
  unsigned batchSize = 16;
  unsigned batchesPerStep = 250; // batches per Engine::run: accuracy is printed after each
  float learningRate = 0.5f;     // decays linearly to 0 over the run
  unsigned tiles = 0;            // IPU model tiles; 0 keeps the ipu2 model's 1472
  bool hardware = false;         // attach to the (simulated) IPU hardware instead of a model
  std::string dataDir = "/usr/share/datasets/fashion-mnist";
  float minAccuracy = 0; // exit 1 if the test accuracy (percent) is below this
};

void usage(const char *argv0) {
  std::cerr << "usage: " << argv0
            << " [--train-images N] [--test-images N] [--epochs N] [--batch-size N]\n"
               "       [--batches-per-step N] [--learning-rate LR] [--tiles N | --ipu]\n"
               "       [--data-dir DIR] [--min-accuracy PERCENT]\n";
}

Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--ipu") {
      o.hardware = true;
      continue;
    }
    if (i + 1 == argc)
      throw std::invalid_argument("missing value after " + arg);
    const std::string value = argv[++i];
    if (arg == "--data-dir")
      o.dataDir = value;
    else if (arg == "--learning-rate")
      o.learningRate = std::stof(value);
    else if (arg == "--min-accuracy")
      o.minAccuracy = std::stof(value);
    else {
      const unsigned long n = std::stoul(value);
      if (arg == "--train-images")
        o.trainImages = n;
      else if (arg == "--test-images")
        o.testImages = n;
      else if (arg == "--epochs")
        o.epochs = n;
      else if (arg == "--batch-size")
        o.batchSize = n;
      else if (arg == "--batches-per-step")
        o.batchesPerStep = n;
      else if (arg == "--tiles")
        o.tiles = n;
      else
        throw std::invalid_argument("unknown option " + arg);
    }
  }
  if (o.trainImages == 0 || o.testImages == 0 || o.batchSize == 0 || o.batchesPerStep == 0 ||
      o.epochs == 0)
    throw std::invalid_argument("image counts, --epochs, --batch-size and --batches-per-step "
                                "must be positive");
  return o;
}

// Pads a set to whole batches with blank images whose label is MASKED_LABEL_CODE: calcLoss
// gives such rows zero loss and zero deltas and never counts them correct, so the last batch
// can be partial without a second program of another shape.
void padToBatches(MnistSet &set, unsigned batchSize) {
  const unsigned padded = (set.numImages + batchSize - 1) / batchSize * batchSize;
  set.images.resize(std::size_t(padded) * set.imageSize, 0.0f);
  set.labels.resize(padded, MASKED_LABEL_CODE);
}

Device getDevice(const Options &o) {
  if (o.hardware) {
    DeviceManager manager = DeviceManager::createDeviceManager();
    std::vector<Device> devices = manager.getDevices(TargetType::IPU, 1);
    for (std::size_t i = 0; i < devices.size(); ++i)
      if (devices[i].attach()) {
        std::cout << "Attached to IPU " << devices[i].getId() << "\n";
        return std::move(devices[i]);
      }
    throw std::runtime_error("no IPU could be attached");
  }
  IPUModel model("ipu2");
  if (o.tiles)
    model.tilesPerIPU = o.tiles;
  return model.createDevice();
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

enum ProgramIndex { INIT, TRAIN, TRAIN_TAIL, TEST, NUM_PROGRAMS };

// Loads the data, builds and compiles the graph, trains, tests; returns main's exit status.
int run(const Options &o) {
  const unsigned B = o.batchSize;

  MnistSet train = loadMnist(o.dataDir, "train", o.trainImages);
  MnistSet test = loadMnist(o.dataDir, "t10k", o.testImages);
  const unsigned imageSize = train.imageSize;
  std::cout << "Training on " << train.numImages << " images x " << o.epochs
            << " epoch(s), testing on " << test.numImages << " images, batch size " << B << "\n";
  padToBatches(train, B);
  padToBatches(test, B);
  const unsigned batchesPerEpoch = train.labels.size() / B;
  const unsigned totalBatches = batchesPerEpoch * o.epochs;
  const unsigned batchesPerStep = std::min(o.batchesPerStep, totalBatches);
  const unsigned testBatches = test.labels.size() / B;

  const std::chrono::steady_clock::time_point buildStart = std::chrono::steady_clock::now();
  Device device = getDevice(o);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  std::cout << "Building the graph on " << graph.getTarget().getNumTiles() << " tiles\n";

  // The model: W laid out as the matmul's right-hand side wants it, so the forward product needs
  // no rearrangement; x likewise as its left-hand side, so each streamed batch lands in place.
  poplin::PlanningCache cache;
  Tensor x = poplin::createMatMulInputLHS(graph, FLOAT, {B, imageSize}, {imageSize, numClasses},
                                          "x", {}, &cache);
  Tensor W = poplin::createMatMulInputRHS(graph, FLOAT, {B, imageSize}, {imageSize, numClasses},
                                          "W", {}, &cache);
  Tensor b = graph.addVariable(FLOAT, {numClasses}, "b");
  Tensor labels = graph.addVariable(UNSIGNED_INT, {B}, "labels");
  Tensor loss = graph.addVariable(FLOAT, {B}, "loss");
  Tensor numCorrect = graph.addVariable(UNSIGNED_INT, {1}, "numCorrect");
  // Totals over the batches of one Engine::run, read back by the host after it.
  Tensor totalCorrect = graph.addVariable(UNSIGNED_INT, {1}, "totalCorrect");
  Tensor totalLoss = graph.addVariable(FLOAT, {1}, "totalLoss");
  // -learningRate / B, written by the host before each step so the rate can decay.
  Tensor scale = graph.addVariable(FLOAT, {}, "scale");
  for (Tensor t : {b, labels, loss, numCorrect, totalCorrect, totalLoss, scale})
    poputil::mapTensorLinearly(graph, t);
  graph.createHostRead("totalCorrect", totalCorrect);
  graph.createHostRead("totalLoss", totalLoss);
  graph.createHostWrite("scale", scale);

  // Forward pass, loss and accuracy of the batch in x and labels, shared by training and test.
  Sequence forward;
  Tensor logits = poplin::matMul(graph, x, W, forward, "logits", {}, &cache);
  popops::addInPlace(graph, logits, b.expand({0}).broadcast(B, 0), forward, "bias");
  Tensor probs =
      popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX, logits, forward, "softmax");
  // With softmax outputs and CROSS_ENTROPY_LOSS the deltas are probs - onehot(labels): the
  // gradient of the loss with respect to the logits, which is what the update needs.
  Tensor deltas = graph.clone(probs, "deltas");
  forward.add(popnn::calcLoss(graph, probs, labels, loss, deltas, numCorrect,
                              popnn::CROSS_ENTROPY_LOSS, "loss"));
  popops::addInPlace(graph, totalCorrect, numCorrect, forward, "countCorrect");
  popops::reduceWithOutput(graph, loss, totalLoss.reshape({}), {0}, {popops::Operation::ADD, true},
                           forward, "sumLoss");

  // SGD: W += scale * x^T.deltas and b += scale * sum(deltas), scale = -learningRate / B.
  Sequence update;
  Tensor gradW = poplin::matMul(graph, x.transpose(), deltas, update, "gradW", {}, &cache);
  popops::scaledAddTo(graph, W, gradW, scale, update, "updateW");
  Tensor gradB = popops::reduce(graph, deltas, {0}, popops::Operation::ADD, update, "gradB");
  popops::scaledAddTo(graph, b, gradB, scale, update, "updateB");

  // Host-to-device FIFOs: each Copy takes the next batch from the host's circular buffer.
  DataStream trainImages = graph.addHostToDeviceFIFO("trainImages", FLOAT, B * imageSize);
  DataStream trainLabels = graph.addHostToDeviceFIFO("trainLabels", UNSIGNED_INT, B);
  DataStream testImages = graph.addHostToDeviceFIFO("testImages", FLOAT, B * imageSize);
  DataStream testLabels = graph.addHostToDeviceFIFO("testLabels", UNSIGNED_INT, B);
  Sequence trainBatch({Copy(trainImages, x), Copy(trainLabels, labels), forward, update});
  Sequence testBatch({Copy(testImages, x), Copy(testLabels, labels), forward});

  Sequence zeroTotals;
  popops::zero(graph, totalCorrect, zeroTotals, "zeroCorrect");
  popops::zero(graph, totalLoss, zeroTotals, "zeroLoss");
  std::vector<Program> programs(NUM_PROGRAMS);
  Sequence init;
  popops::zero(graph, W, init, "zeroW");
  popops::zero(graph, b, init, "zeroB");
  programs[INIT] = init;
  programs[TRAIN] = Sequence({zeroTotals, Repeat(batchesPerStep, trainBatch)});
  // The last, shorter step when the batches do not divide into steps (else never run).
  const unsigned tailBatches = totalBatches % batchesPerStep;
  programs[TRAIN_TAIL] = Sequence({zeroTotals, Repeat(std::max(tailBatches, 1u), trainBatch)});
  programs[TEST] = Sequence({zeroTotals, Repeat(testBatches, testBatch)});

  Engine engine(graph, programs);
  engine.load(device);
  engine.connectStream("trainImages", &train.images[0], &train.images[0] + train.images.size());
  engine.connectStream("trainLabels", &train.labels[0], &train.labels[0] + train.labels.size());
  engine.connectStream("testImages", &test.images[0], &test.images[0] + test.images.size());
  engine.connectStream("testLabels", &test.labels[0], &test.labels[0] + test.labels.size());
  std::cout << "Graph built and compiled in " << std::fixed << std::setprecision(2)
            << secondsSince(buildStart) << " s\n";

  const std::chrono::steady_clock::time_point trainStart = std::chrono::steady_clock::now();
  engine.run(INIT);
  unsigned batchesDone = 0, imagesSeen = 0;
  while (batchesDone < totalBatches) {
    const unsigned batches = std::min(batchesPerStep, totalBatches - batchesDone);
    const float rate = o.learningRate * (1.0f - float(batchesDone) / totalBatches);
    const float scaleValue = -rate / B;
    engine.writeTensor("scale", &scaleValue, &scaleValue + 1);
    engine.run(batches == batchesPerStep ? TRAIN : TRAIN_TAIL);
    // Real (unpadded) images in this step: padding sits at the end of each epoch.
    unsigned images = 0;
    for (unsigned i = batchesDone; i < batchesDone + batches; ++i) {
      const unsigned first = (i % batchesPerEpoch) * B;
      images += std::min(B, train.numImages - std::min(first, train.numImages));
    }
    batchesDone += batches;
    imagesSeen += images;
    unsigned correct;
    float lossSum;
    engine.readTensor("totalCorrect", &correct, &correct + 1);
    engine.readTensor("totalLoss", &lossSum, &lossSum + 1);
    std::cout << "Epoch " << std::setprecision(3) << double(batchesDone) / batchesPerEpoch << " ("
              << imagesSeen << " images): training accuracy " << std::setprecision(2)
              << 100.0 * correct / images << "%, loss " << std::setprecision(4) << lossSum / images
              << ", learning rate " << std::setprecision(4) << rate << "\n";
  }
  const double trainSeconds = secondsSince(trainStart);

  const std::chrono::steady_clock::time_point testStart = std::chrono::steady_clock::now();
  engine.run(TEST);
  unsigned correct;
  engine.readTensor("totalCorrect", &correct, &correct + 1);
  const double accuracy = 100.0 * correct / test.numImages;
  std::cout << "Test accuracy: " << std::setprecision(2) << accuracy << "% (" << correct << " of "
            << test.numImages << ")\n";
  std::cout << "Host time: training " << trainSeconds << " s, test " << secondsSince(testStart)
            << " s\n";
  if (accuracy < o.minAccuracy) {
    std::cout << "FAILED: test accuracy below " << o.minAccuracy << "%\n";
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  try {
    o = parseOptions(argc, argv);
  } catch (const std::exception &e) {
    std::cerr << "Error: " << e.what() << "\n";
    usage(argv[0]);
    return 1;
  }
  try {
    return run(o);
  } catch (const std::exception &e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }
}
