// Host reference for popnn's losses and class selection, in double precision.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace popsdk::reference {

struct LossResult {
  std::vector<double> loss;   // [rows]
  std::vector<double> deltas; // [rows, classes]
};

/// popnn::calcLoss of outputs [rows, classes] against class labels (0xFFFFFFFF: masked, zero
/// loss and deltas). Sum-squared: deltas = p - onehot, loss = sum(deltas^2) / 2. Cross-entropy:
/// deltas = (deltasScale / outScale)(p - onehot outScale), loss = -log(p[label] / outScale).
LossResult calcLoss(bool crossEntropy, const std::vector<double> &outputs,
                    const std::vector<std::uint32_t> &labels, std::size_t classes,
                    double deltasScale = 1, double modelOutputScaling = 1);

/// The column of each row's maximum (isMax) or minimum, the first on ties.
std::vector<std::size_t> argBest(const std::vector<double> &in, std::size_t columns, bool isMax);

/// How many labels equal their row's arg max.
std::size_t numCorrect(const std::vector<double> &outputs, const std::vector<std::uint32_t> &labels,
                       std::size_t classes);

} // namespace popsdk::reference
