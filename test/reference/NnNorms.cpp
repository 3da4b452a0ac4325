// Host reference for popnn's normalisations: two passes over the elements of each statistic.
#include "NnNorms.hpp"

#include <cmath>

namespace popsdk::reference {

std::size_t statisticOf(const NormGrouping &g, const NormShape &s, std::size_t b, std::size_t c) {
  if (g.perChannel)
    return c;
  std::size_t group = g.strided ? c % g.groups : c / (s.channels / g.groups);
  return b * g.groups + group;
}

std::size_t numStatistics(const NormGrouping &g, const NormShape &s) {
  return g.perChannel ? s.channels : s.batch * g.groups;
}

namespace {

template <class F> void forEach(const NormShape &s, F f) {
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t c = 0; c < s.channels; ++c)
      for (std::size_t i = 0; i < s.field; ++i)
        f(b, c, (b * s.channels + c) * s.field + i);
}

} // namespace

std::pair<std::vector<double>, std::vector<double>> normStatistics(const NormGrouping &g,
                                                                   const NormShape &s,
                                                                   const std::vector<double> &x,
                                                                   double eps, bool unbiased) {
  std::size_t n = numStatistics(g, s);
  std::vector<double> sum(n, 0), count(n, 0), sq(n, 0);
  forEach(s, [&](std::size_t b, std::size_t c, std::size_t i) {
    sum[statisticOf(g, s, b, c)] += x[i];
    count[statisticOf(g, s, b, c)] += 1;
  });
  for (std::size_t k = 0; k < n; ++k)
    sum[k] /= count[k];
  forEach(s, [&](std::size_t b, std::size_t c, std::size_t i) {
    double d = x[i] - sum[statisticOf(g, s, b, c)];
    sq[statisticOf(g, s, b, c)] += d * d;
  });
  std::vector<double> inv(n);
  for (std::size_t k = 0; k < n; ++k)
    inv[k] = 1 / std::sqrt(sq[k] / (unbiased ? count[k] - 1 : count[k]) + eps);
  return {sum, inv};
}

std::vector<double> normWhiten(const NormGrouping &g, const NormShape &s,
                               const std::vector<double> &x, const std::vector<double> &mean,
                               const std::vector<double> &invStdDev) {
  std::vector<double> out(x.size());
  forEach(s, [&](std::size_t b, std::size_t c, std::size_t i) {
    std::size_t k = statisticOf(g, s, b, c);
    out[i] = (x[i] - mean[k]) * invStdDev[k];
  });
  return out;
}

std::vector<double> normAffine(const NormShape &s, const std::vector<double> &x,
                               const std::vector<double> &gamma, const std::vector<double> &beta) {
  std::vector<double> out(x.size());
  forEach(s,
          [&](std::size_t, std::size_t c, std::size_t i) { out[i] = gamma[c] * x[i] + beta[c]; });
  return out;
}

std::vector<double> normLayer(const NormGrouping &g, const NormShape &s,
                              const std::vector<double> &x, const std::vector<double> &gamma,
                              const std::vector<double> &beta, double eps) {
  auto [mean, inv] = normStatistics(g, s, x, eps, false);
  return normAffine(s, normWhiten(g, s, x, mean, inv), gamma, beta);
}

} // namespace popsdk::reference
