// Host reference for popops::selectScalarFromRows and popops::updateScalarInRows on row-major
// [rows, width] values: MASKED_LABEL_CODE selects nothing, any other index at or beyond the width
// gives NaN.
#pragma once

#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace popsdk::reference {

std::vector<double> selectScalarFromRows(const std::vector<double> &params, std::size_t width,
                                         const std::vector<std::uint32_t> &indices);

/// params[r][indices[r]] - 1, rounded to `type`.
std::vector<double> updateScalarInRows(std::vector<double> params, std::size_t width,
                                       const std::vector<std::uint32_t> &indices,
                                       poplar::Type type);

} // namespace popsdk::reference
