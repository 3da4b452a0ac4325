// The worklists of ConvPartialnx1 (codelets/poplin/ConvPartialnx1.cpp) for one tile's block of a
// convolution: which output positions each worker zeros and, per kernel position, the runs of
// output positions it accumulates with the input positions they read.
#pragma once

#include <cstddef>
#include <vector>

namespace poplin::internal {

/// A block's geometry: input [batch][inField...] positions (channels innermost), a kernel with
/// a stride and zero padding per field dimension; no dilation.
struct Nx1Geometry {
  unsigned batch = 1;
  std::vector<unsigned> inField, kernel, stride, padLower, padUpper;

  /// The output field: (in + padLower + padUpper - kernel) / stride + 1 per dimension.
  std::vector<unsigned> outField() const;
  unsigned kernelPositions() const;
  unsigned inPositions() const;  // batch x input field
  unsigned outPositions() const; // batch x output field
};

struct Nx1Worklist {
  std::vector<unsigned> words; // the vertex's worklists field
  unsigned inStride = 1;       // input positions between an entry's consecutive outputs
  // The busiest worker's share: output positions zeroed, entries, positions the entries cover.
  unsigned workerZeros = 0, workerEntries = 0, workerEntryPositions = 0;
};

/// Splits the output positions into `workers` contiguous ranges and lists each range's entries:
/// per kernel position, one run per output row (innermost dimension) the position reaches.
Nx1Worklist buildNx1Worklist(const Nx1Geometry &g, unsigned workers = 6);

} // namespace poplin::internal
