// The output of graph compilation: tile memory images and a flat list of steps; self-contained
// (no reference to the Graph) so it can be serialised and loaded by an Engine.
#pragma once

#include "profile/ProfileData.hpp"
#include "target/TargetDesc.hpp"

#include <poplar/Type.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace poplar::detail {

/// Tile addresses seen by vertex code start here, so that a null pointer never hits memory.
constexpr std::uint32_t kTileMemoryBase = 0x40000;

/// `bytes` bytes at `offset` in the memory image of `tile`.
struct MemRun {
  std::uint32_t tile = 0, offset = 0, bytes = 0;
};

/// A byte copy between (or within) tiles.
struct CopyRun {
  std::uint32_t srcTile = 0, srcOffset = 0, dstTile = 0, dstOffset = 0, bytes = 0;
};

/// Where each element of a variable lives.
struct Placement {
  std::uint64_t begin = 0, end = 0; // element interval of the variable
  std::uint32_t tile = 0, offset = 0;
};

struct CompiledVariable {
  std::string name;
  Type::Id type = Type::Id::INVALID;
  std::uint64_t numElements = 0;
  bool isConstant = false;
  std::vector<Placement> placements;
};

/// A tensor's bytes in element order, as runs of tile memory.
struct TensorLocation {
  Type::Id type = Type::Id::INVALID;
  std::vector<std::uint64_t> shape;
  std::vector<MemRun> runs;
  std::uint64_t numBytes() const {
    std::uint64_t n = 0;
    for (const auto &r : runs)
      n += r.bytes;
    return n;
  }
};

/// A loaded codelet object: the .gp bytes, and where its data section sits on every tile that
/// runs its vertices (the same offset everywhere, so its code is relocated once).
struct CompiledCodelet {
  std::vector<std::uint8_t> gpBytes;
  std::uint32_t dataOffset = 0;
};

struct CompiledVertexType {
  std::string name;
  std::uint32_t codelet = 0; // index into CompiledGraph::codelets
  std::uint32_t entry = 0;   // pc of the entry point
  bool multiVertex = false;
};

/// Each tile that runs vertices has one stack per worker context at `offset`.
struct TileStacks {
  std::uint32_t offset = 0, bytesPerWorker = 0;
};

/// What a FieldRegion holds: an edge's data (by the field's direction), the data of a vertex's
/// own `Vector` member (State), or the {address, count} descriptors of a list field.
enum class RegionKind : std::uint8_t { Input, Output, InOut, State, Descriptors };

/// Bytes of tile memory a vertex is given through one field (or one element of a list field),
/// besides its state, stack and codelet data: what debug.checkMemoryAccess lets it touch, and
/// what its errors name.
struct FieldRegion {
  std::uint32_t offset = 0, bytes = 0; // on the vertex's tile
  std::uint32_t variable = ~0u;        // variable of the data's first element, or ~0u
  std::uint32_t element = ~0u;         // element of a VectorList or Vector of edges, or ~0u
  std::uint16_t field = 0;             // index into the codelet vertex's fields (gp::Vertex)
  RegionKind kind = RegionKind::Input;
};

/// One vertex as placed on its tile: its state block holds the field pointers and sizes.
struct VertexInstance {
  std::uint32_t vertexType = 0; // index into CompiledGraph::vertexTypes
  std::uint32_t id = 0;         // the graph's vertex id, for messages
  std::uint32_t tile = 0;
  std::uint32_t stateOffset = 0, stateBytes = 0;
  std::int64_t perfEstimate = -1;             // setPerfEstimate cycles, or -1
  std::uint32_t firstRegion = 0, regions = 0; // its FieldRegions in CompiledComputeSet::regions
};

struct CompiledComputeSet {
  std::string name;
  std::vector<VertexInstance> vertices; // sorted by tile
  std::vector<FieldRegion> regions;     // each vertex's, in vertex order
  /// Copies that gather field data that is remote or not contiguous into a buffer on the
  /// vertex's tile before the vertices run, and scatter outputs back after; exchange cycles of
  /// each (0 if there is nothing to copy).
  std::vector<CopyRun> copyIn, copyOut;
  std::uint64_t copyInCycles = 0, copyOutCycles = 0;
};

struct CompiledExchange {
  std::string name;
  std::vector<CopyRun> runs;
  std::uint64_t exchangeCycles = 0; // busiest tile's bytes over the exchange rate
  std::uint64_t syncCycles = 0;
  std::uint32_t firstTile = 0, lastTile = 0;
  bool staged = false; // sources and destinations overlap: read everything, then write
};

struct CompiledStreamCopy {
  std::string name;
  std::uint32_t stream = 0; // index into CompiledGraph::streams
  bool toDevice = true;
  std::vector<MemRun> runs;
  std::uint64_t hostCycles = 0; // bytes over the host link rate
  std::uint64_t syncCycles = 0; // the external sync with the host
};

struct CompiledStream {
  std::string handle;
  Type::Id type = Type::Id::INVALID;
  std::uint64_t numElements = 0;
  bool toDevice = true;
};

struct CompiledPrint {
  std::string title;
  TensorLocation tensor;
};

/// A scalar read by control flow (If, Switch, RepeatWhile*, Error), with the exchange that
/// broadcasts it to all tiles costed by the step.
struct ScalarRef {
  Type::Id type = Type::Id::INVALID;
  std::uint32_t tile = 0, offset = 0;
};

struct CompiledSwitch {
  ScalarRef control;
  std::vector<std::pair<std::int32_t, std::uint32_t>> cases; // value -> step index
  std::uint32_t defaultTarget = 0;
};

struct CompiledError {
  std::string message;
  CompiledPrint debugTensor;
};

#define POPLAR_STEP_KINDS(X)                                                                       \
  X(Compute)         /* arg: compute set index */                                                  \
  X(Exchange)        /* arg: exchange index */                                                     \
  X(StreamCopy)      /* arg: stream copy index */                                                  \
  X(Print)           /* arg: print index */                                                        \
  X(Sync)            /* arg: 0 internal, 1 external/global */                                      \
  X(Jump)            /* target */                                                                  \
  X(BranchIfZero)    /* arg: scalar index; target taken when the scalar is zero */                 \
  X(BranchIfNonZero) /* arg: scalar index; target taken when the scalar is non-zero */             \
  X(LoopBegin)       /* arg: count; target: the step after the loop */                             \
  X(LoopNext)        /* target: the first step of the body */                                      \
  X(Call)            /* target: function entry */                                                  \
  X(Return)          /* */                                                                         \
  X(Switch)          /* arg: switch index */                                                       \
  X(Error)           /* arg: error index */                                                        \
  X(End)             /* end of a program */

enum class StepKind : std::uint8_t {
#define X(k) k,
  POPLAR_STEP_KINDS(X)
#undef X
};
const char *toString(StepKind k);

struct Step {
  StepKind kind = StepKind::End;
  std::uint32_t arg = 0;
  std::uint32_t target = 0;
};

struct HostAccess {
  TensorLocation tensor;
  bool isWrite = true;
};

struct CompiledGraph {
  TargetDesc target;
  std::vector<CompiledVariable> variables;
  /// Initial memory of each tile: variables (zeroed), constants, vertex state.
  std::vector<std::vector<std::uint8_t>> tileImages;
  std::vector<CompiledCodelet> codelets;
  std::vector<CompiledVertexType> vertexTypes;
  std::vector<TileStacks> stacks; // one per tile (bytesPerWorker 0 where no vertex runs)
  std::vector<CompiledComputeSet> computeSets;
  std::vector<CompiledExchange> exchanges;
  std::vector<CompiledStreamCopy> streamCopies;
  std::vector<CompiledStream> streams;
  std::vector<CompiledPrint> prints;
  std::vector<ScalarRef> scalars;
  std::vector<CompiledSwitch> switches;
  std::vector<CompiledError> errors;
  std::vector<Step> steps;
  std::vector<std::uint32_t> programEntries; // first step of each program
  std::vector<std::string> programNames;
  /// Streams each program uses (including through Call), checked as connected before a run.
  std::vector<std::vector<std::uint32_t>> programStreams;
  std::map<std::string, HostAccess> hostAccess;
  /// The compile-time half of the profile (target, graph, memory, steps).
  ProfileData profile;

  /// How many worker runs a vertex of `type` makes: one per worker context for a MultiVertex.
  unsigned runsOf(const CompiledVertexType &type) const {
    return type.multiVertex ? target.numWorkerContexts : 1;
  }
};

} // namespace poplar::detail
