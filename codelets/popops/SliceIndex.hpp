// How the slice vertices read a run-time index: the option flags the host packs into the top bits
// of numBaseElements, and the one rule (resolveIndex) every slice and update vertex applies.
// Included by the codelets (codelets/popops/DynamicSlice.cpp) and by libpopops.
#pragma once

namespace popops {
namespace slice {

/// remapOutOfBoundIndices: an index beyond the sliced dimension means index 0.
constexpr unsigned REMAP_OUT_OF_BOUND = 0x80000000u;
/// paddingIndexUsed: the index equal to the dimension's size is padding (zeros, no update).
constexpr unsigned PADDING_INDEX = 0x40000000u;
constexpr unsigned SIZE_MASK = 0x3fffffffu;

/// The row of the base tensor (within [0, n), n = numBaseElements & SIZE_MASK) that `index`
/// selects, or n if it selects none: slices then write zeros and updates change nothing. The
/// vertex holds rows [baseOffset, baseOffset + n) of the sliced dimension.
__attribute__((always_inline)) inline unsigned resolveIndex(unsigned index, unsigned baseOffset,
                                                            unsigned numBaseAndFlags) {
  unsigned n = numBaseAndFlags & SIZE_MASK;
  unsigned row = index - baseOffset;
  if (row < n)
    return row;
  if ((numBaseAndFlags & PADDING_INDEX) && row == n)
    return n;
  if (numBaseAndFlags & REMAP_OUT_OF_BOUND) {
    row = 0u - baseOffset;
    return row < n ? row : n;
  }
  return n;
}

} // namespace slice
} // namespace popops
