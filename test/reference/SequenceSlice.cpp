// Host reference for popops::sequenceSlice: row runs copied one entry after another.
#include "Slice.hpp"

namespace popsdk::reference {

std::vector<double> sequenceSlice(const std::vector<double> &in, std::vector<double> out,
                                  std::size_t columns, const std::vector<std::uint32_t> &n,
                                  const std::vector<std::uint32_t> &inOffset,
                                  const std::vector<std::uint32_t> &outOffset, bool zeroUnused) {
  const std::size_t inRows = columns ? in.size() / columns : 0;
  const std::size_t outRows = columns ? out.size() / columns : 0;
  std::vector<bool> written(outRows);
  for (std::size_t k = 0; k < n.size(); ++k)
    for (std::size_t i = 0; i < n[k]; ++i) {
      std::size_t s = std::size_t(inOffset[k]) + i, d = std::size_t(outOffset[k]) + i;
      if (s >= inRows || d >= outRows)
        break;
      written[d] = true;
      for (std::size_t c = 0; c < columns; ++c)
        out[d * columns + c] = in[s * columns + c];
    }
  if (zeroUnused)
    for (std::size_t d = 0; d < outRows; ++d)
      if (!written[d])
        for (std::size_t c = 0; c < columns; ++c)
          out[d * columns + c] = 0;
  return out;
}

} // namespace popsdk::reference
