// Reading and checking the sliding window of conv and pooling ops.
#include "Window.hpp"

#include <algorithm>

namespace popxl::internal {

namespace {
/// The attribute `key` as `n` sizes of at least `least`, or `n` copies of `fallback` if absent.
std::vector<std::size_t> sizesAttr(const OpInfo &op, const std::string &key, std::size_t n,
                                   std::int64_t least, std::size_t fallback) {
  if (!hasAttr(op, key))
    return std::vector<std::size_t>(n, fallback);
  const std::vector<std::int64_t> v = intsAttr(op, key);
  if (v.size() != n)
    opError(op, key + " " + shapeText(v) + " needs " + std::to_string(n) + " values");
  for (auto x : v)
    if (x < least)
      opError(op, key + " " + shapeText(v) + " has a value below " + std::to_string(least));
  return std::vector<std::size_t>(v.begin(), v.end());
}
} // namespace

Window readWindow(const OpInfo &op, const std::vector<std::int64_t> &kernel, std::size_t rank) {
  if (rank < 3)
    opError(op, "needs an input [batch, channels, spatial...] of rank >= 3, got rank " +
                    std::to_string(rank));
  const std::size_t dims = rank - 2;
  Window w;
  if (kernel.size() != dims ||
      std::any_of(kernel.begin(), kernel.end(), [](auto k) { return k < 1; }))
    opError(op, "kernel " + shapeText(kernel) + " needs " + std::to_string(dims) +
                    " positive sizes, one per spatial dimension");
  w.kernel.assign(kernel.begin(), kernel.end());
  w.stride = sizesAttr(op, "stride", dims, 1, 1);
  w.dilation = sizesAttr(op, "dilation", dims, 1, 1);
  const std::vector<std::size_t> padding = sizesAttr(op, "padding", 2 * dims, 0, 0);
  w.padLower.assign(padding.begin(), padding.begin() + std::ptrdiff_t(dims));
  w.padUpper.assign(padding.begin() + std::ptrdiff_t(dims), padding.end());
  return w;
}

std::vector<std::int64_t> Window::outputField(const OpInfo &op,
                                              const std::vector<std::int64_t> &field) const {
  std::vector<std::int64_t> out;
  for (std::size_t d = 0; d < dims(); ++d) {
    const std::int64_t padded = field[d] + std::int64_t(padLower[d] + padUpper[d]);
    const std::int64_t reach = std::int64_t((kernel[d] - 1) * dilation[d] + 1);
    if (padded < reach)
      opError(op, "spatial dimension " + std::to_string(d) + " of size " +
                      std::to_string(field[d]) + " (" + std::to_string(padded) +
                      " padded) is smaller than the kernel's reach " + std::to_string(reach));
    out.push_back((padded - reach) / std::int64_t(stride[d]) + 1);
  }
  return out;
}

} // namespace popxl::internal
