// The matmul planner: how a grouped [G,M,K] x [G,K,N] product is split over the tiles, chosen
// by estimated cycles under a cap on each tile's temporary memory.
#pragma once

#include "MatMulOptions.hpp"

#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

#include <cstdint>
#include <iosfwd>
#include <optional>

namespace poplin::internal {

/// A grouped matmul seen as a 1x1 convolution: positions M (the batch), input channels K,
/// output channels N, conv groups G.
struct MatMulProblem {
  unsigned groups = 1, m = 0, k = 0, n = 0;
  poplar::Type inputType = poplar::FLOAT, outputType = poplar::FLOAT;
  /// Whether A is created in the plan's layout (createMatMulInputLHS) rather than gathered from
  /// a tensor laid out otherwise (a convolution's input, spread linearly, viewed as im2col).
  bool lhsInPlanLayout = true;
  bool operator<(const MatMulProblem &o) const;
};

/// Which operand block the two tiles of a shared exchange bus both read, so that it reaches the
/// pair once at the bus's whole bandwidth: none, A (pairs differ only in their N part) or B
/// (pairs differ only in their M part).
enum class SharedOperand { None, A, B };

/// How many parts each dimension is cut into, and the order of the parts over the tiles. The
/// tile of part (g, m, n, k) is ((g * m_ + m) * n_ + n) * k_ + k, so the k parts of one output
/// block are neighbours; when pairs of tiles share an operand, the dimension that tells them
/// apart is the innermost instead (N to share A, M to share B). The parts of a dimension
/// differ in size by at most one (MatMulPlan::partOf).
struct MatMulSplit {
  unsigned groups = 1, m = 1, n = 1, k = 1;
  SharedOperand shared = SharedOperand::None;
  unsigned tiles() const { return groups * m * n * k; }
};

/// The vertex that computes each tile's partials: AMP passes (ConvPartial1x1Out) or plain MACs
/// (ConvPartialHorizontalMac), which win where the AMP's units would mostly idle (few output
/// channels and input channels per group) or its per-pass overhead dominates (few positions).
enum class MatMulMethod { Amp, Mac };

/// The most output columns (N) one AMP vertex takes: its coefficient load holds the weights' row
/// length in 16 bits. Only a one-tile target (Poplar's CPU device) gives a vertex more.
constexpr unsigned kMaxAmpRowLength = 0xffff;

/// "AMP" or "MAC", and the vertex template ("poplin::ConvPartial1x1Out").
const char *methodName(MatMulMethod method);
const char *methodVertex(MatMulMethod method);

/// The type the partials vertex writes: the partials type, except that a MAC plan whose
/// input and output are half and whose K is not split writes the output directly (the MAC
/// accumulates in float registers and rounds once, as float partials and a cast would).
poplar::Type vertexOutputType(const MatMulProblem &problem, const poplar::Type &partialsType,
                              const struct MatMulSplit &split, MatMulMethod method);

/// Estimated tile cycles of each phase, and the temporary bytes the busiest tile holds.
struct MatMulCost {
  std::uint64_t exchange = 0, partials = 0, reduceExchange = 0, reduce = 0, cast = 0;
  std::uint64_t tempBytes = 0;
  std::uint64_t cycles() const { return exchange + partials + reduceExchange + reduce + cast; }
};

struct MatMulPlan {
  MatMulProblem problem;
  poplar::Type partialsType = poplar::FLOAT;
  MatMulSplit split;
  MatMulMethod method = MatMulMethod::Amp;
  MatMulCost cost;
  bool fitsMemory = true;
  /// Elements of the largest part of each dimension (the others may be one smaller).
  unsigned groupsPerPart() const { return ceilDiv(problem.groups, split.groups); }
  unsigned mPerPart() const { return ceilDiv(problem.m, split.m); }
  unsigned nPerPart() const { return ceilDiv(problem.n, split.n); }
  unsigned kPerPart() const { return ceilDiv(problem.k, split.k); }
  poplar::Type vertexOutputType() const {
    return internal::vertexOutputType(problem, partialsType, split, method);
  }
  unsigned tileOf(unsigned g, unsigned m, unsigned n, unsigned k) const {
    switch (split.shared) {
    case SharedOperand::A:
      return ((g * split.m + m) * split.k + k) * split.n + n;
    case SharedOperand::B:
      return ((g * split.n + n) * split.k + k) * split.m + m;
    case SharedOperand::None:
      break;
    }
    return ((g * split.m + m) * split.n + n) * split.k + k;
  }
  static unsigned ceilDiv(unsigned a, unsigned b) { return (a + b - 1) / b; }
  /// Elements of an output block of `blockElems` that each of its `kParts` tiles reduces: a whole
  /// number of 4-element grains (the last tile's share may be smaller or empty), so every
  /// share of a partials block starts 8-byte aligned for ReduceAdd's vector loads (a misaligned
  /// share would be copied to a buffer first).
  static unsigned reduceChunk(unsigned blockElems, unsigned kParts) {
    return ceilDiv(ceilDiv(blockElems, kParts), 4) * 4;
  }
  /// Part i of `parts` of a dimension of `size`: [begin, end), the first size % parts parts one
  /// larger than the rest, so no part is much smaller than the others (a small last part can
  /// split worse over the AMP's workers than a full one, and leaves tiles idle).
  struct Range {
    unsigned begin, end;
    unsigned size() const { return end - begin; }
  };
  static Range partOf(unsigned size, unsigned parts, unsigned i) {
    const unsigned small = size / parts, larger = size % parts;
    const unsigned begin = i * small + (i < larger ? i : larger);
    return {begin, begin + small + (i < larger ? 1 : 0)};
  }
};

/// The partials type a problem uses: the option's, but never narrower than the input.
poplar::Type partialsTypeFor(const MatMulProblem &problem, const MatMulOptions &options);

/// Searches every split (each dimension's distinct part sizes), each with the cheaper method
/// (or only `method` when given, for tests), for the fewest cycles within the memory cap; if
/// none fits, the split that needs the least memory.
MatMulPlan planMatMul(const poplar::Target &target, const MatMulProblem &problem,
                      const MatMulOptions &options,
                      std::optional<MatMulMethod> method = std::nullopt);

/// The operand block the tile pairs of a shared exchange bus can read once for `split` (None
/// when the target does not share its buses between two tiles).
SharedOperand sharedOperandOf(const poplar::Target &target, const MatMulProblem &problem,
                              const MatMulSplit &split);

/// The cost of one split with one method (for the search, and for tests).
MatMulCost costOf(const poplar::Target &target, const MatMulProblem &problem,
                  const poplar::Type &partialsType, const MatMulSplit &split,
                  MatMulMethod method = MatMulMethod::Amp);

/// A readable account of `plan` (matMulReportPlan).
void printPlan(std::ostream &os, const MatMulPlan &plan, unsigned tiles);

} // namespace poplin::internal
