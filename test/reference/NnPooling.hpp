// Host reference for popnn pooling over [batch, channels, field...], in double precision.
#pragma once

#include <popnn/PoolingDef.hpp>

#include <cstddef>
#include <vector>

namespace popsdk::reference {

struct Pooling {
  popnn::PoolingType type;
  std::vector<std::size_t> field, kernel;
  std::vector<unsigned> stride;
  std::vector<int> paddingLower, paddingUpper; // negative: truncation
  std::size_t batch, channels;

  std::vector<std::size_t> outputField() const;
  std::size_t inputSize() const;
  std::size_t outputSize() const;
};

/// Each output: the max, sum or mean (over the input elements it covers, padding excluded) of
/// its window of the padded or truncated input.
std::vector<double> pool(const Pooling &p, const std::vector<double> &in);

/// MAX pooling's gradient with ties: each output's gradient split equally (scaled) or given whole
/// to every window element equal to its maximum.
std::vector<double> maxPoolGradient(const Pooling &p, const std::vector<double> &in,
                                    const std::vector<double> &outGrad, bool scaled);

} // namespace popsdk::reference
