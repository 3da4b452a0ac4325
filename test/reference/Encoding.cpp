// Host reference for the encodings.
#include "Encoding.hpp"

namespace popsdk::reference {

std::vector<double> encodeOneHot(const std::vector<std::int64_t> &indices, std::size_t classes,
                                 double on, double off) {
  std::vector<double> out(indices.size() * classes, off);
  for (std::size_t i = 0; i < indices.size(); ++i)
    if (indices[i] >= 0 && static_cast<std::uint64_t>(indices[i]) < classes)
      out[i * classes + indices[i]] = on;
  return out;
}

std::vector<double> iota(std::int64_t start, std::size_t n) {
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<double>(start + static_cast<std::int64_t>(i));
  return out;
}

} // namespace popsdk::reference
