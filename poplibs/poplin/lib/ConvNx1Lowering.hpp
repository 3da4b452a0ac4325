// Builds a planned ConvPartialnx1 convolution into a graph: one vertex a tile over its input
// rows (read in place), its weights and its output block, then a cast when the partials type is
// not the output's.
#pragma once

#include "ConvNx1Plan.hpp"

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace poplin::internal {

/// The [G][M][N] product (as addMatMul's, for outputFromMatrix) of `in` ([batch][inChans]
/// [field...]) and `weights` ([G][outChansPerGroup][inChansPerGroup][kernel...]), each output
/// block a new variable on the tile that computes it.
poplar::Tensor addConvNx1(poplar::Graph &graph, const ConvNx1Plan &plan, const poplar::Tensor &in,
                          const poplar::Tensor &weights, poplar::program::Sequence &prog,
                          const poplar::DebugContext &dc);

} // namespace poplin::internal
