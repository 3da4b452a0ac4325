// PopLibs' cycle formulas for the slicing vertices, and loop counts for the encoding and sorting
// ones. Copies move 64 bits a cycle (vector width 2
// for 32-bit, 4 for 16-bit elements; 8-bit elements go 4 at a time through a slower path); a
// MultiVertex costs its slowest worker times six plus the supervisor's set-up.
#include "SliceCycles.hpp"

#include <algorithm>

namespace popops::internal {

namespace {

constexpr unsigned numWorkers = 6;

unsigned ceilDiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

/// Elements one 64-bit copy moves.
unsigned copyWidth(const VertexCost &c) {
  unsigned bytes = c.target.getTypeSize(c.type);
  return bytes == 1 ? 4 : 8 / bytes;
}

std::uint64_t slice1D(const VertexCost &c) {
  unsigned regionSize = c.regions.empty() ? 0 : c.regions[0];
  unsigned nCopies = ceilDiv(regionSize, numWorkers) / copyWidth(c);
  bool byteType = c.target.getTypeSize(c.type) == 1;
  std::uint64_t worker = byteType ? 76 + std::uint64_t(72 + 2 * nCopies) * c.slices
                                  : 39 + std::uint64_t(24 + 2 * nCopies) * c.slices;
  return 25 + numWorkers * worker;
}

std::uint64_t slice2D(const VertexCost &c) {
  unsigned bytes = c.target.getTypeSize(c.type);
  std::uint64_t cycles = 27;
  for (unsigned n : c.regions) {
    unsigned nVec = n / copyWidth(c);
    std::uint64_t perSlice = bytes == 1 ? 50 + 2 * nVec : bytes == 2 ? 31 + 2 * nVec : 29 + nVec;
    cycles += perSlice * c.slices + 13;
  }
  return cycles;
}

/// MultiSlice / MultiUpdate: the indices split between the workers, each copying whole rows.
std::uint64_t multiCopy(const VertexCost &c, unsigned overhead) {
  unsigned bytes = c.target.getTypeSize(c.type);
  unsigned vw = bytes == 1 ? 4 : 2;
  unsigned cpv = bytes == 1 ? 3 : 2;
  unsigned regionSize = c.regions.empty() ? 0 : c.regions[0];
  std::uint64_t inRange = ceilDiv(c.slices, numWorkers);
  return numWorkers * (overhead + inRange * (19 + std::uint64_t(ceilDiv(regionSize, vw)) * cpv));
}

/// MultiUpdateOp: the columns split between the workers, each applying every index.
std::uint64_t multiUpdateOp(const VertexCost &c) {
  unsigned bytes = c.target.getTypeSize(c.type);
  unsigned atom = std::max(1u, 4 / bytes);
  unsigned regionSize = c.regions.empty() ? 0 : c.regions[0];
  unsigned atoms = std::max(1u, ceilDiv(ceilDiv(regionSize, numWorkers), atom));
  return numWorkers * (33 + std::uint64_t(c.slices) * (12 + (atoms - 1) * 3));
}

} // namespace

std::uint64_t dynamicSlice1DCycles(const VertexCost &c) { return slice1D(c); }
std::uint64_t dynamicSlice2DCycles(const VertexCost &c) { return slice2D(c); }
std::uint64_t dynamicUpdateSlice1DCycles(const VertexCost &c) { return slice1D(c); }
std::uint64_t dynamicUpdateSlice2DCycles(const VertexCost &c) { return slice2D(c); }
std::uint64_t multiSliceCycles(const VertexCost &c) { return multiCopy(c, 30); }
std::uint64_t multiUpdateCycles(const VertexCost &c) { return multiCopy(c, 29); }
std::uint64_t multiUpdateAddCycles(const VertexCost &c) { return multiUpdateOp(c); }
std::uint64_t multiUpdateMaxCycles(const VertexCost &c) { return multiUpdateOp(c); }
std::uint64_t multiUpdateMulCycles(const VertexCost &c) { return multiUpdateOp(c); }

// SequenceSlice: the columns split between the workers, each copying the rows of every entry
// (VertexCost::slices, all taken as in range) as MultiUpdate copies them.
std::uint64_t sequenceSliceCycles(const VertexCost &c) { return multiCopy(c, 30); }

// Single-worker vertices: a fixed entry cost, a per-region set-up and a few cycles an element.
std::uint64_t encodeOneHotCycles(const VertexCost &c) {
  std::uint64_t cycles = 20;
  for (unsigned n : c.regions)
    cycles += 12 + 2 * std::uint64_t(n);
  return cycles;
}

std::uint64_t iotaCycles(const VertexCost &c) {
  std::uint64_t cycles = 10;
  for (unsigned n : c.regions)
    cycles += 8 + 2 * std::uint64_t(n);
  return cycles;
}

std::uint64_t allTrueCycles(const VertexCost &c) {
  std::uint64_t cycles = 10;
  for (unsigned n : c.regions)
    cycles += 6 + 3 * std::uint64_t(n);
  return cycles;
}

// Merge sort: insertion sorts of runs of 8 (about 12 moves of 6 cycles a run), then a merge
// pass of about 10 cycles an element for each doubling of the run length.
std::uint64_t sortBlocksCycles(const VertexCost &c) {
  std::uint64_t cycles = 10;
  for (unsigned n : c.regions) {
    unsigned passes = 0;
    for (unsigned width = 8; width < n; width *= 2)
      ++passes;
    cycles += 10 + 9 * std::uint64_t(n) + 10 * std::uint64_t(n) * passes;
  }
  return cycles;
}

// Merge through scratch and copy back: about 10 cycles an element of the pair.
std::uint64_t mergeSplitCycles(const VertexCost &c) {
  std::uint64_t cycles = 10;
  for (std::size_t i = 0; i + 1 < c.regions.size(); i += 2)
    cycles += 15 + 10 * std::uint64_t(c.regions[i] + c.regions[i + 1]);
  return cycles;
}

} // namespace popops::internal
