// The PopXL MLP tutorial in C++: the model of mlp.hpp trained with SGD on Fashion-MNIST by a
// popxl::Session, then a test program with the trained weights, without Python.
//
//   mlp [--train-steps N] [--test-steps N] [--batch-size B] [--lr X] [--device cpu|ipu_model]
//       [--data DIR]
#include "mlp.hpp"
#include "mnist.hpp"

#include <popxl/Session.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <stdexcept>

namespace {

struct Options {
  unsigned trainSteps = 7500, testSteps = 125, batch = 8, testBatch = 80;
  float lr = 0.05f;
  std::string device = "cpu", data = "/usr/share/datasets/fashion-mnist";
};

Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 == argc)
      throw std::invalid_argument(flag + " needs a value");
    const std::string value = argv[i + 1];
    if (flag == "--train-steps")
      o.trainSteps = unsigned(std::stoul(value));
    else if (flag == "--test-steps")
      o.testSteps = unsigned(std::stoul(value));
    else if (flag == "--batch-size")
      o.batch = unsigned(std::stoul(value));
    else if (flag == "--lr")
      o.lr = std::stof(value);
    else if (flag == "--device")
      o.device = value;
    else if (flag == "--data")
      o.data = value;
    else
      throw std::invalid_argument("unknown option " + flag);
  }
  if (o.batch == 0)
    throw std::invalid_argument("--batch-size must be positive");
  return o;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Images normalised as the tutorial does (MNIST's mean and standard deviation), int32 labels.
struct Data {
  std::vector<float> images;
  std::vector<std::int32_t> labels;
};
Data load(const std::string &dir, const std::string &prefix) {
  const MnistSet set = loadMnist(dir, prefix, ~0u);
  Data d{set.images, std::vector<std::int32_t>(set.labels.begin(), set.labels.end())};
  for (float &x : d.images)
    x = (x - 0.1307f) / 0.3081f;
  return d;
}

/// The images and labels at `rows` as stream bytes.
std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>>
batchBytes(const Data &d, const std::vector<std::size_t> &rows) {
  std::vector<float> images;
  std::vector<std::int32_t> labels;
  for (std::size_t r : rows) {
    images.insert(images.end(), d.images.begin() + std::ptrdiff_t(r * mlp::kImage),
                  d.images.begin() + std::ptrdiff_t((r + 1) * mlp::kImage));
    labels.push_back(d.labels[r]);
  }
  return {mlp::bytesOf(images), mlp::bytesOf(labels)};
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  try {
    o = parseOptions(argc, argv);
  } catch (const std::exception &e) {
    std::cerr << "Error: " << e.what() << "\nusage: " << argv[0]
              << " [--train-steps N] [--test-steps N] [--batch-size B] [--lr X]"
                 " [--device cpu|ipu_model] [--data DIR]\n";
    return 1;
  }
  const Data train = load(o.data, "train"), test = load(o.data, "t10k");

  mlp::Program training = mlp::trainingProgram(o.batch, o.lr, mlp::initialValues(42));
  auto start = std::chrono::steady_clock::now();
  popxl::Session session(training.ir, o.device);
  std::printf("Compiled the training program in %.1f s\n", secondsSince(start));

  std::vector<std::size_t> order(train.labels.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(42));
  start = std::chrono::steady_clock::now();
  for (unsigned step = 0; step < o.trainSteps; ++step) {
    const std::size_t first = (std::size_t(step) * o.batch) % (order.size() - o.batch + 1);
    const auto [images, labels] = batchBytes(
        train, std::vector<std::size_t>(order.begin() + std::ptrdiff_t(first),
                                        order.begin() + std::ptrdiff_t(first + o.batch)));
    const auto out = session.run({{training.images, images}, {training.labels, labels}});
    if (step % 500 == 0 || step + 1 == o.trainSteps)
      std::printf("step %u: Loss:%.4f (%.1f s)\n", step,
                  mlp::valuesOf<float>(out.at(training.output))[0], secondsSince(start));
  }
  std::printf("Trained %u steps in %.1f s\n", o.trainSteps, secondsSince(start));

  mlp::Program testing = mlp::testProgram(o.testBatch);
  popxl::Session testSession(testing.ir, o.device);
  for (std::size_t i = 0; i < testing.variables.size(); ++i)
    testSession.writeVariableData(testing.variables[i], session.tensorData(training.variables[i]));
  unsigned correct = 0;
  for (unsigned step = 0; step < o.testSteps; ++step) {
    std::vector<std::size_t> rows(o.testBatch);
    std::iota(rows.begin(), rows.end(), std::size_t(step) * o.testBatch);
    const auto logits = mlp::valuesOf<float>(
        testSession.run({{testing.images, batchBytes(test, rows).first}}).at(testing.output));
    for (unsigned b = 0; b < o.testBatch; ++b) {
      const auto row = logits.begin() + std::ptrdiff_t(b * mlp::kClasses);
      correct += unsigned(std::max_element(row, row + mlp::kClasses) - row) ==
                 unsigned(test.labels[rows[b]]);
    }
  }
  std::printf("Accuracy on test set: %.2f%%\n", 100.0 * correct / (o.testSteps * o.testBatch));
  return 0;
}
