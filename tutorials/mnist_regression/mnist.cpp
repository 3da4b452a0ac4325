// The IDX reader behind mnist.hpp: zlib's gzread inflates the files, so the dataset can stay
// compressed as the Debian package installs it.
#include "mnist.hpp"

#include <zlib.h>

#include <algorithm>
#include <stdexcept>

namespace {

std::vector<unsigned char> readGzipFile(const std::string &path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f)
    throw std::runtime_error("cannot open " + path +
                             " (install dataset-fashion-mnist or pass --data-dir)");
  std::vector<unsigned char> data;
  unsigned char buffer[1 << 16];
  int n;
  while ((n = gzread(f, buffer, sizeof buffer)) > 0)
    data.insert(data.end(), buffer, buffer + n);
  gzclose(f);
  if (n < 0)
    throw std::runtime_error("cannot inflate " + path);
  return data;
}

// IDX headers are big-endian 32-bit words, whatever the host's byte order.
unsigned bigEndianWord(const std::vector<unsigned char> &data, unsigned index) {
  const unsigned char *p = &data[4 * index];
  return (unsigned(p[0]) << 24) | (unsigned(p[1]) << 16) | (unsigned(p[2]) << 8) | p[3];
}

// Checks the magic word (0x0801 for labels, 0x0803 for images: unsigned bytes, 1 or 3 dims)
// and that the file holds as many bytes as its header promises.
void checkIdx(const std::vector<unsigned char> &data, const std::string &path, unsigned magic,
              unsigned headerWords, std::size_t itemBytes) {
  if (data.size() < 4 * headerWords || bigEndianWord(data, 0) != magic)
    throw std::runtime_error(path + " is not an IDX file of the expected kind");
  if (data.size() < 4 * headerWords + bigEndianWord(data, 1) * itemBytes)
    throw std::runtime_error(path + " is truncated");
}

} // namespace

MnistSet loadMnist(const std::string &dir, const std::string &prefix, unsigned maxImages) {
  const std::string imagesPath = dir + "/" + prefix + "-images-idx3-ubyte.gz";
  const std::string labelsPath = dir + "/" + prefix + "-labels-idx1-ubyte.gz";
  std::vector<unsigned char> images = readGzipFile(imagesPath);
  std::vector<unsigned char> labels = readGzipFile(labelsPath);
  if (images.size() < 16)
    throw std::runtime_error(imagesPath + " is not an IDX file of the expected kind");
  const unsigned imageSize = bigEndianWord(images, 2) * bigEndianWord(images, 3);
  checkIdx(images, imagesPath, 0x803, 4, imageSize);
  checkIdx(labels, labelsPath, 0x801, 2, 1);
  if (bigEndianWord(images, 1) != bigEndianWord(labels, 1))
    throw std::runtime_error(imagesPath + " and " + labelsPath + " differ in length");

  MnistSet set;
  set.numImages = std::min(maxImages, bigEndianWord(images, 1));
  set.imageSize = imageSize;
  set.images.resize(std::size_t(set.numImages) * imageSize);
  for (std::size_t i = 0; i < set.images.size(); ++i)
    set.images[i] = images[16 + i] / 255.0f;
  set.labels.assign(labels.begin() + 8, labels.begin() + 8 + set.numImages);
  return set;
}
