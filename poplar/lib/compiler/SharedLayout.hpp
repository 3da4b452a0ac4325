// Address sharing within one tile: an interference graph of not-always-live blocks, coloured.
#pragma once

#include "compiler/Liveness.hpp"

#include <cstdint>
#include <vector>

namespace poplar::detail {

/// A not-always-live block of tile memory and the steps at which its contents matter.
struct SharedBlock {
  std::uint64_t bytes = 0;
  std::uint32_t align = 4;
  std::vector<StepRange> live;
};

struct SharedLayout {
  std::vector<std::uint64_t> offsets; // per block, from the start of the region
  std::uint64_t size = 0;             // bytes of the region
  std::uint32_t align = 1;            // the region's start must be aligned to this
};

/// Blocks whose live steps meet interfere; the interference graph is coloured with
/// boost::sequential_vertex_coloring (largest blocks first) and each colour gets one slot as big
/// as its largest block, so blocks that never live at the same step share addresses.
/// Deterministic: the same blocks give the same layout.
SharedLayout layOutShared(const std::vector<SharedBlock> &blocks);

} // namespace poplar::detail
