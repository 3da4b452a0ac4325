// Device helpers of the vertices that copy rows of a [rows, columns] view (the slicing and
// sequence-slicing vertices): elements moved as raw bits, and each worker's columns of a row.
#pragma once

#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

namespace popops {
namespace {

/// Elements are moved as raw bits of their size (a half copy needs no float conversion).
template <class T> struct BitsOf { using type = T; };
template <> struct BitsOf<half> { using type = unsigned short; };
template <> struct BitsOf<float> { using type = unsigned; };
template <class T> using Bits = typename BitsOf<T>::type;

/// Worker `wid`'s columns of a row of `n` elements that starts every n elements: whole 8-byte
/// grains, unless rows do not start on 32-bit words, when worker 0 takes the row so that no two
/// workers write one word. (The 1-D vectors are 4-byte aligned, so row 0 starts on a word.)
__attribute__((always_inline)) inline device::WorkerRange rowWorkerRange(unsigned wid, unsigned n,
                                                                         unsigned elemBytes) {
  if ((n * elemBytes) & 3)
    return wid == 0 ? device::WorkerRange{0, n, n} : device::WorkerRange{0, 0, 0};
  return device::workerRange(wid, n, elemBytes);
}

template <class B>
__attribute__((always_inline)) inline void copyRow(B *dst, const B *src, unsigned begin,
                                                   unsigned end) {
  for (unsigned e = begin; e < end; ++e)
    dst[e] = src[e];
}

template <class B>
__attribute__((always_inline)) inline void zeroRow(B *dst, unsigned begin, unsigned end) {
  for (unsigned e = begin; e < end; ++e)
    dst[e] = 0;
}

} // namespace
} // namespace popops
