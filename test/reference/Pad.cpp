// Host reference for popops::pad: each output element mapped back to the input element (or the
// constant) it comes from, one dimension at a time.
#include "Pad.hpp"

namespace popsdk::reference {

namespace {

/// Dimension d of `t` ([outer, n, inner] around d) truncated and padded.
std::vector<double> padDim(const std::vector<double> &t, std::vector<std::size_t> &shape,
                           std::size_t d, std::ptrdiff_t lo, std::ptrdiff_t hi, PadMode mode,
                           double value) {
  std::size_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < d; ++i)
    outer *= shape[i];
  for (std::size_t i = d + 1; i < shape.size(); ++i)
    inner *= shape[i];
  const std::ptrdiff_t n = std::ptrdiff_t(shape[d]);
  // The kept input rows [first, last) after truncation.
  const std::ptrdiff_t first = lo < 0 ? -lo : 0, last = hi < 0 ? n + hi : n;
  const std::ptrdiff_t kept = last - first;
  const std::ptrdiff_t m = kept + (lo > 0 ? lo : 0) + (hi > 0 ? hi : 0);
  std::vector<double> out(outer * std::size_t(m) * inner);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::ptrdiff_t r = 0; r < m; ++r) {
      const std::ptrdiff_t k = r - (lo > 0 ? lo : 0); // position among the kept rows
      std::ptrdiff_t src = k;
      bool constant = false;
      if (k < 0 || k >= kept) {
        if (mode == PadMode::Constant)
          constant = true;
        else if (mode == PadMode::Edge)
          src = k < 0 ? 0 : kept - 1;
        else
          src = k < 0 ? -k : 2 * (kept - 1) - k;
      }
      for (std::size_t i = 0; i < inner; ++i)
        out[(o * m + r) * inner + i] = constant ? value : t[(o * n + first + src) * inner + i];
    }
  shape[d] = std::size_t(m);
  return out;
}

} // namespace

std::vector<double> pad(const std::vector<double> &t, const std::vector<std::size_t> &shape,
                        const std::vector<std::ptrdiff_t> &lower,
                        const std::vector<std::ptrdiff_t> &upper, PadMode mode, double value,
                        std::vector<std::size_t> &outShape) {
  outShape = shape;
  std::vector<double> out = t;
  for (std::size_t d = 0; d < shape.size(); ++d)
    out = padDim(out, outShape, d, lower[d], upper[d], mode, value);
  return out;
}

} // namespace popsdk::reference
