// Exchange planning: the byte copies that move one tensor's data onto another's, and their cost.
#pragma once

#include "compiler/CompiledGraph.hpp"

namespace poplar::detail {

/// Pairs the runs of `src` and `dst` (same byte count) into copies, in element order.
std::vector<CopyRun> planCopy(const TensorLocation &src, const TensorLocation &dst);

/// True if some copy reads bytes that another copy of the same phase writes, so the phase
/// must read everything before writing anything (e.g. a copy from a tensor to its reverse).
bool copiesOverlap(const std::vector<CopyRun> &runs);

/// BSP cost of an exchange phase: internal sync, then the busiest supertile's bytes (the larger
/// of sent and received) over its tiles' whole exchange rate when the target shares exchange
/// buses (else each tile's over its own); copies within a tile run at the on-tile rate after
/// its exchange. Bytes sent to several tiles count once (the exchange broadcasts them), and so
/// do bytes that several tiles of one supertile receive.
struct ExchangeCost {
  std::uint64_t exchangeCycles = 0, syncCycles = 0;
  std::uint32_t firstTile = 0, lastTile = 0;
};
ExchangeCost costOfExchange(const TargetDesc &target, const std::vector<CopyRun> &runs);

/// Internal sync cost of one BSP superstep on `target`.
std::uint64_t internalSyncCycles(const TargetDesc &target);

} // namespace poplar::detail
