// The plan of a convolution whose kernel is walked on the tile (ConvPartialnx1): the output cut
// into parts of conv groups, batch, rows (the outermost field dimension) and output channels,
// one part a tile; each tile receives the input rows its outputs read, once, instead of the
// im2col copies of them.
#pragma once

#include "ConvNx1Worklist.hpp"
#include "MatMulOptions.hpp"
#include "MatMulPlan.hpp"

#include <poplin/ConvParams.hpp>

#include <poplar/Target.hpp>

#include <cstdint>
#include <optional>

namespace poplin::internal {

struct ConvNx1Split {
  unsigned groups = 1, batch = 1, rows = 1, n = 1;
  unsigned tiles() const { return groups * batch * rows * n; }
};

struct ConvNx1Plan {
  ConvParams params;
  poplar::Type partialsType = poplar::FLOAT;
  ConvNx1Split split;
  MatMulCost cost; // exchange, partials, cast and temporary bytes of the busiest tile
  bool fitsMemory = true;
  unsigned tileOf(unsigned g, unsigned b, unsigned r, unsigned n) const {
    return ((g * split.batch + b) * split.rows + r) * split.n + n;
  }
};

/// The geometry of the block of batch part `batch` and output rows `rows` of the transformed
/// input field (inputFieldGrouped): the input rows it reads start at rows.begin * stride.
Nx1Geometry blockGeometry(const ConvParams &params, MatMulPlan::Range batch,
                          MatMulPlan::Range rows);

/// The cheapest split that fits in memory (else the one with the least memory), or none when the
/// kernel has one position, an output dimension is empty, or no split is estimated below
/// `cyclesToBeat` (the search is skipped when even one output channel of one position cannot be).
std::optional<ConvNx1Plan> planConvNx1(const poplar::Target &target, const ConvParams &params,
                                       const MatMulOptions &options, std::uint64_t cyclesToBeat);

} // namespace poplin::internal
