// The ConvPartialnx1 planner: enumerate the splits of groups, batch, output rows and output
// channels, price each tile's exchange and vertex with the worklist it would run.
#include "ConvNx1Plan.hpp"

#include "ConvLowering.hpp"
#include "CycleEstimators.hpp"
#include "PlanRanking.hpp"

#include <algorithm>
#include <vector>

namespace poplin::internal {

namespace {

using Plan = MatMulPlan;
/// The fewest parts of each largest-part size of a dimension of `size`, at most `limit` parts:
/// the busiest tile's block is the largest part, so more parts of the same size add nothing.
std::vector<unsigned> partCounts(std::size_t size, unsigned limit) {
  std::vector<unsigned> counts;
  for (unsigned parts = 1; parts <= std::min(unsigned(size), limit); ++parts)
    if (parts == 1 ||
        Plan::ceilDiv(unsigned(size), parts) < Plan::ceilDiv(unsigned(size), parts - 1))
      counts.push_back(parts);
  return counts;
}

MatMulCost costOf(const poplar::Target &target, const ConvParams &p,
                  const poplar::Type &partialsType, const ConvNx1Split &split) {
  const auto out = stridedOutputShape(p);
  const unsigned groups = Plan::ceilDiv(unsigned(p.numConvGroups), split.groups);
  const unsigned n = Plan::ceilDiv(unsigned(p.outputChannelsPerConvGroup), split.n);
  const unsigned inChans = unsigned(p.inputChannelsPerConvGroup);
  const std::uint64_t inBytes = target.getTypeSize(p.inputType);
  MatMulCost c;
  // The slowest tile: the first parts are the largest; a middle row part reads the most input
  // rows when the first one starts in the padding, so both are priced.
  const Plan::Range batch = Plan::partOf(unsigned(p.batchSize), split.batch, 0);
  for (unsigned r : {0u, split.rows / 2}) {
    const Nx1Geometry g = blockGeometry(p, batch, Plan::partOf(unsigned(out[0]), split.rows, r));
    const Nx1Worklist wl = buildNx1Worklist(g);
    VertexCost vertex{target, p.inputType, partialsType};
    vertex.groups = groups;
    vertex.positions = g.outPositions();
    vertex.inChans = inChans;
    vertex.outChans = n;
    vertex.kernelPositions = g.kernelPositions();
    vertex.workerZeros = wl.workerZeros;
    vertex.workerEntries = wl.workerEntries;
    vertex.workerEntryPositions = wl.workerEntryPositions;
    const std::uint64_t inBlock = std::uint64_t(groups) * g.inPositions() * inChans * inBytes;
    const std::uint64_t weights =
        std::uint64_t(groups) * g.kernelPositions() * inChans * n * inBytes;
    const std::uint64_t outBlock =
        std::uint64_t(groups) * g.outPositions() * n * target.getTypeSize(partialsType);
    c.exchange = std::max(c.exchange, exchangeCycles(target, inBlock + weights) + kPhaseCycles);
    c.partials = std::max(c.partials, convPartialnx1Cycles(vertex) + kPhaseCycles);
    c.tempBytes = std::max(c.tempBytes, inBlock + weights + outBlock + 4 * wl.words.size());
    if (partialsType != p.outputType)
      c.cast = std::max(c.cast, 6 * (30 + std::uint64_t(groups) * g.outPositions() * n / 6 * 2) +
                                    kPhaseCycles);
  }
  return c;
}

} // namespace

Nx1Geometry blockGeometry(const ConvParams &p, MatMulPlan::Range batch, MatMulPlan::Range rows) {
  const auto out = stridedOutputShape(p);
  const auto kernel = transformedKernelShape(p);
  Nx1Geometry g;
  g.batch = batch.size();
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d) {
    const unsigned s = p.outputTransform.stride[d],
                   outRows = d == 0 ? rows.size() : unsigned(out[d]);
    g.inField.push_back(outRows ? (outRows - 1) * s + unsigned(kernel[d]) : 0);
    g.kernel.push_back(unsigned(kernel[d]));
    g.stride.push_back(s);
  }
  g.padLower.assign(g.inField.size(), 0);
  g.padUpper.assign(g.inField.size(), 0);
  return g;
}

std::optional<ConvNx1Plan> planConvNx1(const poplar::Target &target, const ConvParams &p,
                                       const MatMulOptions &options, std::uint64_t cyclesToBeat) {
  const auto out = stridedOutputShape(p);
  const std::size_t kernel = kernelPositions(p);
  if (out.empty() || kernel <= 1 || p.batchSize == 0 ||
      std::find(out.begin(), out.end(), 0) != out.end())
    return std::nullopt;
  const poplar::Type partialsType =
      p.inputType == poplar::FLOAT ? poplar::FLOAT : options.partialsType;
  // Every worker loads each kernel position's coefficients, so the vertex alone costs at least
  // this whatever the split.
  VertexCost least{target, p.inputType, partialsType};
  least.inChans = least.outChans = 1;
  least.kernelPositions = unsigned(kernel);
  if (convPartialnx1Cycles(least) >= cyclesToBeat)
    return std::nullopt;
  const unsigned tiles = target.getNumTiles();
  const std::uint64_t cap =
      std::uint64_t(double(target.getBytesPerTile()) * options.availableMemoryProportion);
  ConvNx1Plan best;
  best.params = p;
  best.partialsType = partialsType;
  PlanRanking ranking;
  for (unsigned sg : partCounts(p.numConvGroups, tiles))
    for (unsigned sb : partCounts(p.batchSize, tiles / sg))
      for (unsigned sr : partCounts(out[0], tiles / (sg * sb)))
        for (unsigned sn : partCounts(p.outputChannelsPerConvGroup, tiles / (sg * sb * sr))) {
          const ConvNx1Split split{sg, sb, sr, sn};
          const MatMulCost cost = costOf(target, p, best.partialsType, split);
          const bool fits = cost.tempBytes <= cap;
          if (ranking.offer(cost, fits)) {
            best.split = split;
            best.cost = cost;
            best.fitsMemory = fits;
          }
        }
  if (best.cost.cycles() >= cyclesToBeat)
    return std::nullopt;
  return best;
}

} // namespace poplin::internal
