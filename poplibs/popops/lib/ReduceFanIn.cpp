// The intermediate stage of a reduction with a large fan-in: when an output's partial results come
// from more tiles than PopLibs goes straight to the output with (2 sqrt(tiles per IPU),
// ReductionPlan.cpp's calculateNextStep), they are first folded on several of the tiles that
// hold them, if the estimators (vertex cycles, exchange bytes, one more sync) say that is faster
// than gathering them all on the output's tile.
#include "ReduceCycles.hpp"
#include "ReducePlan.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace popops::internal {

namespace {

/// The cost model of one stage's fold of `rows` rows of `width` outputs on one tile, in tile
/// cycles: the rows' exchange to the tile, then the Reduce vertex (regionFoldCycles, in worker
/// cycles: a tile cycle per worker context each, docs/cycle-model.md) on each worker sharing them.
class FoldModel {
public:
  FoldModel(const StageTypes &t, std::size_t width)
      : t_(t), width_(width), bytes_(t.target.getTypeSize(t.partialsType)),
        workers_(t.target.getNumWorkerContexts()) {}

  /// The partial results a tile folding `rows` rows hands on: one per worker it splits them to.
  std::uint64_t parts(std::uint64_t rows) const {
    return std::clamp<std::uint64_t>(rows / kMinRowsPerPart, 1, workers_);
  }

  std::uint64_t cycles(std::uint64_t rows) const {
    const std::uint64_t perWorker = (rows + parts(rows) - 1) / parts(rows);
    ReduceVertexCost v{t_.target, t_.op, t_.partialsType, t_.outType, false, false};
    const std::uint64_t fold = regionFoldCycles(v, width_, perWorker);
    const std::uint64_t perCycle = std::max(1u, t_.target.getExchangeBytesPerCycle());
    return (rows * width_ * bytes_ + perCycle - 1) / perCycle + workers_ * fold;
  }

private:
  const StageTypes &t_;
  std::size_t width_;
  unsigned bytes_, workers_;
};

/// How many tiles to fold `rows` rows from `sources` tiles on before the output's tile, by the
/// model: 1 when gathering them on the output's tile is as fast. At most `limit`, so that the
/// stage after goes to the output. The intermediate stage adds a compute set and an exchange,
/// each after a sync.
std::size_t chooseSpread(std::uint64_t rows, std::size_t sources, std::size_t limit,
                         std::size_t width, const StageTypes &t) {
  const FoldModel model(t, width);
  const std::uint64_t stage = 2 * std::uint64_t(t.target.getMaxIPUSyncDelay());
  std::uint64_t best = model.cycles(rows);
  std::size_t bestK = 1;
  for (std::size_t k = 2; k <= sources && k <= rows && k <= limit; ++k) {
    const std::uint64_t share = (rows + k - 1) / k;
    const std::uint64_t c = model.cycles(share) + stage + model.cycles(k * model.parts(share));
    if (c < best) {
      best = c;
      bestK = k;
    }
  }
  return bestK;
}

} // namespace

std::vector<std::vector<Piece>> spreadFanIn(std::vector<std::vector<Incoming>> next,
                                            const StageTypes &t, std::size_t &spread) {
  const unsigned numTiles = unsigned(next.size());
  const auto limit = std::size_t(2 * std::sqrt(double(t.target.getTilesPerIPU())));
  std::vector<std::vector<Piece>> pieces(numTiles);
  // Elements each tile folds for spread outputs.
  std::vector<std::size_t> load(numTiles, 0);
  for (unsigned tile = 0; tile < numTiles; ++tile) {
    // This tile's incoming rows pieces by output region; continuous ones never come from
    // another stage.
    std::map<std::pair<std::size_t, std::size_t>, std::vector<Incoming>> regions;
    for (auto &in : next[tile]) {
      if (in.piece.continuous)
        pieces[tile].push_back(in.piece);
      else
        regions[{in.piece.outBegin, in.piece.width}].push_back(in);
    }
    for (auto &[region, list] : regions) {
      std::sort(list.begin(), list.end(),
                [](const Incoming &a, const Incoming &b) { return a.from < b.from; });
      std::size_t sources = 0;
      std::uint64_t rows = 0;
      for (std::size_t i = 0; i < list.size(); ++i) {
        sources += i == 0 || list[i].from != list[i - 1].from;
        rows += list[i].piece.rows();
      }
      const std::size_t k =
          sources > limit ? chooseSpread(rows, sources, limit, region.second, t) : 1;
      if (k == 1) {
        for (auto &in : list)
          pieces[tile].push_back(in.piece);
        continue;
      }
      ++spread;
      // k runs of consecutive source tiles with about rows / k rows each; each run is folded on
      // the one of its tiles that has the fewest elements to fold so far (many outputs may
      // choose among the same tiles).
      std::size_t begin = 0;
      std::uint64_t done = 0;
      for (std::size_t part = 0; part < k && begin < list.size(); ++part) {
        const std::uint64_t target = rows * (part + 1) / k;
        std::size_t end = begin;
        do
          done += list[end++].piece.rows();
        while (end < list.size() && done < target);
        if (part + 1 == k)
          end = list.size();
        // Pieces of one source tile stay together.
        while (end < list.size() && list[end].from == list[end - 1].from)
          done += list[end++].piece.rows();
        unsigned to = list[begin].from;
        std::size_t elems = 0;
        for (std::size_t i = begin; i < end; ++i) {
          elems += list[i].piece.len;
          if (load[list[i].from] < load[to])
            to = list[i].from;
        }
        load[to] += elems;
        for (std::size_t i = begin; i < end; ++i)
          pieces[to].push_back(list[i].piece);
        begin = end;
      }
    }
  }
  return pieces;
}

} // namespace popops::internal
