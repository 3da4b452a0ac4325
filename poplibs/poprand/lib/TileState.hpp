// The random generator state poprand keeps for each graph, as the IPU keeps it in each tile's
// worker registers: UNSIGNED_INT {tiles, 6 workers, 4 words}, row t on tile t, and the SetSeed
// compute set that seeds rows of it.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstdint>
#include <vector>

namespace poprand::internal {

/// Words of state per worker (xoroshiro128+ as four 32-bit words).
constexpr unsigned kStateWords = 4;

/// The state rows of `graph`'s tiles: {tiles of graph, workers, 4}, row t on tile t. Created
/// (all zero: "unseeded", each worker then seeds itself with the default seed) on first use by
/// any graph over the same top-level graph.
poplar::Tensor tileState(poplar::Graph &graph);

/// A new state tensor with one row on each of `tiles`, for one call given a seed tensor.
poplar::Tensor scratchState(poplar::Graph &graph, const std::vector<unsigned> &tiles,
                            const poplar::DebugContext &dc);

/// Throws poplibs_error naming `api` unless `seed` is 2 UNSIGNED_INT.
void checkSeed(const poplar::Tensor &seed, const char *api);

/// Adds a compute set that seeds row i of `state` (on tiles[i]) from `seed` and `modifier`.
void addSetSeed(poplar::Graph &graph, const poplar::Tensor &state,
                const std::vector<unsigned> &tiles, const poplar::Tensor &seed,
                std::uint32_t modifier, poplar::program::Sequence &prog,
                const poplar::DebugContext &dc);

/// The tile number a vertex on `tile` of `graph` hashes into its stream: the top-level tile.
unsigned streamTile(const poplar::Graph &graph, unsigned tile);

} // namespace poprand::internal
