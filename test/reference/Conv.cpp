// Host reference for poplin's convolutions.
#include "Conv.hpp"

#include <functional>
#include <optional>

namespace popsdk::reference {

namespace {

using poplin::ConvParams;

/// The size of a dimension after an input (or kernel) transform, computed here rather than by
/// poplin so that the reference checks poplin's arithmetic too.
std::size_t transformedSize(std::size_t size, const ConvParams::InputTransform &t, unsigned d) {
  const std::size_t kept = size - t.truncationLower[d] - t.truncationUpper[d];
  return t.paddingLower[d] + (kept == 0 ? 0 : (kept - 1) * t.dilation[d] + 1) + t.paddingUpper[d];
}

std::vector<std::size_t> outputShape(const ConvParams &p) {
  std::vector<std::size_t> shape;
  const auto &o = p.outputTransform;
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d) {
    const std::size_t full = transformedSize(p.inputFieldShape[d], p.inputTransform, d) + 1 -
                             transformedSize(p.kernelShape[d], p.kernelTransform, d);
    const std::size_t kept = full - o.truncationLower[d] - o.truncationUpper[d];
    shape.push_back(o.paddingLower[d] + (kept + o.stride[d] - 1) / o.stride[d] + o.paddingUpper[d]);
  }
  return shape;
}

/// The untransformed index that position `x` of a transformed dimension comes from, if any
/// (none for padding and dilation holes).
std::optional<std::size_t> sourceIndex(long x, std::size_t size,
                                       const ConvParams::InputTransform &t, unsigned d,
                                       std::size_t transformed) {
  if (x < 0 || std::size_t(x) >= transformed)
    return std::nullopt;
  if (t.flip[d])
    x = long(transformed) - 1 - x;
  x -= t.paddingLower[d];
  const long kept = long(size) - t.truncationLower[d] - t.truncationUpper[d];
  const long dilatedSize = kept == 0 ? 0 : (kept - 1) * t.dilation[d] + 1;
  if (x < 0 || x >= dilatedSize || x % t.dilation[d] != 0)
    return std::nullopt;
  return std::size_t(x / t.dilation[d] + t.truncationLower[d]);
}

/// Calls f(outIndex, inIndex, tapIndex) (flat field indices) for every output position,
/// kernel tap and input position the parameters connect.
void forEachConnection(const ConvParams &p,
                       const std::function<void(std::size_t, std::size_t, std::size_t)> &f) {
  const std::size_t dims = p.getNumFieldDims();
  const auto outShape = outputShape(p);
  std::vector<std::size_t> tk(dims);
  for (unsigned d = 0; d < dims; ++d)
    tk[d] = transformedSize(p.kernelShape[d], p.kernelTransform, d);
  std::vector<std::size_t> o(dims, 0);
  std::size_t outCount = 1, tapCount = 1;
  for (unsigned d = 0; d < dims; ++d) {
    outCount *= outShape[d];
    tapCount *= tk[d];
  }
  for (std::size_t oi = 0; oi < outCount; ++oi) {
    std::size_t rest = oi;
    for (unsigned d = unsigned(dims); d-- > 0;) {
      o[d] = rest % outShape[d];
      rest /= outShape[d];
    }
    for (std::size_t ki = 0; ki < tapCount; ++ki) {
      std::size_t krest = ki, inIndex = 0, tapIndex = 0;
      bool connected = true;
      std::vector<std::size_t> kt(dims);
      for (unsigned d = unsigned(dims); d-- > 0;) {
        kt[d] = krest % tk[d];
        krest /= tk[d];
      }
      for (unsigned d = 0; d < dims && connected; ++d) {
        const auto &ot = p.outputTransform;
        const long oo = long(o[d]) - ot.paddingLower[d];
        const long stridedCount = long(outShape[d]) - ot.paddingLower[d] - ot.paddingUpper[d];
        if (oo < 0 || oo >= stridedCount) {
          connected = false;
          break;
        }
        const long q = long(ot.truncationLower[d]) + oo * ot.stride[d];
        const auto tap = sourceIndex(long(kt[d]), p.kernelShape[d], p.kernelTransform, d, tk[d]);
        const auto in = sourceIndex(q + long(kt[d]), p.inputFieldShape[d], p.inputTransform, d,
                                    transformedSize(p.inputFieldShape[d], p.inputTransform, d));
        if (!tap || !in) {
          connected = false;
          break;
        }
        inIndex = inIndex * p.inputFieldShape[d] + *in;
        tapIndex = tapIndex * p.kernelShape[d] + *tap;
      }
      if (connected)
        f(oi, inIndex, tapIndex);
    }
  }
}

struct Sizes {
  std::size_t G, Co, Ci, in, out, taps;
};

Sizes sizesOf(const ConvParams &p) {
  Sizes s{p.numConvGroups, p.outputChannelsPerConvGroup, p.inputChannelsPerConvGroup, 1, 1, 1};
  const auto outShape = outputShape(p);
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d) {
    s.in *= p.inputFieldShape[d];
    s.out *= outShape[d];
    s.taps *= p.kernelShape[d];
  }
  return s;
}

/// Calls f(inIndex, weightIndex, outIndex) (flat indices of the three tensors) for every
/// multiply-accumulate of the convolution.
void forEachMac(const ConvParams &p,
                const std::function<void(std::size_t, std::size_t, std::size_t)> &f) {
  const Sizes s = sizesOf(p);
  forEachConnection(p, [&](std::size_t o, std::size_t i, std::size_t t) {
    for (std::size_t b = 0; b < p.batchSize; ++b)
      for (std::size_t g = 0; g < s.G; ++g)
        for (std::size_t co = 0; co < s.Co; ++co)
          for (std::size_t ci = 0; ci < s.Ci; ++ci)
            f(((b * s.G + g) * s.Ci + ci) * s.in + i, ((g * s.Co + co) * s.Ci + ci) * s.taps + t,
              ((b * s.G + g) * s.Co + co) * s.out + o);
  });
}

} // namespace

std::vector<double> convolution(const ConvParams &p, const std::vector<double> &in,
                                const std::vector<double> &weights) {
  const Sizes s = sizesOf(p);
  std::vector<double> out(p.batchSize * s.G * s.Co * s.out, 0.0);
  forEachMac(p, [&](std::size_t x, std::size_t w, std::size_t y) { out[y] += in[x] * weights[w]; });
  return out;
}

std::vector<double> convolutionInputGrad(const ConvParams &p, const std::vector<double> &outGrad,
                                         const std::vector<double> &weights) {
  const Sizes s = sizesOf(p);
  std::vector<double> inGrad(p.batchSize * s.G * s.Ci * s.in, 0.0);
  forEachMac(p, [&](std::size_t x, std::size_t w, std::size_t y) {
    inGrad[x] += outGrad[y] * weights[w];
  });
  return inGrad;
}

std::vector<double> convolutionWeightGrad(const ConvParams &p, const std::vector<double> &outGrad,
                                          const std::vector<double> &in) {
  const Sizes s = sizesOf(p);
  std::vector<double> wGrad(s.G * s.Co * s.Ci * s.taps, 0.0);
  forEachMac(p,
             [&](std::size_t x, std::size_t w, std::size_t y) { wGrad[w] += outGrad[y] * in[x]; });
  return wGrad;
}

} // namespace popsdk::reference
