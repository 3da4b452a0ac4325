// The reduction planner's model: the input seen as runs of partial values per output region
// (Piece), gathered per tile into output regions (Group) and split between the tile's workers;
// stages of such vertices until every output is written (ReduceStages.cpp).
#pragma once

#include <popops/Reduce.hpp>

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace popops::internal {

/// One reduction, validated: the op, its types and what the final stage does.
struct ReduceSpec {
  std::string api; // for messages
  Operation op;
  bool update = false;
  bool useScale = false;
  poplar::Tensor scale; // one FLOAT element, when useScale
  poplar::Type inType, outType;
  /// The type of partial results written by one stage and read by the next.
  poplar::Type accumType;
};

/// A run of partial values of the output region [outBegin, outBegin + width), stored at
/// [begin, begin + len) of a source tensor (flattened). Rows: element k goes to output
/// outBegin + k % width (len is a whole number of rows). Continuous: element k goes to output
/// outBegin + k / (len / width), each output's partials being contiguous.
struct Piece {
  std::size_t outBegin = 0, width = 0;
  unsigned source = 0;
  std::size_t begin = 0, len = 0;
  bool continuous = false;

  std::size_t rows() const { return len / width; }
};

/// One output region and the pieces one worker folds into it. A continuous group has a single
/// continuous piece. `cost` is the worker cycles of its vertex work (ReduceCycles.hpp).
struct Group {
  std::size_t outBegin = 0, width = 0;
  bool continuous = false;
  std::vector<Piece> pieces;
  std::uint64_t cost = 0;
};

/// Dimensions of the input after dropping those of size 1 and merging neighbours that are
/// both reduced or both kept.
struct DimGroup {
  std::size_t size;
  bool reduced;
};

/// How `in` lies in memory: the order of its dimensions from the largest memory stride to the
/// smallest, and which go backwards, when `in` views one variable with a constant stride per
/// dimension (a transpose, a slice, a reversal, ...); in's own order otherwise. Reducing in this
/// order, reversed dimensions turned round, makes each tile's partials contiguous runs.
struct MemoryOrder {
  std::vector<unsigned> order;
  std::vector<bool> backwards; // per dimension of `in`
};
MemoryOrder memoryOrder(const poplar::Tensor &in);

std::vector<DimGroup> dimGroups(const std::vector<std::size_t> &shape,
                                const std::vector<bool> &reduced);

/// The pieces each tile holds of `flatIn` (source 0), whose dimensions are `groups`: runs that
/// are contiguous in memory and on one tile, each one output region's worth.
std::vector<std::vector<Piece>> inputPieces(const poplar::Graph &graph,
                                            const poplar::Tensor &flatIn,
                                            const std::vector<DimGroup> &groups);

/// Gathers one tile's pieces into groups whose output regions do not partly overlap: pieces are
/// cut where another piece's region starts or ends.
std::vector<Group> groupPieces(std::vector<Piece> pieces);

/// What the estimators need to cost a stage's vertices: the op and partials type, and the types
/// the vertices write (partial results, or the output).
struct StageTypes {
  const poplar::Target &target;
  Operation op;
  poplar::Type partialsType, outType, finalType;
};

/// The fewest rows a split of a group by rows leaves in each part (ReduceWork.cpp), so that each
/// stage folds many times fewer partial results than the one before.
constexpr std::size_t kMinRowsPerPart = 16;

/// Costs `groups` and splits them between a tile's workers (at most getNumWorkerContexts()
/// lists): large groups are cut by outputs where their partials allow it without new partial
/// results, else by rows (whose results the next stage combines).
std::vector<std::vector<Group>> splitForWorkers(std::vector<Group> groups, const StageTypes &types);

/// A piece of partial results bound for a tile of the next stage, and the tile that holds it.
struct Incoming {
  Piece piece;
  unsigned from;
};

/// The next stage's pieces on each tile from what each tile receives (`next`, by tile). The
/// rows of an output region that reach its tile from more than 2 sqrt(tiles per IPU) tiles are
/// sent instead to several of those tiles when the estimators say that an intermediate stage
/// folding them there is faster (ReduceFanIn.cpp); `spread` counts such regions. `t` is the
/// next stage's types.
std::vector<std::vector<Piece>> spreadFanIn(std::vector<std::vector<Incoming>> next,
                                            const StageTypes &t, std::size_t &spread);

/// Adds the stages that reduce the non-empty `in` over `dims` to css[0], css[1], ... and returns
/// the output: `out` when given (mapped here if `mapOut`), else a new tensor of spec.outType.
poplar::Tensor planReduction(poplar::Graph &graph, const poplar::Tensor &in,
                             std::optional<poplar::Tensor> out, bool mapOut,
                             const std::vector<std::size_t> &dims, const ReduceSpec &spec,
                             std::vector<poplar::ComputeSet> &css, const poplar::DebugContext &dc);

/// Sets every element of `out` to the identity of spec.op (scaled; nothing when updating): the
/// reduction of an input with no elements.
void reduceNothing(poplar::Graph &graph, const poplar::Tensor &out, const ReduceSpec &spec,
                   std::vector<poplar::ComputeSet> &css, const poplar::DebugContext &dc);

/// The compute set of stage `stage`, appended to `css` when missing.
poplar::ComputeSet stageComputeSet(poplar::Graph &graph, std::vector<poplar::ComputeSet> &css,
                                   unsigned stage, const poplar::DebugContext &dc);

/// "popops::ReduceAdd", ... for `op`.
std::string reduceOpName(Operation op);

} // namespace popops::internal
