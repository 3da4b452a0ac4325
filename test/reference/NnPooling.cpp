// Host reference for popnn pooling: every output walks its window element by element.
#include "NnPooling.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>

namespace popsdk::reference {

std::vector<std::size_t> Pooling::outputField() const {
  std::vector<std::size_t> out;
  for (std::size_t d = 0; d < field.size(); ++d)
    out.push_back(
        (long(field[d]) + paddingLower[d] + paddingUpper[d] - long(kernel[d])) / stride[d] + 1);
  return out;
}

namespace {

std::size_t product(const std::vector<std::size_t> &v) {
  return std::accumulate(v.begin(), v.end(), std::size_t(1), std::multiplies<>());
}

/// Calls f(input index) for each input element in output o's window (padding and truncated
/// elements skipped), o being the flat output field position.
void forWindow(const Pooling &p, std::size_t plane, std::size_t o,
               const std::function<void(std::size_t)> &f) {
  auto out = p.outputField();
  std::size_t nd = p.field.size();
  std::vector<long> start(nd);
  for (std::size_t d = nd; d-- > 0;) {
    start[d] = long(o % out[d]) * long(p.stride[d]) - p.paddingLower[d];
    o /= out[d];
  }
  std::size_t kernelSize = product(p.kernel);
  for (std::size_t k = 0; k < kernelSize; ++k) {
    std::size_t rest = k, index = 0;
    bool inside = true;
    std::vector<long> pos(nd);
    for (std::size_t d = nd; d-- > 0;) {
      pos[d] = start[d] + long(rest % p.kernel[d]);
      rest /= p.kernel[d];
    }
    for (std::size_t d = 0; d < nd; ++d) {
      long lo = std::max(0, -p.paddingLower[d]);
      long hi = long(p.field[d]) - std::max(0, -p.paddingUpper[d]);
      inside &= pos[d] >= lo && pos[d] < hi;
      index = index * p.field[d] + std::size_t(std::max(0L, pos[d]));
    }
    if (inside)
      f(plane * product(p.field) + index);
  }
}

} // namespace

std::size_t Pooling::inputSize() const { return batch * channels * product(field); }
std::size_t Pooling::outputSize() const { return batch * channels * product(outputField()); }

std::vector<double> pool(const Pooling &p, const std::vector<double> &in) {
  std::size_t outField = product(p.outputField());
  std::vector<double> out(p.outputSize());
  for (std::size_t plane = 0; plane < p.batch * p.channels; ++plane) {
    for (std::size_t o = 0; o < outField; ++o) {
      double acc = p.type == popnn::PoolingType::MAX ? -std::numeric_limits<double>::infinity() : 0;
      std::size_t count = 0;
      forWindow(p, plane, o, [&](std::size_t i) {
        acc = p.type == popnn::PoolingType::MAX ? std::max(acc, in[i]) : acc + in[i];
        ++count;
      });
      if (p.type == popnn::PoolingType::AVG)
        acc = count ? acc / double(count) : 0;
      out[plane * outField + o] = acc;
    }
  }
  return out;
}

std::vector<double> maxPoolGradient(const Pooling &p, const std::vector<double> &in,
                                    const std::vector<double> &outGrad, bool scaled) {
  auto pooled = pool(p, in);
  std::size_t outField = product(p.outputField());
  std::vector<double> grad(in.size(), 0);
  for (std::size_t plane = 0; plane < p.batch * p.channels; ++plane) {
    for (std::size_t o = 0; o < outField; ++o) {
      std::size_t at = plane * outField + o, ties = 0;
      forWindow(p, plane, o, [&](std::size_t i) { ties += in[i] == pooled[at]; });
      forWindow(p, plane, o, [&](std::size_t i) {
        if (in[i] == pooled[at])
          grad[i] += scaled ? outGrad[at] / double(ties) : outGrad[at];
      });
    }
  }
  return grad;
}

} // namespace popsdk::reference
