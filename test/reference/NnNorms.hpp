// Host reference for popnn's normalisations (batch, group, layer, instance), in double precision.
// Activations are row-major [batch, channels, field] (the field flattened).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace popsdk::reference {

/// Which elements one statistic covers: per channel over batch and field, or per sample and
/// group of channels (contiguous groups, or strided: channel c in group c % groups).
struct NormGrouping {
  bool perChannel = false;
  unsigned groups = 1;
  bool strided = false;
};

struct NormShape {
  std::size_t batch, channels, field;
};

/// The statistic an element (b, c, f) belongs to: the channel, or b * groups + group.
std::size_t statisticOf(const NormGrouping &g, const NormShape &s, std::size_t b, std::size_t c);
std::size_t numStatistics(const NormGrouping &g, const NormShape &s);

/// (mean, 1 / sqrt(variance + eps)); the variance divides by n - 1 if unbiased.
std::pair<std::vector<double>, std::vector<double>> normStatistics(const NormGrouping &g,
                                                                   const NormShape &s,
                                                                   const std::vector<double> &x,
                                                                   double eps, bool unbiased);

std::vector<double> normWhiten(const NormGrouping &g, const NormShape &s,
                               const std::vector<double> &x, const std::vector<double> &mean,
                               const std::vector<double> &invStdDev);

/// gamma * x + beta per channel.
std::vector<double> normAffine(const NormShape &s, const std::vector<double> &x,
                               const std::vector<double> &gamma, const std::vector<double> &beta);

/// The whole training-mode layer: biased statistics of x, whiten, affine.
std::vector<double> normLayer(const NormGrouping &g, const NormShape &s,
                              const std::vector<double> &x, const std::vector<double> &gamma,
                              const std::vector<double> &beta, double eps);

} // namespace popsdk::reference
