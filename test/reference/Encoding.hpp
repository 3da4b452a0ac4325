// Host reference for popops' encodings: one-hot rows and integer ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace popsdk::reference {

/// [indices, classes]: `on` at column indices[i] of row i, `off` elsewhere (all off for an index
/// outside [0, classes), such as MASKED_LABEL_CODE).
std::vector<double> encodeOneHot(const std::vector<std::int64_t> &indices, std::size_t classes,
                                 double on = 1, double off = 0);

/// start, start + 1, ..., start + n - 1.
std::vector<double> iota(std::int64_t start, std::size_t n);

} // namespace popsdk::reference
