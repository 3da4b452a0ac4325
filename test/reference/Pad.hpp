// Host reference for popops::pad: numpy.pad's constant, edge and reflect modes, with negative
// amounts truncating, on row-major host values.
#pragma once

#include <cstddef>
#include <vector>

namespace popsdk::reference {

enum class PadMode { Constant, Edge, Reflect };

/// `t` (row-major `shape`) padded dimension by dimension; sets `outShape`.
std::vector<double> pad(const std::vector<double> &t, const std::vector<std::size_t> &shape,
                        const std::vector<std::ptrdiff_t> &lower,
                        const std::vector<std::ptrdiff_t> &upper, PadMode mode, double value,
                        std::vector<std::size_t> &outShape);

} // namespace popsdk::reference
