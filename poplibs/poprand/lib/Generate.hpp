// The one way poprand's functions build their work: per tile of the reference's mapping, one
// generating vertex over that tile's elements of the output, drawing from the tiles' state (or
// from a scratch state seeded from the seed tensor).
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace poprand::internal {

struct Generation {
  const char *api;    // "poprand::uniform", for messages
  std::string vertex; // the Vertices.def template, "Uniform"
  poplar::Type type;  // its template argument
  const poplar::Tensor *seed;
  std::uint32_t seedModifier;
  poplar::Tensor reference; // which tile makes which elements
  poplar::Tensor out;       // the result (same shape as reference)
  const poplar::Tensor *in; // an input read at the same elements (dropout), or nullptr
  std::function<void(poplar::Graph &, poplar::VertexRef)> setParams;
};

/// Adds `g`'s compute sets to `prog`: SetSeed on a scratch state when g.seed is given, then the
/// generating vertices.
void generate(poplar::Graph &graph, const Generation &g, poplar::program::Sequence &prog,
              const poplar::DebugContext &dc);

/// Throws poplibs_error naming `api` unless `t` is completely mapped to tiles of `graph`.
poplar::TileToTensorMapping completeMapping(const poplar::Graph &graph, const poplar::Tensor &t,
                                            const char *api, const char *what);

} // namespace poprand::internal
