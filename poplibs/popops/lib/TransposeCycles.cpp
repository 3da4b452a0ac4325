// PopLibs' transpose estimates: a fast path when the matrix sides suit the assembly's strided
// loads (multiples of 2 for 4-byte types, of 4 for 2-byte ones, strides under 512 and repeat
// counts under 4096), else an element-by-element path. The fast 2-byte single-worker kernel
// works in 4x4 blocks.
#include "TransposeCycles.hpp"

#include <poplar/Type.hpp>

#include <algorithm>

namespace popops::internal {

namespace {

constexpr std::uint64_t kRptLimit = 4096; // the assembly's repeat count bound
constexpr std::uint64_t kStrideLimit = 512;
// The compact pointers of src and dst are unpacked on entry (PopLibs' ScaledPtr64 cost).
constexpr std::uint64_t kUnpack = 1;

struct Shape {
  std::uint64_t rows, cols, matrices;
};

Shape shapeOf(const VertexCost &c) {
  return {c.regions.size() > 0 ? c.regions[0] : 0, c.regions.size() > 1 ? c.regions[1] : 0,
          c.slices};
}

bool isFourByte(const poplar::Type &t) {
  return t == poplar::FLOAT || t == poplar::INT || t == poplar::UNSIGNED_INT;
}

/// One worker of the fast 2-byte kernel over `m` matrices of rD4 x cD4 blocks of 4x4.
std::uint64_t fastWorkerCycles(std::uint64_t rD4, std::uint64_t cD4, std::uint64_t m) {
  std::uint64_t cycles;
  if (rD4 == 1 && cD4 == 1)
    cycles = m <= 1 ? 29 : 37 + 4 * (m - 2);
  else if (cD4 == 1)
    cycles = 27 + m * (35 + 4 * (rD4 - 2));
  else
    cycles = 29 + m * (18 + rD4 * (12 + 4 * (cD4 - 2)));
  return cycles + kUnpack;
}

} // namespace

std::uint64_t transpose2DCycles(const VertexCost &c) {
  const auto [r, n, m] = shapeOf(c);
  if (isFourByte(c.type)) {
    if (r % 2 == 0 && n % 2 == 0 && n >= 2 && n / 2 < kRptLimit && r * (n - 2) / 2 < kStrideLimit &&
        r < kStrideLimit)
      return 27 + m * (11 + (r / 2) * (6 + 3 * (n / 2 - 1)));
    return 13 + m * (8 + n * (5 + 2 * r));
  }
  if (r % 4 == 0 && n % 4 == 0 && n >= 8 && n / 4 < kRptLimit && 1 + 3 * (n / 4) < kStrideLimit)
    return 37 + m * (12 + (r / 4) * (15 + 4 * (n / 4 - 2)));
  if (r % 4 == 0 && r >= 4 && n == 4 && r / 4 < kRptLimit && 1 + 3 * (r / 4) < kStrideLimit)
    return r == 4 ? 32 + 15 * m : 28 + m * (37 + 4 * (r / 4 - 2));
  return 15 + m * (8 + n * (5 + (5 * r) / 2));
}

std::uint64_t transpose1DSingleWorkerCycles(const VertexCost &c) {
  const auto [r, n, m] = shapeOf(c);
  return fastWorkerCycles(r / 4, n / 4, m);
}

TransposeWorkerSplit transposeWorkerSplit(unsigned matrices, unsigned workers) {
  if (matrices <= workers)
    return {1, matrices};
  unsigned rem = matrices % workers;
  return rem ? TransposeWorkerSplit{matrices / workers + 1, rem}
             : TransposeWorkerSplit{matrices / workers, workers};
}

// The supervisor starts six workers; the busiest sets the time. Each worker skips the kernel's
// 7-cycle entry that the supervisor's 7 cycles replace.
std::uint64_t transpose1DCycles(const VertexCost &c) {
  const auto [r, n, m] = shapeOf(c);
  const unsigned workers = c.target.getNumWorkerContexts();
  const auto split = transposeWorkerSplit(unsigned(m), workers);
  return 7 + workers * (fastWorkerCycles(r / 4, n / 4, split.perWorker) + kUnpack - 7);
}

bool canSplitTranspose(unsigned matrices, unsigned workers) {
  return matrices != 0 && matrices < workers && workers % matrices == 0;
}

std::vector<unsigned> splitTranspose1DWorkList(unsigned rows, unsigned cols, unsigned matrices,
                                               unsigned workers) {
  const unsigned rD4 = rows / 4, cD4 = cols / 4, perMatrix = workers / matrices;
  auto ceilDiv = [](unsigned a, unsigned b) { return (a + b - 1) / b; };
  const unsigned rowsEach = ceilDiv(rD4, perMatrix), rowWorkers = ceilDiv(rD4, rowsEach);
  const unsigned colsEach = ceilDiv(cD4, std::max(1u, perMatrix / rowWorkers));
  std::vector<unsigned> list;
  for (unsigned t = 0; t < matrices; ++t)
    for (unsigned r = 0; r < rD4; r += rowsEach)
      for (unsigned c = 0; c < cD4; c += colsEach) {
        const unsigned matrixD4 = t * rD4 * cD4 * 4; // a matrix's elements / 4
        list.push_back(matrixD4 + r * cols + c);
        list.push_back(matrixD4 + c * rows + r);
        list.push_back(std::min(rD4 - r, rowsEach));
        list.push_back(std::min(cD4 - c, colsEach));
      }
  return list;
}

std::uint64_t splitTranspose1DCycles(const VertexCost &c) {
  const auto [r, n, m] = shapeOf(c);
  const unsigned workers = c.target.getNumWorkerContexts();
  if (!canSplitTranspose(unsigned(m), workers))
    return 7;
  const auto list = splitTranspose1DWorkList(unsigned(r), unsigned(n), unsigned(m), workers);
  std::uint64_t busiest = 0;
  for (std::size_t i = 0; i + 3 < list.size(); i += 4)
    busiest = std::max(busiest, fastWorkerCycles(list[i + 2], list[i + 3], 1));
  return 7 + workers * busiest;
}

} // namespace popops::internal
