// Host reference for popnn's losses and class selection.
#include "NnLoss.hpp"

#include <cmath>

namespace popsdk::reference {

LossResult calcLoss(bool crossEntropy, const std::vector<double> &outputs,
                    const std::vector<std::uint32_t> &labels, std::size_t classes,
                    double deltasScale, double modelOutputScaling) {
  LossResult r{std::vector<double>(labels.size(), 0), std::vector<double>(outputs.size(), 0)};
  for (std::size_t row = 0; row < labels.size(); ++row) {
    if (labels[row] == 0xFFFFFFFFu)
      continue;
    for (std::size_t c = 0; c < classes; ++c) {
      double p = outputs[row * classes + c], hot = c == labels[row] ? 1 : 0;
      double &d = r.deltas[row * classes + c];
      if (crossEntropy) {
        d = deltasScale / modelOutputScaling * (p - hot * modelOutputScaling);
        if (hot)
          r.loss[row] = -(std::log(p) - std::log(modelOutputScaling));
      } else {
        d = p - hot;
        r.loss[row] += 0.5 * d * d;
      }
    }
  }
  return r;
}

std::vector<std::size_t> argBest(const std::vector<double> &in, std::size_t columns, bool isMax) {
  std::vector<std::size_t> out;
  for (std::size_t r = 0; r < in.size(); r += columns) {
    std::size_t best = 0;
    for (std::size_t c = 1; c < columns; ++c)
      if (isMax ? in[r + c] > in[r + best] : in[r + c] < in[r + best])
        best = c;
    out.push_back(best);
  }
  return out;
}

std::size_t numCorrect(const std::vector<double> &outputs, const std::vector<std::uint32_t> &labels,
                       std::size_t classes) {
  auto best = argBest(outputs, classes, true);
  std::size_t n = 0;
  for (std::size_t r = 0; r < labels.size(); ++r)
    n += best[r] == labels[r];
  return n;
}

} // namespace popsdk::reference
