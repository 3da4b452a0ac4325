// Host reference for popnn's non-linearities: the textbook definitions in double.
#include "NnActivations.hpp"

#include "FiniteDifference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace popsdk::reference {

using popnn::NonLinearityType;

namespace {

bool isSoftmax(NonLinearityType t) {
  return t == NonLinearityType::SOFTMAX || t == NonLinearityType::SOFTMAX_STABLE ||
         t == NonLinearityType::SOFTMAX_SCALED;
}

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

} // namespace

double nonLinearity(NonLinearityType type, double x) {
  switch (type) {
  case NonLinearityType::SIGMOID:
    return sigmoid(x);
  case NonLinearityType::HARD_SIGMOID:
    return std::clamp(0.2 * x + 0.5, 0.0, 1.0);
  case NonLinearityType::RELU:
    return x > 0 ? x : 0;
  case NonLinearityType::TANH:
    return std::tanh(x);
  case NonLinearityType::GELU:
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * x * (1 + 0.044715 * x * x)));
  case NonLinearityType::GELU_ERF:
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  case NonLinearityType::SWISH:
    return x * sigmoid(x);
  default:
    throw std::invalid_argument("reference::nonLinearity: a softmax is not element-wise");
  }
}

std::vector<double> nonLinearity(NonLinearityType type, const std::vector<double> &x,
                                 std::size_t rowLength) {
  std::vector<double> out(x.size());
  if (!isSoftmax(type)) {
    std::transform(x.begin(), x.end(), out.begin(),
                   [type](double v) { return nonLinearity(type, v); });
    return out;
  }
  double scale = type == NonLinearityType::SOFTMAX_SCALED ? SOFTMAX_SCALING : 1;
  for (std::size_t r = 0; r < x.size(); r += rowLength) {
    double max = *std::max_element(x.begin() + r, x.begin() + r + rowLength);
    double sum = 0;
    for (std::size_t i = r; i < r + rowLength; ++i)
      sum += std::exp(x[i] - max);
    for (std::size_t i = r; i < r + rowLength; ++i)
      out[i] = scale * std::exp(x[i] - max) / sum;
  }
  return out;
}

std::vector<double> logSoftmax(const std::vector<double> &x, std::size_t rowLength) {
  auto p = nonLinearity(NonLinearityType::SOFTMAX, x, rowLength);
  for (auto &v : p)
    v = std::log(v);
  return p;
}

std::vector<double> gradientActivations(NonLinearityType type, const std::vector<double> &in,
                                        std::size_t rowLength) {
  bool takesInput = type == NonLinearityType::GELU || type == NonLinearityType::GELU_ERF ||
                    type == NonLinearityType::SWISH || type == NonLinearityType::HARD_SIGMOID;
  return takesInput ? in : nonLinearity(type, in, rowLength);
}

std::vector<double> finiteDifferenceGradient(NonLinearityType type, const std::vector<double> &in,
                                             const std::vector<double> &outGrad,
                                             std::size_t rowLength, double h) {
  return vectorJacobianProduct(
      [&](const std::vector<double> &x) { return nonLinearity(type, x, rowLength); }, in, outGrad,
      h);
}

} // namespace popsdk::reference
