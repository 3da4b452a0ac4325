// The matmul planner: enumerate the splits, price each with the vertex estimators and the
// exchange model, keep the cheapest that fits in memory.
#include "MatMulPlan.hpp"

#include "CycleEstimators.hpp"
#include "PlanRanking.hpp"

#include <poputil/VertexTemplates.hpp>

#include <algorithm>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace poplin::internal {

namespace {

using Plan = MatMulPlan;

// A copy between two places on one tile moves a 64-bit word a cycle.
constexpr std::uint64_t kOnTileCopyBytesPerCycle = 8;

/// The split counts of a dimension of `size` worth trying: 1..size, at most `limit` (more parts
/// than elements would leave parts empty). Parts differ by at most one element, so each count
/// gives a different partition.
std::vector<unsigned> splitCounts(unsigned size, unsigned limit) {
  std::vector<unsigned> counts;
  for (unsigned parts = 1; parts <= std::min(size, limit); ++parts)
    counts.push_back(parts);
  return counts;
}

} // namespace

const char *methodName(MatMulMethod method) { return method == MatMulMethod::Amp ? "AMP" : "MAC"; }

const char *methodVertex(MatMulMethod method) {
  return method == MatMulMethod::Amp ? "poplin::ConvPartial1x1Out"
                                     : "poplin::ConvPartialHorizontalMac";
}

poplar::Type vertexOutputType(const MatMulProblem &problem, const poplar::Type &partialsType,
                              const MatMulSplit &split, MatMulMethod method) {
  const bool halfInOut = problem.inputType == poplar::HALF && problem.outputType == poplar::HALF;
  return method == MatMulMethod::Mac && split.k == 1 && halfInOut ? poplar::HALF : partialsType;
}

bool MatMulProblem::operator<(const MatMulProblem &o) const {
  return std::tie(groups, m, k, n, inputType, outputType, lhsInPlanLayout) <
         std::tie(o.groups, o.m, o.k, o.n, o.inputType, o.outputType, o.lhsInPlanLayout);
}

poplar::Type partialsTypeFor(const MatMulProblem &problem, const MatMulOptions &options) {
  return problem.inputType == poplar::FLOAT ? poplar::FLOAT : options.partialsType;
}

// The larger of the blocks whose pairs would differ in a dimension split an even number of
// ways: with an odd count, some pairs straddle two blocks and the slowest pair gains nothing.
// An A gathered from elsewhere is not shared: each tile of a pair would gather the whole shared
// block, the part of it that lies on the tile by an on-tile copy the exchange model does not
// price, so the pair holds and copies twice what it would unpaired (a 4-tile 3x3 convolution:
// 60,931 -> 67,841 cycles).
SharedOperand sharedOperandOf(const poplar::Target &target, const MatMulProblem &p,
                              const MatMulSplit &split) {
  if (!target.supportsExchangeBusSharing() || target.getTilesPerSharedExchangeBus() != 2)
    return SharedOperand::None;
  const std::uint64_t a = std::uint64_t(Plan::ceilDiv(p.m, split.m)) * Plan::ceilDiv(p.k, split.k);
  const std::uint64_t b = std::uint64_t(Plan::ceilDiv(p.n, split.n)) * Plan::ceilDiv(p.k, split.k);
  const bool pairsOverN = split.n % 2 == 0 && p.lhsInPlanLayout, pairsOverM = split.m % 2 == 0;
  if (pairsOverN && (!pairsOverM || a >= b))
    return SharedOperand::A;
  return pairsOverM ? SharedOperand::B : SharedOperand::None;
}

MatMulCost costOf(const poplar::Target &target, const MatMulProblem &p,
                  const poplar::Type &partialsType, const MatMulSplit &split, MatMulMethod method) {
  const unsigned g = Plan::ceilDiv(p.groups, split.groups), m = Plan::ceilDiv(p.m, split.m),
                 n = Plan::ceilDiv(p.n, split.n), k = Plan::ceilDiv(p.k, split.k);
  const std::uint64_t inBytes = target.getTypeSize(p.inputType);
  const std::uint64_t partialBytes = target.getTypeSize(partialsType);
  const std::uint64_t outBytes = target.getTypeSize(p.outputType);
  MatMulCost c;
  // A tile receives its blocks of both operands or holds one or both (createOperand puts each
  // on the first tile that reads it) and sends it to the others once (the exchange
  // broadcasts). A tile reads a block it holds in place unless the block is fragmented: the
  // compiler aligns each interval of a tensor on a tile to 4 bytes, so the block of a split
  // dimension whose rows are not whole words (odd half rows) has gaps, and its holder also
  // copies it to a buffer at 8 bytes a cycle. The busiest of the four kinds of tile sets it.
  const std::uint64_t aBytes = std::uint64_t(g) * m * k * inBytes;
  const std::uint64_t bBytes = std::uint64_t(g) * k * n * inBytes;
  const std::uint64_t operandBytes = aBytes + bBytes;
  auto gapped = [&](unsigned rowElems) { return (rowElems * inBytes) % 4 != 0; };
  // A's rows are its K part (any part of K); B's rows its N part: the first part (the largest)
  // on the tile that also holds A, any part elsewhere.
  const bool splitK = split.k > 1, splitN = split.n > 1;
  const bool gapA = splitK && (gapped(k) || gapped(p.k / split.k));
  const bool gapB0 = splitN && gapped(n), gapB = gapB0 || (splitN && gapped(p.n / split.n));
  auto copyCycles = [](std::uint64_t bytes) {
    return (bytes + kOnTileCopyBytesPerCycle - 1) / kOnTileCopyBytesPerCycle;
  };
  // A pair of tiles on one exchange bus moves the union of its traffic at twice a tile's rate:
  // where the pair reads one shared block (split.shared), each pair sends or receives that
  // block once and each tile's own block of the other operand, half a block each at a tile's
  // rate. Then every pair moves about that much (a holder of one block sends it and receives
  // its partner's, or receives the shared block from it), so each tile's time is the pair's
  // exchange and then its own copies. Unpaired, a holder of one block moves only that.
  const std::uint64_t pairA = split.shared == SharedOperand::A ? (aBytes + 1) / 2 : aBytes;
  const std::uint64_t pairB = split.shared == SharedOperand::B ? (bBytes + 1) / 2 : bBytes;
  const std::uint64_t oneHolderBytes =
      split.shared == SharedOperand::None ? std::max(aBytes, bBytes) : pairA + pairB;
  const std::uint64_t holdsBoth = exchangeCycles(target, pairA + pairB) +
                                  copyCycles((gapA ? aBytes : 0) + (gapB0 ? bBytes : 0));
  const std::uint64_t holdsOne = exchangeCycles(target, oneHolderBytes) +
                                 copyCycles(std::max(gapA ? aBytes : 0, gapB ? bBytes : 0));
  c.exchange = std::max(holdsBoth, holdsOne) + kPhaseCycles;
  const poplar::Type written = vertexOutputType(p, partialsType, split, method);
  // The slowest tile sets the step, and it is not always one with the largest parts: a part
  // with fewer output channels or positions can split worse over the workers (45 output
  // channels give each AMP worker one chunk of 8; 34 give five chunks, so the workers share
  // positions and each runs all five chunks' passes). So both part sizes of M and N are priced.
  std::uint64_t partials = 0;
  for (unsigned mm : {m, p.m / split.m})
    for (unsigned nn : {n, p.n / split.n}) {
      const VertexCost vertex{target, p.inputType, written, g, mm, k, nn, 0, 0};
      partials =
          std::max(partials, method == MatMulMethod::Amp ? convPartial1x1OutCycles(vertex)
                                                         : convPartialHorizontalMacCycles(vertex));
    }
  c.partials = partials + kPhaseCycles;
  const std::uint64_t blockElems = std::uint64_t(g) * m * n;
  std::uint64_t temp = operandBytes + blockElems * partialBytes;
  if (split.k > 1) {
    // Each of the k tiles of an output block reduces 1/k of it, receiving the others' partials.
    const unsigned chunk =
        std::min(unsigned(blockElems), Plan::reduceChunk(unsigned(blockElems), split.k));
    c.reduceExchange =
        exchangeCycles(target, std::uint64_t(chunk) * (split.k - 1) * partialBytes) + kPhaseCycles;
    c.reduce = reduceAddCycles({target, p.outputType, partialsType, 1, 0, 0, 0, split.k, chunk}) +
               kPhaseCycles;
    temp += std::uint64_t(chunk) * split.k * partialBytes + chunk * outBytes;
  } else if (written != p.outputType) {
    c.cast = 6 * (30 + blockElems / 6 * 2) + kPhaseCycles;
  }
  c.tempBytes = temp;
  return c;
}

MatMulPlan planMatMul(const poplar::Target &target, const MatMulProblem &problem,
                      const MatMulOptions &options, std::optional<MatMulMethod> only) {
  const unsigned tiles = target.getNumTiles();
  const std::uint64_t cap =
      std::uint64_t(double(target.getBytesPerTile()) * options.availableMemoryProportion);
  Plan best;
  best.problem = problem;
  best.partialsType = partialsTypeFor(problem, options);
  PlanRanking ranking;
  for (unsigned sg : splitCounts(problem.groups, tiles))
    for (unsigned sm : splitCounts(problem.m, tiles / sg))
      for (unsigned sn : splitCounts(problem.n, tiles / (sg * sm)))
        for (unsigned sk : splitCounts(problem.k, tiles / (sg * sm * sn))) {
          MatMulSplit split{sg, sm, sn, sk};
          split.shared = sharedOperandOf(target, problem, split);
          // Both methods share the split's exchange, reduction and memory; the cheaper
          // partials decide (AMP on ties: it is the faster unit as blocks grow). The AMP's
          // coefficient load holds a part's N (the weights' row length) in 16 bits.
          const bool ampFits = Plan::partOf(problem.n, sn, 0).size() <= kMaxAmpRowLength;
          MatMulMethod method = only.value_or(ampFits ? MatMulMethod::Amp : MatMulMethod::Mac);
          MatMulCost cost = costOf(target, problem, best.partialsType, split, method);
          if (!only && ampFits) {
            const MatMulCost mac =
                costOf(target, problem, best.partialsType, split, MatMulMethod::Mac);
            if (mac.cycles() < cost.cycles()) {
              cost = mac;
              method = MatMulMethod::Mac;
            }
          }
          const bool fits = cost.tempBytes <= cap;
          if (ranking.offer(cost, fits)) {
            best.split = split;
            best.method = method;
            best.cost = cost;
            best.fitsMemory = fits;
          }
        }
  return best;
}

void printPlan(std::ostream &os, const MatMulPlan &plan, unsigned tiles) {
  const auto &p = plan.problem;
  os << "  MatMul: groups " << p.groups << ", [" << p.m << " x " << p.k << "] x [" << p.k << " x "
     << p.n << "], " << p.inputType << " -> " << p.outputType << ", partials " << plan.partialsType
     << "\n";
  // The vertex with its types: a MAC plan may write half outputs directly.
  os << "  Method: " << methodName(plan.method) << " 1x1 convolution ("
     << poputil::templateVertex(methodVertex(plan.method) + std::string("poplin::").size(),
                                p.inputType, plan.vertexOutputType())
     << ")\n";
  os << "  Split: groups " << plan.split.groups << ", batch (M) " << plan.split.m
     << ", output channels (N) " << plan.split.n << ", input channels (K) " << plan.split.k << "\n";
  os << "  Tiles: " << plan.split.tiles() << " of " << tiles << "\n";
  if (plan.split.shared != SharedOperand::None)
    os << "  Tile pairs on one exchange bus share their "
       << (plan.split.shared == SharedOperand::A ? "A (LHS)" : "B (RHS)") << " block\n";
  os << "  Per tile: groups " << plan.groupsPerPart() << ", [" << plan.mPerPart() << " x "
     << plan.kPerPart() << "] x [" << plan.kPerPart() << " x " << plan.nPerPart() << "]\n";
  const auto &c = plan.cost;
  os << "  Estimated cycles: " << c.cycles() << " (exchange " << c.exchange << ", partials "
     << c.partials << ", reduce exchange " << c.reduceExchange << ", reduce " << c.reduce
     << ", cast " << c.cast << ")\n";
  os << "  Temporary memory per tile: " << c.tempBytes << " bytes"
     << (plan.fitsMemory ? "" : " (over the availableMemoryProportion cap)") << "\n";
}

} // namespace poplin::internal
