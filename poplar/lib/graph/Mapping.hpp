// Tile mapping of variables: assigning element ranges to tiles and querying them.
#pragma once

#include "graph/GraphState.hpp"

#include <functional>

namespace poplar::detail {

/// Maps elements [begin, end) of `var` to `tile`, replacing any earlier mapping of them.
void assignTile(VariableDesc &var, std::size_t begin, std::size_t end, unsigned tile);

/// Calls f(begin, end, tile) for each piece of [begin, end) of `var`, in order, with
/// tile == kUnmapped for pieces that have no tile.
void forEachMappedPiece(const VariableDesc &var, std::size_t begin, std::size_t end,
                        const std::function<void(std::size_t, std::size_t, unsigned)> &f);

} // namespace poplar::detail
