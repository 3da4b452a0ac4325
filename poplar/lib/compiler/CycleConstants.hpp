// Cycle constants of the BSP model that are not target figures; sources in docs/cycle-model.md.
#pragma once

#include <cstdint>

namespace poplar::detail {

/// A taken supervisor branch costs 6 cycles (PopLibs supervisor assembly comments, e.g.
/// "6 cycle penalty" for brnzdec): charged per Repeat iteration and per control-flow branch.
constexpr std::uint64_t kSupervisorBranchCycles = 6;

/// On-tile copies move one 64-bit word per tile cycle (ld64/st64 pairs over the worker
/// contexts), so bytes / 8.
constexpr std::uint64_t kOnTileCopyBytesPerCycle = 8;

/// Reading a control-flow scalar (If, Switch, RepeatWhile) broadcasts it to every tile: one
/// internal sync plus a single 4-byte exchange.
constexpr std::uint64_t kPredicateBroadcastBytes = 4;

} // namespace poplar::detail
