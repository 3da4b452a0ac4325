// The stages of a reduction, as PopLibs plans them: each tile first folds the partials it holds
// without exchange; outputs whose partials are spread over tiles (or over a tile's workers) then
// get their partial results exchanged to the output's tile and folded there, stage after stage,
// until each output has one result. Only that final fold scales and updates.
#include "ReduceCycles.hpp"
#include "ReducePlan.hpp"

#include "support/Logging.hpp"
#include "support/Raise.hpp"

#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <map>
#include <numeric>

#include "popops/ReduceOps.hpp"

namespace popops::internal {

using namespace poplar;
using popsdk::support::raise;

std::string reduceOpName(Operation op) {
#define POPOPS_REDUCE_OP_NAME(unused, operation, reduceOp, pairs, scaleAndUpdate)                  \
  if (op == Operation::operation)                                                                  \
    return "popops::" #reduceOp;
  POPOPS_REDUCE_OPS(POPOPS_REDUCE_OP_NAME, unused)
#undef POPOPS_REDUCE_OP_NAME
  raise<poputil::poplibs_error>("reduce: unknown operation ", static_cast<int>(op));
}

ComputeSet stageComputeSet(Graph &graph, std::vector<ComputeSet> &css, unsigned stage,
                           const DebugContext &dc) {
  while (css.size() <= stage)
    css.push_back(graph.addComputeSet({dc, "ReduceStage" + std::to_string(css.size())}));
  return css[stage];
}

namespace {

/// Where the output's elements are: runs of one tile, sorted.
struct OutRun {
  std::size_t begin, end;
  unsigned tile;
};

std::vector<OutRun> outRuns(const Graph &graph, const Tensor &outFlat) {
  std::vector<OutRun> runs;
  auto mapping = graph.getTileMapping(outFlat);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &iv : mapping[tile])
      if (iv.size())
        runs.push_back({iv.begin(), iv.end(), tile});
  std::sort(runs.begin(), runs.end(),
            [](const OutRun &a, const OutRun &b) { return a.begin < b.begin; });
  return runs;
}

/// The runs overlapping [begin, end), each clipped to it.
std::vector<OutRun> runsIn(const std::vector<OutRun> &runs, std::size_t begin, std::size_t end) {
  std::vector<OutRun> out;
  auto it = std::upper_bound(runs.begin(), runs.end(), begin,
                             [](std::size_t pos, const OutRun &r) { return pos < r.begin; });
  if (it != runs.begin())
    --it;
  for (; it != runs.end() && it->begin < end; ++it)
    if (it->end > begin)
      out.push_back({std::max(begin, it->begin), std::min(end, it->end), it->tile});
  return out;
}

/// Each tile's groups, per worker.
using StageWork = std::vector<std::vector<std::vector<Group>>>;

/// How many groups of the stage fold into each output: one means the group's result is final.
class Contributions {
public:
  Contributions(std::size_t numOutputs, const StageWork &work) : notSingle_(numOutputs + 1, 0) {
    std::vector<long long> delta(numOutputs + 1, 0);
    for (const auto &tile : work)
      for (const auto &worker : tile)
        for (const auto &g : worker) {
          ++delta[g.outBegin];
          --delta[g.outBegin + g.width];
        }
    long long count = 0;
    for (std::size_t o = 0; o < numOutputs; ++o) {
      count += delta[o];
      notSingle_[o + 1] = notSingle_[o] + (count != 1);
    }
  }
  bool single(std::size_t begin, std::size_t end) const {
    return notSingle_[end] == notSingle_[begin];
  }

private:
  std::vector<std::size_t> notSingle_; // prefix counts of outputs with other than one group
};

/// Maps the output where its partial results are: an output one group folds goes to that
/// group's tile (no exchange at all); outputs folded on several tiles are cut into grains spread
/// over those tiles, each to the least loaded.
void mapOutput(Graph &graph, const Tensor &outFlat, const StageWork &work, const Type &outType) {
  struct Event {
    std::size_t pos;
    unsigned tile;
    int delta;
  };
  std::vector<Event> events;
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const auto &worker : work[tile])
      for (const auto &g : worker) {
        events.push_back({g.outBegin, tile, +1});
        events.push_back({g.outBegin + g.width, tile, -1});
      }
  std::sort(events.begin(), events.end(),
            [](const Event &a, const Event &b) { return a.pos < b.pos; });
  struct Segment {
    std::size_t begin, end;
    std::vector<unsigned> tiles;
    std::size_t groups;
  };
  std::vector<Segment> segments;
  std::map<unsigned, int> active;
  for (std::size_t i = 0; i < events.size();) {
    std::size_t pos = events[i].pos;
    for (; i < events.size() && events[i].pos == pos; ++i)
      if ((active[events[i].tile] += events[i].delta) == 0)
        active.erase(events[i].tile);
    if (i == events.size() || active.empty() || events[i].pos == pos)
      continue;
    Segment s{pos, events[i].pos, {}, 0};
    for (const auto &[tile, n] : active) {
      s.tiles.push_back(tile);
      s.groups += std::size_t(n);
    }
    if (!segments.empty() && segments.back().end == s.begin && segments.back().tiles == s.tiles)
      segments.back().end = s.end;
    else
      segments.push_back(std::move(s));
  }
  const auto &target = graph.getTarget();
  // Never two tiles writing one word; whole blocks of the Reduce vertex's column loop (8
  // outputs) when there are enough outputs to go round.
  const std::size_t minGrain =
      std::max(1u, target.getAtomicStoreGranularity() / target.getTypeSize(outType));
  TileToTensorMapping mapping(target.getNumTiles());
  std::vector<std::uint64_t> load(target.getNumTiles(), 0);
  for (const auto &s : segments) {
    const std::size_t len = s.end - s.begin;
    const std::size_t grain =
        len >= 8 * s.tiles.size() ? std::max<std::size_t>(8, minGrain) : minGrain;
    const std::size_t parts = std::min(s.tiles.size(), (len + grain - 1) / grain);
    std::size_t begin = s.begin;
    for (std::size_t p = 0; p < parts; ++p) {
      std::size_t end = p + 1 == parts ? s.end : s.begin + len * (p + 1) / parts / grain * grain;
      if (end <= begin)
        continue;
      unsigned tile = *std::min_element(s.tiles.begin(), s.tiles.end(),
                                        [&](unsigned a, unsigned b) { return load[a] < load[b]; });
      mapping[tile].push_back(Interval(begin, end));
      load[tile] += (end - begin) * s.groups;
      begin = end;
    }
  }
  graph.setTileMapping(outFlat, mapping);
}

/// One worker's groups of one kind (all final or all partial results) as vertices on `tile`:
/// the rows groups in one Reduce vertex, each continuous group in a ContinuousReduce.
struct VertexKind {
  Operation op;
  Type partialsType, outType;
  bool update, scaled;
  Tensor scale;
};

void addVertices(Graph &graph, ComputeSet cs, unsigned tile, const VertexKind &kind,
                 const std::vector<const Group *> &groups, const std::vector<Tensor> &dests,
                 const std::vector<Tensor> &sources) {
  const std::string opName = reduceOpName(kind.op);
  std::vector<Tensor> outs, partials;
  std::vector<unsigned short> numPartials;
  auto connectScale = [&](VertexRef v) {
    if (kind.scaled)
      graph.connect(v["k"], kind.scale);
  };
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const Group &g = *groups[i];
    if (g.continuous) {
      const Piece &p = g.pieces.front();
      auto name = poputil::templateVertex(kind.scaled ? "popops::ScaledContinuousReduce"
                                                      : "popops::ContinuousReduce",
                                          opName, kind.partialsType, kind.outType, kind.update);
      VertexRef v = graph.addVertex(cs, name);
      graph.connect(v["partials"], sources[p.source].slice(p.begin, p.begin + p.len));
      graph.connect(v["out"], dests[i]);
      graph.setInitialValue(v["numOutputsM1"], unsigned(g.width - 1));
      graph.setInitialValue(v["numPartials"], unsigned(p.len / g.width));
      connectScale(v);
      graph.setTileMapping(v, tile);
      continue;
    }
    outs.push_back(dests[i]);
    numPartials.push_back(static_cast<unsigned short>(g.pieces.size()));
    for (const auto &p : g.pieces)
      partials.push_back(sources[p.source].slice(p.begin, p.begin + p.len));
  }
  if (outs.empty())
    return;
  auto name = poputil::templateVertex(kind.scaled ? "popops::ScaledReduce" : "popops::Reduce",
                                      opName, kind.partialsType, kind.outType, kind.update);
  VertexRef v = graph.addVertex(cs, name);
  graph.connect(v["out"], outs);
  Tensor counts = graph.addConstant(UNSIGNED_SHORT, {numPartials.size()},
                                    ArrayRef<unsigned short>(numPartials), "numPartials");
  graph.setTileMapping(counts, tile);
  graph.connect(v["numPartials"], counts);
  graph.connect(v["partials"], partials);
  connectScale(v);
  graph.setTileMapping(v, tile);
}

Operation combineOp(Operation op) {
  // Squares are taken once, by the first stage; later stages add them.
  return op == Operation::SQUARE_ADD ? Operation::ADD : op;
}

/// Runs the stages from the pieces of the input (source 0) to the output.
void runStages(Graph &graph, const Tensor &inFlat, const Tensor &outFlat,
               std::vector<std::vector<Piece>> tilePieces, bool mapOut, const ReduceSpec &spec,
               std::vector<ComputeSet> &css, const DebugContext &dc) {
  const auto &target = graph.getTarget();
  const unsigned numTiles = target.getNumTiles();
  tilePieces.resize(numTiles);
  std::vector<Tensor> sources{inFlat};
  Operation op = spec.op;
  Type partialsType = spec.inType;
  for (unsigned stage = 0;; ++stage) {
    StageTypes types{target, op, partialsType, spec.accumType};
    StageWork work(numTiles);
    for (unsigned tile = 0; tile < numTiles; ++tile)
      if (!tilePieces[tile].empty())
        work[tile] = splitForWorkers(groupPieces(std::move(tilePieces[tile])), types);
    Contributions contributions(outFlat.numElements(), work);
    if (stage == 0 && mapOut)
      mapOutput(graph, outFlat, work, spec.outType);
    const auto runs = outRuns(graph, outFlat);
    ComputeSet cs = stageComputeSet(graph, css, stage, dc);
    const VertexKind finalKind{op,          partialsType,  spec.outType,
                               spec.update, spec.useScale, spec.scale};
    const VertexKind partialKind{op, partialsType, spec.accumType, false, false, {}};
    // A group of one row has nothing to fold: the next stage can read that row where it is, if
    // it reads the same type and this stage's op is not one (SQUARE_ADD) that it does not
    // repeat.
    auto forwardable = [&](const Group &g) {
      return stage == 0 && g.pieces.size() == 1 && !g.continuous &&
             g.pieces.front().len == g.width && partialsType == spec.accumType &&
             combineOp(op) == op;
    };

    std::vector<std::vector<Piece>> next(numTiles);
    bool more = false;
    std::size_t counts[3] = {0, 0, 0};
    std::uint64_t busiest = 0;
    unsigned busiestTile = 0;
    for (unsigned tile = 0; tile < numTiles; ++tile) {
      for (const auto &worker : work[tile]) {
        std::uint64_t cycles = 0;
        for (const auto &g : worker)
          cycles += g.cost;
        if (cycles > busiest) {
          busiest = cycles;
          busiestTile = tile;
        }
      }
      // Each group is final (writes the output), forwarded (its one row already is a partial
      // result of the next stage: no vertex) or partial (writes a slice of one new variable on
      // this tile).
      enum class Fate { Final, Forward, Partial };
      std::size_t partialElems = 0;
      std::vector<std::vector<Fate>> fates(work[tile].size());
      for (std::size_t w = 0; w < work[tile].size(); ++w)
        for (const auto &g : work[tile][w]) {
          auto where = runsIn(runs, g.outBegin, g.outBegin + g.width);
          Fate fate = Fate::Partial;
          if (contributions.single(g.outBegin, g.outBegin + g.width) && where.size() == 1 &&
              where.front().tile == tile)
            fate = Fate::Final;
          else if (forwardable(g))
            fate = Fate::Forward;
          fates[w].push_back(fate);
          ++counts[int(fate)];
          if (fate == Fate::Partial)
            partialElems += g.width;
        }
      Tensor temp;
      unsigned tempSource = 0;
      if (partialElems) {
        temp = graph.addVariable(spec.accumType, {partialElems},
                                 {dc, "partials" + std::to_string(stage)});
        graph.setTileMapping(temp, tile);
        tempSource = unsigned(sources.size());
        sources.push_back(temp);
        more = true;
      }
      std::size_t offset = 0;
      for (std::size_t w = 0; w < work[tile].size(); ++w) {
        std::vector<const Group *> finals, partials;
        std::vector<Tensor> finalDests, partialDests;
        for (std::size_t i = 0; i < work[tile][w].size(); ++i) {
          const Group &g = work[tile][w][i];
          if (fates[w][i] == Fate::Final) {
            finals.push_back(&g);
            finalDests.push_back(outFlat.slice(g.outBegin, g.outBegin + g.width));
            continue;
          }
          if (fates[w][i] == Fate::Forward) {
            const Piece &p = g.pieces.front();
            for (const auto &r : runsIn(runs, g.outBegin, g.outBegin + g.width))
              next[r.tile].push_back({r.begin, r.end - r.begin, p.source,
                                      p.begin + (r.begin - g.outBegin), r.end - r.begin, false});
            more = true;
            continue;
          }
          partials.push_back(&g);
          partialDests.push_back(temp.slice(offset, offset + g.width));
          // The next stage folds this result on the tiles of its outputs.
          for (const auto &r : runsIn(runs, g.outBegin, g.outBegin + g.width))
            next[r.tile].push_back({r.begin, r.end - r.begin, tempSource,
                                    offset + (r.begin - g.outBegin), r.end - r.begin, false});
          offset += g.width;
        }
        addVertices(graph, cs, tile, finalKind, finals, finalDests, sources);
        addVertices(graph, cs, tile, partialKind, partials, partialDests, sources);
      }
    }
    popsdk::support::poplibsLogger("POPOPS").debug(
        "{}: stage {}: {} final, {} forwarded, {} partial groups; busiest worker on tile "
        "{} (estimate {} cycles)",
        spec.api, stage, counts[0], counts[1], counts[2], busiestTile, busiest);
    if (!more)
      return;
    // Each stage at least halves the partial results of an output (ReduceWork.cpp), so this
    // only trips on a planner bug, before it fills the memory with stages.
    if (stage == 64)
      raise<poputil::poplibs_error>(spec.api, ": internal error: the reduction plan does not "
                                              "converge after 64 stages");
    op = combineOp(op);
    partialsType = spec.accumType;
    tilePieces = std::move(next);
  }
}

std::vector<unsigned> inversePermutation(const std::vector<unsigned> &perm) {
  std::vector<unsigned> inv(perm.size());
  for (unsigned i = 0; i < perm.size(); ++i)
    inv[perm[i]] = i;
  return inv;
}

} // namespace

Tensor planReduction(Graph &graph, const Tensor &in, std::optional<Tensor> out, bool mapOut,
                     const std::vector<std::size_t> &dims, const ReduceSpec &spec,
                     std::vector<ComputeSet> &css, const DebugContext &dc) {
  const unsigned rank = in.rank();
  std::vector<bool> reduced(rank, false);
  for (auto d : dims)
    reduced[d] = true;
  // Position of each kept input dimension among the output's dimensions.
  std::vector<unsigned> outDimOf(rank, 0);
  for (unsigned d = 0, o = 0; d < rank; ++d)
    if (!reduced[d])
      outDimOf[d] = o++;

  // Reduce the input with its dimensions in memory order; the output's kept dimensions follow
  // the same order, so that runs of the input meet runs of the output.
  const auto order = memoryOrder(in);
  const Tensor inP = in.dimShuffle(order);
  std::vector<std::size_t> shapeP, outShapeP;
  std::vector<bool> reducedP;
  std::vector<unsigned> outOrder;
  for (unsigned d : order) {
    shapeP.push_back(in.dim(d));
    reducedP.push_back(reduced[d]);
    if (!reduced[d]) {
      outShapeP.push_back(in.dim(d));
      outOrder.push_back(outDimOf[d]);
    }
  }
  Tensor result, outP;
  if (out) {
    result = *out;
    outP = out->dimShuffle(outOrder);
  } else {
    outP = graph.addVariable(spec.outType, outShapeP, {dc, "out"});
    result = outP.dimShuffle(inversePermutation(outOrder));
    mapOut = true;
  }
  const Tensor inFlat = inP.flatten(), outFlat = outP.flatten();
  auto pieces = inputPieces(graph, inFlat, dimGroups(shapeP, reducedP));
  runStages(graph, inFlat, outFlat, std::move(pieces), mapOut, spec, css, dc);
  return result;
}

void reduceNothing(Graph &graph, const Tensor &out, const ReduceSpec &spec,
                   std::vector<ComputeSet> &css, const DebugContext &dc) {
  // Updating with the identity leaves the output as it is.
  if (spec.update)
    return;
  const auto &target = graph.getTarget();
  const Tensor outFlat = out.flatten();
  const auto mapping = graph.getTileMapping(outFlat);
  // The identity is what a region with no partials gets; it does not change when scaled.
  const VertexKind kind{spec.op, spec.outType, spec.outType, false, false, {}};
  ComputeSet cs = stageComputeSet(graph, css, 0, dc);
  const unsigned grain = std::max(1u, target.getVectorWidth(spec.outType));
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    for (const auto &regions : poputil::splitRegionsBetweenWorkers(target, mapping[tile], grain)) {
      std::vector<Group> groups;
      std::vector<Tensor> dests;
      for (const auto &r : regions) {
        Group g;
        g.outBegin = r.begin();
        g.width = r.size();
        groups.push_back(g);
        dests.push_back(outFlat.slice(r.begin(), r.end()));
      }
      std::vector<const Group *> ptrs;
      for (const auto &g : groups)
        ptrs.push_back(&g);
      addVertices(graph, cs, tile, kind, ptrs, dests, {});
    }
  }
}

} // namespace popops::internal
