// Reads the MNIST IDX files (gzip-compressed, as Debian's dataset-fashion-mnist ships them) into
// host arrays ready to stream to the device.
#ifndef MNIST_REGRESSION_MNIST_HPP
#define MNIST_REGRESSION_MNIST_HPP

#include <string>
#include <vector>

struct MnistSet {
  unsigned numImages = 0;
  unsigned imageSize = 0;       // rows * cols: 784 for 28x28 images
  std::vector<float> images;    // numImages * imageSize pixels scaled to [0, 1]
  std::vector<unsigned> labels; // numImages class indices in [0, 10)
};

// Loads `<dir>/<prefix>-images-idx3-ubyte.gz` and `<dir>/<prefix>-labels-idx1-ubyte.gz`
// (prefix "train" or "t10k"), keeping at most `maxImages` of them. Throws std::runtime_error
// naming the file when one is missing or not in IDX format.
MnistSet loadMnist(const std::string &dir, const std::string &prefix, unsigned maxImages);

#endif
