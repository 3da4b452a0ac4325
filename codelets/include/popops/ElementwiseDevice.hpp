// Device-side helpers shared by popops' element-wise vertices and the codelets popops::map
// generates: result types and the split of a 1-D region between a MultiVertex's workers.
#pragma once

#include <popops/ExprOpFunctions.hpp>

namespace popops {
namespace device {

template <class A, class B> struct IsSame { static constexpr bool value = false; };
template <class A> struct IsSame<A, A> { static constexpr bool value = true; };

template <bool c, class A, class B> struct Conditional { using type = A; };
template <class A, class B> struct Conditional<false, A, B> { using type = B; };

/// What a vertex stores for an op on T: bool for comparisons and tests, T otherwise.
template <expr::UnaryOpType op, class T> struct UnaryResult {
  using type =
      typename Conditional<IsSame<decltype(unaryOp<op>(Compute<T>())), bool>::value, bool, T>::type;
};
template <expr::BinaryOpType op, class T> struct BinaryResult {
  using type =
      typename Conditional<IsSame<decltype(binaryOp<op>(Compute<T>(), Compute<T>())), bool>::value,
                           bool, T>::type;
};

/// An element converted as the IPU converts it: x != 0 for bool, through float for half (the
/// result is in To's compute type; storing it to a half rounds to nearest even).
template <class To, class From>
__attribute__((always_inline)) inline Compute<To> convert(Compute<From> x) {
  if constexpr (IsSame<To, bool>::value)
    return x != 0;
  else
    return Compute<To>(x);
}

/// x as an element of T holds it: rounded to half for half, unchanged otherwise. Generated
/// codelets round every intermediate result this way, as the IPU's half arithmetic does.
template <class T> __attribute__((always_inline)) inline Compute<T> asStored(Compute<T> x) {
  if constexpr (IsSame<T, half>::value)
    return float(half(x));
  else
    return x;
}

/// Worker `wid`'s share [begin, end) of n elements of `elemBytes` each: contiguous runs of whole
/// 8-byte grains (so no two workers write one 32-bit word), ceil(grains / 6) grains per worker.
struct WorkerRange {
  unsigned begin, end;
  unsigned share; ///< elements a worker gets before n runs out (perWorker grains)
};
__attribute__((always_inline)) inline WorkerRange workerRange(unsigned wid, unsigned n,
                                                              unsigned elemBytes) {
  unsigned grain = 8 / elemBytes;
  unsigned grains = (n + grain - 1) / grain;
  // (x * 0xaaab) >> 18 is x / 6 for every x below 98304, and costs a multiply instead of a
  // software divide. An IPU tile holds fewer grains; the host lowerings give no vertex more
  // (support::maxWorkerSplitElements), also on the CPU device's one big tile.
  unsigned perWorker = ((grains + 5) * 0xaaabu) >> 18;
  unsigned begin = wid * perWorker * grain;
  unsigned end = begin + perWorker * grain;
  if (begin > n)
    begin = n;
  if (end > n)
    end = n;
  return {begin, end, perWorker * grain};
}

/// f(k) for k < count; returns count. The loop of a generated codelet's vector body: written
/// in place, LLVM lays the loop's exit block before its body, which is then entered by a branch
/// and stays a brnzdec loop; inlined from here, the body follows its guard and popc makes it a
/// zero-overhead rpt loop (1 cycle less a vector).
template <class F>
__attribute__((always_inline)) inline unsigned forEachVector(unsigned count, F f) {
  for (unsigned k = 0; k < count; ++k)
    f(k);
  return count;
}

/// Half lanes as float for a generated codelet's half ops with no f16v4 instruction: a half2
/// word, or the low or high word of a half4, widened (f16v2tof32v2); two float2 rounded to the
/// two words of 4 halves (f32v2tof16v2, round to nearest even as a half store). Words go
/// through bit casts of locals: a half4 -> half2 shuffle becomes 16-bit moves (docs/popc.md).
__attribute__((always_inline)) inline float2 widenWord(unsigned word) {
  return __builtin_convertvector(__builtin_bit_cast(half2, word), float2);
}
__attribute__((always_inline)) inline float2 widenLow(half4 x) {
  const uint2 words = __builtin_bit_cast(uint2, x);
  return widenWord(words.x);
}
__attribute__((always_inline)) inline float2 widenHigh(half4 x) {
  const uint2 words = __builtin_bit_cast(uint2, x);
  return widenWord(words.y);
}
__attribute__((always_inline)) inline uint2 narrowWords(float2 low, float2 high) {
  return uint2{__builtin_bit_cast(unsigned, __builtin_convertvector(low, half2)),
               __builtin_bit_cast(unsigned, __builtin_convertvector(high, half2))};
}

} // namespace device
} // namespace popops
