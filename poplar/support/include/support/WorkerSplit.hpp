// The most elements a host lowering gives one MultiVertex whose workers share its work through
// popops::device::workerRange: that split is exact only up to a size no IPU tile's memory holds,
// but one CPU-device tile (the host's memory) does.
#pragma once

#include <cstddef>

namespace popsdk::support {

/// workerRange (codelets/include/popops/ElementwiseDevice.hpp) divides 8-byte grains + 5 by 6
/// as (x * 0xaaab) >> 18, which is exact for x below 98,304. A 624 KiB ipu2 tile is 79,872
/// grains, so on an IPU the limit never binds and no vertex there is split for it.
constexpr std::size_t kMaxWorkerSplitGrains = 98304 - 6;

/// The most elements of `elemBytes` bytes each (1 to 8) one such MultiVertex may be given: whole
/// 8-byte grains, so that pieces cut at multiples of it start on 8-byte boundaries as the whole
/// did. A vertex's workers split elements of at most the widest of its fields' types, so that width
/// bounds every field's split.
constexpr std::size_t maxWorkerSplitElements(std::size_t elemBytes) {
  return kMaxWorkerSplitGrains * 8 / elemBytes;
}

/// f(begin, end) for each consecutive piece of [begin, end) of at most `maxSize` elements (one
/// piece if the range is no longer).
template <class F>
void forEachPiece(std::size_t begin, std::size_t end, std::size_t maxSize, const F &f) {
  for (std::size_t at = begin; at < end; at += maxSize)
    f(at, end - at > maxSize ? at + maxSize : end);
}

} // namespace popsdk::support
