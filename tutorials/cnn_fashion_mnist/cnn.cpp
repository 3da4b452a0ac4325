// A small convolutional network trained on Fashion-MNIST with poplin and popnn on a full ipu2
// model: conv 5x5 (1 -> 16 channels) + bias, relu, 2x2 max pooling, a fully connected layer to
// the 10 classes, softmax and cross-entropy; SGD on the device, batches streamed from the host
// and a Repeat over the batches of each chunk, accuracy printed as the epochs go.
//
//   cnn [--train N] [--test N] [--epochs E] [--batch B] [--lr X] [--tiles T] [--data DIR]
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Pooling.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

// An IDX file (gzip-compressed, as Debian ships them) as bytes after its header.
std::vector<unsigned char> readIdx(const std::string &path, unsigned dims,
                                   std::vector<unsigned> &shape) {
  const std::string cmd = "gzip -dc '" + path + "'";
  FILE *f = popen(cmd.c_str(), "r");
  if (!f)
    throw std::runtime_error("cannot run " + cmd);
  std::vector<unsigned char> bytes;
  unsigned char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    bytes.insert(bytes.end(), buf, buf + n);
  if (pclose(f) != 0 || bytes.size() < 4 + 4 * dims)
    throw std::runtime_error("cannot read " + path);
  shape.clear();
  for (unsigned d = 0; d < dims; ++d) {
    const unsigned char *p = &bytes[4 + 4 * d];
    shape.push_back(unsigned(p[0]) << 24 | unsigned(p[1]) << 16 | unsigned(p[2]) << 8 | p[3]);
  }
  bytes.erase(bytes.begin(), bytes.begin() + 4 + 4 * dims);
  return bytes;
}

struct Dataset {
  std::vector<float> images; // [n][28*28] in [0, 1]
  std::vector<unsigned> labels;
  unsigned n = 0;
};

Dataset load(const std::string &dir, const std::string &prefix, unsigned limit) {
  std::vector<unsigned> shape;
  const auto pixels = readIdx(dir + "/" + prefix + "-images-idx3-ubyte.gz", 3, shape);
  std::vector<unsigned> labelShape;
  const auto labels = readIdx(dir + "/" + prefix + "-labels-idx1-ubyte.gz", 1, labelShape);
  Dataset d;
  d.n = std::min(limit, shape[0]);
  d.images.resize(size_t(d.n) * 784);
  for (size_t i = 0; i < d.images.size(); ++i)
    d.images[i] = pixels[i] / 255.0f;
  d.labels.assign(labels.begin(), labels.begin() + d.n);
  return d;
}

struct Options {
  unsigned train = 60000, test = 10000, epochs = 1, batch = 16, tiles = 1472;
  float lr = 0.05f;
  std::string data = "/usr/share/datasets/fashion-mnist";
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--train")
      o.train = unsigned(std::stoul(v));
    else if (k == "--test")
      o.test = unsigned(std::stoul(v));
    else if (k == "--epochs")
      o.epochs = unsigned(std::stoul(v));
    else if (k == "--batch")
      o.batch = unsigned(std::stoul(v));
    else if (k == "--lr")
      o.lr = std::stof(v);
    else if (k == "--tiles")
      o.tiles = unsigned(std::stoul(v));
    else if (k == "--data")
      o.data = v;
    else
      throw std::runtime_error("unknown option " + k);
  }
  return o;
}

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

int main(int argc, char **argv) {
  const Options opt = parse(argc, argv);
  const Dataset train = load(opt.data, "train", opt.train);
  const Dataset test = load(opt.data, "t10k", opt.test);
  const unsigned B = opt.batch, C1 = 16, K = 5, classes = 10;
  // Steps per Engine::run: a Repeat on the device over a chunk of batches.
  const unsigned stepsPerRun = std::min(50u, (train.n + B - 1) / B);

  IPUModel model("ipu2");
  model.tilesPerIPU = opt.tiles;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);

  // Parameters: conv weights [1][C1][1][K][K], conv biases [C1], fc weights [C1*12*12][10],
  // fc biases [10].
  const poplin::ConvParams conv(FLOAT, B, {28, 28}, {K, K}, 1, C1, 1);
  Tensor w1 = poplin::createWeights(graph, conv, "w1");
  Tensor x = poplin::createInput(graph, conv, "x");
  const unsigned flat = C1 * 12 * 12;
  Tensor w2 = poplin::createMatMulInputRHS(graph, FLOAT, {B, flat}, {flat, classes}, "w2");
  Tensor b2 = graph.addVariable(FLOAT, {classes}, "b2");
  poputil::mapTensorLinearly(graph, b2);
  Tensor labels = graph.addVariable(UNSIGNED_INT, {B}, "labels");
  poputil::mapTensorLinearly(graph, labels);

  // Forward.
  Sequence fwd;
  Tensor a1 = poplin::convolution(graph, x, w1, conv, false, fwd, "conv1");
  Tensor b1 = poplin::createBiases(graph, a1, "b1");
  poplin::addBias(graph, a1, b1, fwd, "conv1");
  Tensor r1 = popnn::nonLinearity(graph, popnn::NonLinearityType::RELU, a1, fwd, "relu1");
  const popnn::pooling::PoolParams pool(popnn::PoolingType::MAX, {24, 24}, {2, 2}, {2, 2}, {0, 0},
                                        {0, 0}, C1, B, FLOAT);
  Tensor p1 = popnn::pooling::pool(graph, pool, r1, fwd, "pool1");
  Tensor h = p1.reshape({B, flat});
  Tensor logits = poplin::matMul(graph, h, w2, fwd, "fc");
  popops::addInPlace(graph, logits, b2.expand({0}).broadcast(B, 0), fwd, "fc");
  Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX, logits, fwd, "sm");
  Tensor loss = graph.addVariable(FLOAT, {B}, "loss");
  Tensor deltas = graph.addVariable(FLOAT, {B, classes}, "deltas");
  Tensor numCorrect = graph.addVariable(UNSIGNED_INT, {1}, "numCorrect");
  poputil::mapTensorLinearly(graph, loss);
  poputil::mapTensorLinearly(graph, deltas);
  graph.setTileMapping(numCorrect, 0);
  fwd.add(popnn::calcLoss(graph, probs, labels, loss, deltas, numCorrect,
                          popnn::CROSS_ENTROPY_LOSS, "loss"));

  // Backward and SGD: each update is -lr/B times the batch's summed gradient. The step size is
  // a tensor the host writes before each run: it decays linearly to a tenth over the training.
  Sequence bwd;
  Tensor scale = graph.addVariable(FLOAT, {}, "scale");
  graph.setTileMapping(scale, 0);
  graph.createHostWrite("scale", scale);
  Tensor dH = poplin::matMul(graph, deltas, w2.transpose(), bwd, "fc/bwd");
  poplin::matMulAcc(graph, w2, scale, h.transpose(), deltas, bwd, "fc/wu");
  popops::scaledAddTo(graph, b2,
                      popops::reduce(graph, deltas, {0}, {popops::Operation::ADD}, bwd, "fc/db"),
                      scale, bwd, "fc/bu");
  Tensor dP = dH.reshape({B, C1, 12, 12});
  Tensor dR = popnn::pooling::poolInputGradient(graph, pool, r1, p1, dP, false, bwd, "pool1/bwd");
  Tensor dA = popnn::nonLinearityInputGradient(graph, popnn::NonLinearityType::RELU, r1, dR, bwd,
                                               "relu1/bwd");
  poplin::convolutionWeightUpdate(graph, dA, w1, x, conv, scale, bwd, "conv1/wu");
  poplin::convolutionBiasUpdate(graph, dA, b1, scale, {}, bwd, "conv1/bu");

  // Host streams: a batch of images and labels per step; the correct count read back per step.
  DataStream inImages = graph.addHostToDeviceFIFO("images", FLOAT, B * 784);
  DataStream inLabels = graph.addHostToDeviceFIFO("labels", UNSIGNED_INT, B);
  DataStream outCorrect = graph.addDeviceToHostFIFO("correct", UNSIGNED_INT, 1);
  Sequence feed({Copy(inImages, x), Copy(inLabels, labels)});
  Sequence trainStep({feed, fwd, bwd, Copy(numCorrect, outCorrect)});
  Sequence testStep({feed, fwd, Copy(numCorrect, outCorrect)});

  // Weights: small random values from the host (He initialisation); biases zero.
  std::mt19937 rng(42);
  auto init = [&](Tensor t, float sd) {
    std::normal_distribution<float> dist(0.0f, sd);
    std::vector<float> v(t.numElements());
    for (auto &e : v)
      e = dist(rng);
    return v;
  };
  const std::vector<float> w1Init = init(w1, std::sqrt(2.0f / (K * K)));
  const std::vector<float> w2Init = init(w2, std::sqrt(2.0f / flat));
  const std::vector<float> zeros1(C1, 0.0f), zeros2(classes, 0.0f);
  graph.createHostWrite("w1", w1);
  graph.createHostWrite("w2", w2);
  graph.createHostWrite("b1", b1);
  graph.createHostWrite("b2", b2);

  auto t0 = std::chrono::steady_clock::now();
  Engine engine(graph, {Repeat(stepsPerRun, trainStep), Repeat(stepsPerRun, testStep)});
  engine.load(device);
  std::cout << "Compiled in " << secondsSince(t0) << " s\n";
  engine.writeTensor("w1", w1Init.data(), w1Init.data() + w1Init.size());
  engine.writeTensor("w2", w2Init.data(), w2Init.data() + w2Init.size());
  engine.writeTensor("b1", zeros1.data(), zeros1.data() + zeros1.size());
  engine.writeTensor("b2", zeros2.data(), zeros2.data() + zeros2.size());

  // The streams read from the current chunk; order shuffled per epoch.
  std::vector<float> imageChunk(size_t(stepsPerRun) * B * 784);
  std::vector<unsigned> labelChunk(size_t(stepsPerRun) * B), correct(stepsPerRun);
  engine.connectStream("images", imageChunk.data(), imageChunk.data() + imageChunk.size());
  engine.connectStream("labels", labelChunk.data(), labelChunk.data() + labelChunk.size());
  engine.connectStream("correct", correct.data(), correct.data() + correct.size());
  auto setStep = [&](double progress) {
    const float step = -opt.lr * float(1.0 - 0.9 * progress) / float(B);
    engine.writeTensor("scale", &step, &step + 1);
  };
  auto fill = [&](const Dataset &d, const std::vector<unsigned> &order, size_t first) {
    for (size_t i = 0; i < size_t(stepsPerRun) * B; ++i) {
      const unsigned k = order[(first + i) % order.size()];
      std::copy(&d.images[size_t(k) * 784], &d.images[size_t(k) * 784] + 784,
                &imageChunk[i * 784]);
      labelChunk[i] = d.labels[k];
    }
  };
  auto evaluate = [&]() {
    std::vector<unsigned> order(test.n);
    for (unsigned i = 0; i < test.n; ++i)
      order[i] = i;
    const size_t chunks = (test.n + stepsPerRun * B - 1) / (stepsPerRun * B);
    unsigned right = 0, seen = 0;
    for (size_t c = 0; c < chunks; ++c) {
      fill(test, order, c * stepsPerRun * B);
      engine.run(1);
      for (unsigned s = 0; s < stepsPerRun && seen < test.n; ++s, seen += B)
        right += correct[s];
    }
    return 100.0 * right / seen;
  };

  std::vector<unsigned> order(train.n);
  for (unsigned i = 0; i < train.n; ++i)
    order[i] = i;
  const size_t chunksPerEpoch = (train.n + stepsPerRun * B - 1) / (stepsPerRun * B);
  auto start = std::chrono::steady_clock::now();
  for (unsigned e = 0; e < opt.epochs; ++e) {
    std::shuffle(order.begin(), order.end(), rng);
    unsigned right = 0, seen = 0;
    for (size_t c = 0; c < chunksPerEpoch; ++c) {
      fill(train, order, c * stepsPerRun * B);
      setStep(double(e * chunksPerEpoch + c) / double(opt.epochs * chunksPerEpoch));
      engine.run(0);
      for (unsigned s = 0; s < stepsPerRun; ++s, seen += B)
        right += correct[s];
      if ((c + 1) % 10 == 0 || c + 1 == chunksPerEpoch)
        std::cout << "epoch " << e + 1 << " images " << seen << " train accuracy "
                  << 100.0 * right / seen << "% (" << secondsSince(start) << " s)" << std::endl;
    }
  }
  std::cout << "Test accuracy: " << evaluate() << "% on " << test.n << " images\n";
  std::cout << "Training took " << secondsSince(start) << " s\n";
  return 0;
}
