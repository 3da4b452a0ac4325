// The stages of a reduction, as PopLibs plans them: each tile first folds the partials it holds
// without exchange; outputs whose partials are spread over tiles (or over a tile's workers) then
// get their partial results exchanged to the output's tile and folded there, stage after stage,
// until each output has one result; outputs with a large fan-in get an intermediate stage on
// several of the tiles that hold their partials first (ReduceFanIn.cpp). Only the final fold
// scales and updates.
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
/// group's tile (no exchange at all); outputs folded on several tiles are cut into up to two parts
/// per tile holding their partials, each tile one before any a second, to the least loaded.
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
    // Up to two parts a tile: each is a region of its own in the next stage, for a worker of its
    // own, and narrow ones stay single outputs (whose partials fold as runs) rather than 2 or 3
    // wide regions, which fold column by column ({16, 24, 64} over {0, 2}: 7,057 -> 5,653).
    const std::size_t parts = std::min(2 * s.tiles.size(), (len + grain - 1) / grain);
    std::size_t begin = s.begin;
    // Each tile a part before any gets a second: the least loaded alone drifts, giving a tile
    // two parts of a segment and another none (a {6, 4096} sum over dim 0 mapped 352 outputs to
    // one tile and 152 to another: 9,346 cycles, 8,370 with this rule).
    std::vector<unsigned> free = s.tiles;
    for (std::size_t p = 0; p < parts; ++p) {
      std::size_t end = p + 1 == parts ? s.end : s.begin + len * (p + 1) / parts / grain * grain;
      if (end <= begin)
        continue;
      if (free.empty())
        free = s.tiles;
      auto least = std::min_element(free.begin(), free.end(),
                                    [&](unsigned a, unsigned b) { return load[a] < load[b]; });
      const unsigned tile = *least;
      free.erase(least);
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

/// The stages from the pieces of the input (source 0) to the output.
class Stages {
public:
  Stages(Graph &graph, const Tensor &inFlat, const Tensor &outFlat, const ReduceSpec &spec,
         std::vector<ComputeSet> &css, const DebugContext &dc)
      : graph_(graph), outFlat_(outFlat), spec_(spec), css_(css), dc_(dc), sources_{inFlat},
        op_(spec.op), partialsType_(spec.inType) {}

  void run(std::vector<std::vector<Piece>> pieces, bool mapOut) {
    const unsigned numTiles = graph_.getTarget().getNumTiles();
    pieces.resize(numTiles);
    for (unsigned stage = 0;; ++stage) {
      stage_ = stage;
      StageTypes types{graph_.getTarget(), op_, partialsType_, spec_.accumType, spec_.outType};
      if (stage > 0)
        for (auto &tilePieces : pieces)
          tilePieces = mergeRows(std::move(tilePieces));
      StageWork work(numTiles);
      for (unsigned tile = 0; tile < numTiles; ++tile)
        if (!pieces[tile].empty())
          work[tile] = splitForWorkers(groupPieces(std::move(pieces[tile])), types);
      const Contributions contributions(outFlat_.numElements(), work);
      if (stage == 0 && mapOut)
        mapOutput(graph_, outFlat_, work, spec_.outType);
      runs_ = outRuns(graph_, outFlat_);
      cs_.reset();
      readAllInPlace_ = stage == 0 && combineOp(op_) == op_;
      for (unsigned tile = 0; tile < numTiles; ++tile)
        for (const auto &worker : work[tile])
          for (const auto &g : worker)
            if (!isFinal(g, tile, contributions) && !isOneRow(g))
              readAllInPlace_ = false;
      std::vector<std::vector<Incoming>> next(numTiles);
      for (unsigned tile = 0; tile < numTiles; ++tile)
        addTile(tile, work[tile], contributions, next);
      if (std::all_of(next.begin(), next.end(), [](const auto &p) { return p.empty(); })) {
        log(work, 0);
        return;
      }
      // Each stage folds many times fewer partial results of an output than the one before
      // (ReduceWork.cpp), so this only trips on a planner bug, before it fills the memory.
      if (stage == 64)
        raise<poputil::poplibs_error>(spec_.api, ": internal error: the reduction plan does "
                                                 "not converge after 64 stages");
      op_ = combineOp(op_);
      // Rows of the input read in place keep the input's type.
      partialsType_ = readAllInPlace_ ? spec_.inType : spec_.accumType;
      std::size_t spread = 0;
      pieces = spreadFanIn(std::move(next),
                           {graph_.getTarget(), op_, partialsType_, spec_.accumType, spec_.outType},
                           spread);
      log(work, spread);
    }
  }

private:
  /// The partial results that reach a tile from many tiles or workers arrive as many pieces of
  /// a few rows each; each would be a region of its own in the next vertex, paying the
  /// per-region cost (a scalar reduction of 1M elements gathered 8,814 one-element regions on
  /// one tile). Pieces of rows of one output region become one piece over their concatenation:
  /// the vertex edge gathers them into one buffer, paid once as exchange.
  std::vector<Piece> mergeRows(std::vector<Piece> pieces) {
    std::map<std::pair<std::size_t, std::size_t>, std::vector<Piece>> rows;
    std::vector<Piece> kept;
    for (auto &p : pieces)
      (p.continuous ? kept : rows[{p.outBegin, p.width}]).push_back(p);
    for (auto &[region, list] : rows) {
      if (list.size() == 1) {
        kept.push_back(list.front());
        continue;
      }
      std::vector<Tensor> parts;
      std::size_t len = 0;
      for (const Piece &p : list) {
        parts.push_back(sources_[p.source].slice(p.begin, p.begin + p.len));
        len += p.len;
      }
      kept.push_back({region.first, region.second, unsigned(sources_.size()), 0, len, false});
      sources_.push_back(concat(parts));
    }
    return kept;
  }

  /// What becomes of a group: it writes the output, or its one row is read in place by the
  /// next stage (no vertex), or it writes a partial result to a new variable on its tile.
  enum class Fate { Final, Forward, Partial };

  bool isFinal(const Group &g, unsigned tile, const Contributions &contributions) const {
    auto where = runsIn(runs_, g.outBegin, g.outBegin + g.width);
    return contributions.single(g.outBegin, g.outBegin + g.width) && where.size() == 1 &&
           where.front().tile == tile;
  }

  static bool isOneRow(const Group &g) {
    return g.pieces.size() == 1 && !g.continuous && g.pieces.front().len == g.width;
  }

  Fate fateOf(const Group &g, unsigned tile, const Contributions &contributions) const {
    if (isFinal(g, tile, contributions))
      return Fate::Final;
    // A row of the input has nothing to fold: the next stage can read it in place, unless this
    // stage's op is one (SQUARE_ADD) that the next does not repeat. The next stage's vertices
    // read one type: the input's, when every partial result is such a row (as PopLibs skips its
    // on-tile stage when no tile holds two partials of one output), else the partial results'.
    if (stage_ == 0 && isOneRow(g) && combineOp(op_) == op_ &&
        (readAllInPlace_ || partialsType_ == spec_.accumType))
      return Fate::Forward;
    return Fate::Partial;
  }

  /// The pieces a result at [begin, begin + width) of `source` makes for the next stage: one per
  /// tile its outputs are on.
  void passOn(unsigned tile, std::size_t outBegin, std::size_t width, unsigned source,
              std::size_t begin, std::vector<std::vector<Incoming>> &next) const {
    for (const auto &r : runsIn(runs_, outBegin, outBegin + width))
      next[r.tile].push_back(
          {{r.begin, r.end - r.begin, source, begin + (r.begin - outBegin), r.end - r.begin},
           tile});
  }

  void addTile(unsigned tile, const std::vector<std::vector<Group>> &workers,
               const Contributions &contributions, std::vector<std::vector<Incoming>> &next) {
    std::vector<std::vector<Fate>> fates(workers.size());
    std::size_t partialElems = 0;
    for (std::size_t w = 0; w < workers.size(); ++w)
      for (const auto &g : workers[w]) {
        fates[w].push_back(fateOf(g, tile, contributions));
        ++fateCounts_[int(fates[w].back())];
        if (fates[w].back() == Fate::Partial)
          partialElems += g.width;
      }
    // This tile's partial results: one new variable, a slice per group.
    Tensor temp;
    const auto tempSource = unsigned(sources_.size());
    if (partialElems) {
      temp = graph_.addVariable(spec_.accumType, {partialElems},
                                {dc_, "partials" + std::to_string(stage_)});
      graph_.setTileMapping(temp, tile);
      sources_.push_back(temp);
    }
    const VertexKind finalKind{op_,          partialsType_,  spec_.outType,
                               spec_.update, spec_.useScale, spec_.scale};
    const VertexKind partialKind{op_, partialsType_, spec_.accumType, false, false, {}};
    std::size_t offset = 0;
    for (std::size_t w = 0; w < workers.size(); ++w) {
      std::vector<const Group *> finals, partials;
      std::vector<Tensor> finalDests, partialDests;
      for (std::size_t i = 0; i < workers[w].size(); ++i) {
        const Group &g = workers[w][i];
        switch (fates[w][i]) {
        case Fate::Final:
          finals.push_back(&g);
          finalDests.push_back(outFlat_.slice(g.outBegin, g.outBegin + g.width));
          break;
        case Fate::Forward: {
          const Piece &p = g.pieces.front();
          passOn(tile, g.outBegin, g.width, p.source, p.begin, next);
          break;
        }
        case Fate::Partial:
          partials.push_back(&g);
          partialDests.push_back(temp.slice(offset, offset + g.width));
          passOn(tile, g.outBegin, g.width, tempSource, offset, next);
          offset += g.width;
          break;
        }
      }
      if (!finals.empty())
        addVertices(graph_, computeSet(), tile, finalKind, finals, finalDests, sources_);
      if (!partials.empty())
        addVertices(graph_, computeSet(), tile, partialKind, partials, partialDests, sources_);
    }
  }

  /// This stage's compute set, made when its first vertex is: a stage whose groups are all read
  /// in place adds none.
  ComputeSet computeSet() {
    if (!cs_)
      cs_ = stageComputeSet(graph_, css_, csIndex_++, dc_);
    return *cs_;
  }

  void log(const StageWork &work, std::size_t spread) {
    std::uint64_t busiest = 0;
    unsigned busiestTile = 0;
    for (unsigned tile = 0; tile < work.size(); ++tile)
      for (const auto &worker : work[tile]) {
        std::uint64_t cycles = 0;
        for (const auto &g : worker)
          cycles += g.cost;
        if (cycles > busiest) {
          busiest = cycles;
          busiestTile = tile;
        }
      }
    popsdk::support::poplibsLogger("POPOPS").debug(
        "{}: stage {}: {} final, {} read in place, {} partial groups; busiest worker on tile {} "
        "(estimate {} cycles); {} output regions folded next on several tiles first",
        spec_.api, stage_, fateCounts_[0], fateCounts_[1], fateCounts_[2], busiestTile, busiest,
        spread);
    fateCounts_[0] = fateCounts_[1] = fateCounts_[2] = 0;
  }

  Graph &graph_;
  const Tensor outFlat_;
  const ReduceSpec &spec_;
  std::vector<ComputeSet> &css_;
  const DebugContext &dc_;
  /// Tensors pieces read: the flat input, then each stage's partial results per tile.
  std::vector<Tensor> sources_;
  Operation op_;
  Type partialsType_;
  unsigned stage_ = 0, csIndex_ = 0;
  bool readAllInPlace_ = false;
  std::optional<ComputeSet> cs_;
  std::vector<OutRun> runs_;
  std::size_t fateCounts_[3] = {0, 0, 0};
};

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

  // Reduce the input with its dimensions in memory order, and the backward ones turned round;
  // the output's kept dimensions follow the same order and turns (the order of the partials of
  // an output does not matter), so that runs of the input meet runs of the output.
  const auto memory = memoryOrder(in);
  Tensor inP = in.dimShuffle(memory.order);
  std::vector<std::size_t> shapeP, outShapeP;
  std::vector<bool> reducedP;
  std::vector<unsigned> outOrder, outBackwards;
  for (unsigned i = 0; i < rank; ++i) {
    const unsigned d = memory.order[i];
    shapeP.push_back(in.dim(d));
    reducedP.push_back(reduced[d]);
    if (memory.backwards[d])
      inP = inP.reverse(i);
    if (!reduced[d]) {
      if (memory.backwards[d])
        outBackwards.push_back(unsigned(outShapeP.size()));
      outShapeP.push_back(in.dim(d));
      outOrder.push_back(outDimOf[d]);
    }
  }
  Tensor result, outP;
  if (out) {
    result = *out;
    outP = out->dimShuffle(outOrder);
    for (unsigned d : outBackwards)
      outP = outP.reverse(d);
  } else {
    // A new output is laid out in the order the reduction writes it.
    outP = graph.addVariable(spec.outType, outShapeP, {dc, "out"});
    result = outP;
    for (unsigned d : outBackwards)
      result = result.reverse(d);
    result = result.dimShuffle(inversePermutation(outOrder));
    mapOut = true;
  }
  const Tensor inFlat = inP.flatten(), outFlat = outP.flatten();
  auto pieces = inputPieces(graph, inFlat, dimGroups(shapeP, reducedP));
  Stages(graph, inFlat, outFlat, spec, css, dc).run(std::move(pieces), mapOut);
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
