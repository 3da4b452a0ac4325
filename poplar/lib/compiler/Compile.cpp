// The compile pipeline: validate, lay out memory, lower programs, describe it all for the profile.
#include "compiler/Compile.hpp"

#include "compiler/Layout.hpp"
#include "compiler/Liveness.hpp"
#include "compiler/Lower.hpp"
#include "compiler/Vertices.hpp"
#include "core/Errors.hpp"
#include "core/Logging.hpp"

namespace poplar::detail {

namespace {

void describeForProfile(const GraphState &graph, CompiledGraph &out) {
  auto &p = out.profile;
  const auto &t = out.target;
  p.targetType = toString(t.type);
  p.arch = t.arch;
  p.numIPUs = t.numIPUs;
  p.tilesPerIPU = t.tilesPerIPU;
  p.numTiles = t.numTiles();
  p.numWorkerContexts = t.numWorkerContexts;
  p.bytesPerTile = t.bytesPerTile;
  p.clockHz = t.clockHz;
  p.poplarVersion = POPSDK_VERSION " (open-poplar)";
  p.numVertices = graph.vertices.size();
  p.numEdges = 0;
  for (const auto &v : graph.vertices)
    p.numEdges += v.connections.size();
  p.numVariables = graph.vars.size();
  p.numComputeSets = graph.computeSets.size();
  for (const auto &step : out.steps) {
    ProfileStep ps;
    ps.lastTile = t.numTiles() - 1;
    switch (step.kind) {
    case StepKind::Compute:
      ps.kind = "OnTileExecute";
      ps.name = out.computeSets[step.arg].name;
      break;
    case StepKind::Exchange:
      ps.kind = "DoExchange";
      ps.name = out.exchanges[step.arg].name;
      ps.firstTile = out.exchanges[step.arg].firstTile;
      ps.lastTile = out.exchanges[step.arg].lastTile;
      break;
    case StepKind::StreamCopy:
      ps.kind = "StreamCopy";
      ps.name = out.streamCopies[step.arg].name;
      break;
    case StepKind::Sync:
      ps.kind = "Sync";
      break;
    case StepKind::Print:
      ps.kind = "Print";
      ps.name = out.prints[step.arg].title;
      break;
    default:
      ps.kind = "Control";
      ps.name = toString(step.kind);
      break;
    }
    p.steps.push_back(std::move(ps));
  }
}

} // namespace

std::unique_ptr<CompiledGraph>
compile(const GraphState &graph, const std::vector<program::Program> &programs,
        const std::function<void(const ProfileData &)> &onOutOfMemory) {
  auto out = std::make_unique<CompiledGraph>();
  out->target = graph.target;
  checkAllMapped(graph);
  auto liveness = analyseLiveness(graph, programs);
  TileAllocator alloc(graph.target.numTiles(), out->profile.tileMemory);
  placeCodeletData(graph, *out, alloc); // first: the same offsets on every tile
  layOutVariables(graph, liveness, *out, alloc);
  compileVertices(graph, liveness, *out, alloc);
  out->tileImages = alloc.images(graph.target.bytesPerTile);
  try {
    checkTileMemory(*out);
  } catch (const graph_memory_allocation_error &) {
    if (onOutOfMemory) {
      describeForProfile(graph, *out);
      onOutOfMemory(out->profile);
    }
    throw;
  }
  // Every stream is listed, used or not, so the host may connect any of them.
  out->streams.resize(graph.streams.size());
  for (const auto &[handle, s] : graph.streams)
    out->streams[s->id] = {handle, s->type.id(), s->numElements, s->hostToDevice};
  lowerPrograms(graph, programs, *out);
  for (const auto &[handle, access] : graph.hostAccess)
    out->hostAccess[handle] = HostAccess{locate(*out, access.tensor), access.isWrite};
  describeForProfile(graph, *out);
  logger().info("Compiled graph: {} variables, {} compute sets, {} steps over {} tiles",
                graph.vars.size(), graph.computeSets.size(), out->steps.size(),
                out->target.numTiles());
  return out;
}

} // namespace poplar::detail
