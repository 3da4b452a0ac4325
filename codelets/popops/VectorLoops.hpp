// Inner loops of popops' element-wise vertices over 64-bit vectors (float2, half4), as PopLibs'
// codelets are written: aligned 64-bit loads and stores while whole vectors remain, then a scalar
// loop for the remainder. Every vertex field these loops read or write is 8-byte aligned (its
// MinAlign), and MultiVertex workers start on 8-byte grains (device::workerRange), so the scalar
// loop also takes a whole region whose pointers are not 8-byte aligned rather than fault.
#pragma once

#include <poplar/HalfFloat.hpp>
#include <popops/ElementwiseDevice.hpp>
#include <utility>

namespace popops {
namespace vec {

using device::Compute;
using device::IsSame;

#define POPOPS_VEC_INLINE __attribute__((always_inline)) inline

/// The 64-bit vector of T and its width.
template <class T> struct Vector64 {
  using type = void;
  static constexpr unsigned width = 1;
};
template <> struct Vector64<float> {
  using type = float2;
  static constexpr unsigned width = 2;
};
template <> struct Vector64<half> {
  using type = half4;
  static constexpr unsigned width = 4;
};
template <class T> using V64 = typename Vector64<T>::type;

/// Whether every pointer is 8-byte aligned.
template <class... P> POPOPS_VEC_INLINE bool aligned8(const P *...p) {
  return ((reinterpret_cast<unsigned>(p) | ...) & 7) == 0;
}

/// The ops whose float2 / half4 form is one vector instruction (f32v2*/f16v4* add, sub, mul)
/// with the same result bits as the element-by-element loop: half lanes are computed in float
/// and rounded once, as the scalar code does.
template <expr::BinaryOpType op, class T> constexpr bool vectorBinary() {
  using B = expr::BinaryOpType;
  return device::isFloating<T>() && (op == B::ADD || op == B::SUBTRACT || op == B::MULTIPLY);
}
template <expr::UnaryOpType op, class T> constexpr bool vectorUnary() {
  return device::isFloating<T>() && op == expr::UnaryOpType::SQUARE;
}

/// {f(x[0].x, x[1].x, ...), f(x[0].y, x[1].y, ...)}: `f` on each lane of the operands (a
/// predicate as 0 or 1).
template <class F, std::size_t... I>
POPOPS_VEC_INLINE float2 eachLane(F f, const float2 *x, std::index_sequence<I...>) {
  return float2{float(f(x[I].x...)), float(f(x[I].y...))};
}

/// Four halves a step through float, for the half ops with no f16v4 instruction: each operand's
/// two half2 words widened (f16v2tof32v2), `f` on each float lane, the results rounded back two
/// lanes at a time (f32v2tof16v2, round to nearest even as a half store does) into one 64-bit
/// store. Returns the elements done (whole vectors of aligned pointers, else none).
template <class F, class... In>
POPOPS_VEC_INLINE unsigned halfLanes(half *o, unsigned n, F f, const In *...in) {
  const unsigned vectors = aligned8(o, in...) ? n / 4 : 0;
  uint2 *ov = reinterpret_cast<uint2 *>(o);
  for (unsigned k = 0; k < vectors; ++k) {
    unsigned word[2];
    for (unsigned h = 0; h < 2; ++h) {
      // Each operand's word widened once, before `f` runs on either lane.
      const float2 x[] = {
          __builtin_convertvector(reinterpret_cast<const half2 *>(in)[2 * k + h], float2)...};
      float2 r = eachLane(f, x, std::index_sequence_for<In...>());
      word[h] = __builtin_bit_cast(unsigned, __builtin_convertvector(r, half2));
    }
    ov[k] = uint2{word[0], word[1]};
  }
  return vectors * 4;
}

/// o[i] = f(a[i], b[i]) for i in [first, n). Software-pipelined when `pipeline`, as PopLibs'
/// assembly is: each step loads the next operands, stores the last result and computes the
/// next, so a floating-point instruction issues beside the store before it in one bundle (it
/// overwrites the register the store reads: a bundle reads before it writes) and a step costs
/// its memory accesses. Not for in-place loops: o[i - 1] and a[i] share a pointer, which popc
/// then steps by hand (no post-increment), so the pipelined step is no shorter.
template <bool pipeline, class A, class B, class R, class F>
POPOPS_VEC_INLINE void elements(const A *a, const B *b, R *o, unsigned first, unsigned n, F f) {
  if constexpr (!pipeline) {
    for (unsigned i = first; i < n; ++i)
      o[i] = f(a[i], b[i]);
  } else if (first < n) {
    R r = f(a[first], b[first]);
    for (unsigned i = first + 1; i < n; ++i) {
      const A x = a[i];
      const B y = b[i];
      o[i - 1] = r;
      r = f(x, y);
    }
    o[n - 1] = r;
  }
}

/// Whole 64-bit vectors of o[i] = f(a[i], b[i]) with one vector instruction per step; returns
/// the elements done.
template <bool pipeline, class T, class F>
POPOPS_VEC_INLINE unsigned wholeVectors(const T *a, const T *b, T *o, unsigned n, F f) {
  using V = V64<T>;
  constexpr unsigned width = Vector64<T>::width;
  const unsigned vectors = aligned8(a, b, o) ? n / width : 0;
  elements<pipeline>(reinterpret_cast<const V *>(a), reinterpret_cast<const V *>(b),
                     reinterpret_cast<V *>(o), 0, vectors, f);
  return vectors * width;
}

/// Whether pipelining a float loop of the op pays: its float form is a few one-cycle aux
/// instructions, which issue beside the loop's loads and stores. An op with a multi-cycle
/// instruction (fdiv, fexp, flog, fsqrt) or a call issues alone and would only pay the
/// pipelined loop's longer set-up (measured over every vertex: docs/cycles-popops.md).
template <expr::UnaryOpType op> constexpr bool pipelinesUnary() {
  using U = expr::UnaryOpType;
  return op == U::ABSOLUTE || op == U::CEIL || op == U::ERF || op == U::EXPONENT2 ||
         op == U::FLOOR || op == U::GELU_ERF || op == U::IS_FINITE || op == U::IS_INF ||
         op == U::IS_NAN || op == U::NEGATE || op == U::NEARBY_INT || op == U::RELU ||
         op == U::SIGNUM || op == U::ROUND || op == U::SQUARE || op == U::SIGMOID || op == U::TRUNC;
}
template <expr::BinaryOpType op> constexpr bool pipelinesBinary() {
  using B = expr::BinaryOpType;
  return op == B::ADD || op == B::SUBTRACT || op == B::MULTIPLY || op == B::EQUAL ||
         op == B::NOT_EQUAL || op == B::GREATER_THAN || op == B::GREATER_THAN_EQUAL ||
         op == B::LESS_THAN || op == B::LESS_THAN_EQUAL || op == B::MAXIMUM || op == B::MINIMUM ||
         op == B::VARIANCE_TO_INV_STD_DEV;
}

/// o[i] = op(a[i], b[i]) for i < n; o is a when inPlace.
template <expr::BinaryOpType op, bool inPlace, class T, class R>
POPOPS_VEC_INLINE void binary(const T *a, const T *b, R *o, unsigned n) {
  constexpr bool halfToHalf = IsSame<T, half>::value && IsSame<R, half>::value;
  // A half -> half loop's scalar part is a remainder of at most 3 elements.
  constexpr bool pipeline =
      !inPlace && !halfToHalf && device::isFloating<T>() && pipelinesBinary<op>();
  unsigned i = 0;
  auto f = [](auto x, auto y) { return device::binaryOp<op>(x, y); };
  if constexpr (vectorBinary<op, T>())
    i = wholeVectors<!inPlace>(a, b, o, n, f);
  else if constexpr (halfToHalf)
    i = halfLanes(o, n, f, a, b);
  elements<pipeline>(a, b, o, i, n,
                     [](T x, T y) { return device::binaryOp<op>(Compute<T>(x), Compute<T>(y)); });
}

/// o[i] = op(a[i]) for i < n; o is a when inPlace.
template <expr::UnaryOpType op, bool inPlace, class T, class R>
POPOPS_VEC_INLINE void unary(const T *a, R *o, unsigned n) {
  constexpr bool halfToHalf = IsSame<T, half>::value && IsSame<R, half>::value;
  constexpr bool pipeline =
      !inPlace && !halfToHalf && device::isFloating<T>() && pipelinesUnary<op>();
  unsigned i = 0;
  auto f = [](auto x, auto) { return device::unaryOp<op>(x); };
  if constexpr (vectorUnary<op, T>())
    i = wholeVectors<!inPlace>(a, a, o, n, f);
  else if constexpr (halfToHalf)
    i = halfLanes(
        o, n, [](float x) { return device::unaryOp<op>(x); }, a);
  elements<pipeline>(a, a, o, i, n, [](T x, T) { return device::unaryOp<op>(Compute<T>(x)); });
}

/// p[i] = x for i < n: 64-bit stores of 8 / sizeof(T) copies of x.
template <class T> POPOPS_VEC_INLINE void fill(T *p, unsigned n, T x) {
  constexpr unsigned width = sizeof(T) <= 4 ? 8 / sizeof(T) : 1;
  const unsigned vectors = width > 1 && aligned8(p) ? n / width : 0;
  for (unsigned i = vectors * width; i < n; ++i)
    p[i] = x;
  if constexpr (width > 1) {
    // x's bits repeated over a 64-bit word, stored as two 32-bit lanes.
    unsigned bits = 0;
    __builtin_memcpy(&bits, &x, sizeof(T));
    for (unsigned k = sizeof(T); k < 4; k *= 2)
      bits |= bits << (8 * k);
    uint2 *pv = reinterpret_cast<uint2 *>(p);
    const uint2 word = {bits, bits};
    for (unsigned k = 0; k < vectors; ++k)
      pv[k] = word;
  }
}

/// o[i] = a[i] converted, for i < n: float -> half two float2 loads to one 64-bit store, half ->
/// float a half2 load to each float2 store (f32v2tof16v2, f16v2tof32v2).
template <class From, class To> POPOPS_VEC_INLINE void cast(const From *a, To *o, unsigned n) {
  unsigned i = 0;
  if constexpr (IsSame<From, float>::value && IsSame<To, half>::value) {
    const unsigned vectors = aligned8(a, o) ? n / 4 : 0;
    const float2 *av = reinterpret_cast<const float2 *>(a);
    // Stored as two 32-bit lanes: a half4 built from two half2 is a shuffle, which popc splits
    // into 16-bit moves.
    uint2 *ov = reinterpret_cast<uint2 *>(o);
    for (unsigned k = 0; k < vectors; ++k) {
      half2 lo = __builtin_convertvector(av[2 * k], half2);
      half2 hi = __builtin_convertvector(av[2 * k + 1], half2);
      ov[k] = uint2{__builtin_bit_cast(unsigned, lo), __builtin_bit_cast(unsigned, hi)};
    }
    i = vectors * 4;
  } else if constexpr (IsSame<From, half>::value && IsSame<To, float>::value) {
    const unsigned vectors = aligned8(a, o) ? n / 2 : 0;
    const half2 *av = reinterpret_cast<const half2 *>(a);
    float2 *ov = reinterpret_cast<float2 *>(o);
    for (unsigned k = 0; k < vectors; ++k)
      ov[k] = __builtin_convertvector(av[k], float2);
    i = vectors * 2;
  }
  for (; i < n; ++i)
    o[i] = device::convert<To, From>(a[i]);
}

/// o[i] = min(max(a[i], lo[i]), hi[i]) for i < n: half four through float (max and min of
/// widened halves are exact, so rounding back returns one of them). Float stays one element a
/// trip: its lanes would be loaded as two 32-bit words each (docs/cycles-popops.md, cause 2), so
/// a float2 loop saves no instruction.
template <class T>
POPOPS_VEC_INLINE void clamp(const T *a, const T *lo, const T *hi, T *o, unsigned n) {
  using B = expr::BinaryOpType;
  auto f = [](auto x, auto l, auto h) {
    return device::binaryOp<B::MINIMUM>(device::binaryOp<B::MAXIMUM>(x, l), h);
  };
  unsigned i = 0;
  if constexpr (IsSame<T, half>::value)
    i = halfLanes(o, n, f, a, lo, hi);
  for (; i < n; ++i)
    o[i] = f(Compute<T>(a[i]), Compute<T>(lo[i]), Compute<T>(hi[i]));
}

/// The unsigned integer of a type's size.
template <unsigned bytes> struct BitsOf;
template <> struct BitsOf<1> { using type = unsigned char; };
template <> struct BitsOf<2> { using type = unsigned short; };
template <> struct BitsOf<4> { using type = unsigned; };

/// o[i] = c[i] ? a[i] : b[i] for i < n. Both values are loaded before the select (a select of
/// the two addresses makes popc reload the fields' base pointers every element: 10 instructions
/// against 6), and selected as integers of T's size so that a half is not widened to float
/// for the select. They are loaded as T: through a pointer cast to the integer type popc
/// recomputes each address from the index (13 instructions).
template <class T>
POPOPS_VEC_INLINE void select(const T *a, const T *b, const bool *c, T *o, unsigned n) {
  using Bits = typename BitsOf<sizeof(T)>::type;
  for (unsigned i = 0; i < n; ++i) {
    Bits x = __builtin_bit_cast(Bits, a[i]), y = __builtin_bit_cast(Bits, b[i]);
    o[i] = __builtin_bit_cast(T, c[i] ? x : y);
  }
}

/// x[i] = a * x[i] + b * y[i] for i < n, in T's compute type (float for half: the scales are
/// float, so half lanes are widened to float2, not computed as f16v4).
template <class T>
POPOPS_VEC_INLINE void scaledAdd(T *x, const T *y, unsigned n, Compute<T> a, Compute<T> b) {
  auto scalar = [&](unsigned from) {
    for (unsigned i = from; i < n; ++i)
      x[i] = a * Compute<T>(x[i]) + b * Compute<T>(y[i]);
  };
  constexpr unsigned width = Vector64<T>::width;
  if (width == 1 || !aligned8(x, y)) {
    scalar(0);
    return;
  }
  // The remainder before the vectors, and the unaligned case apart: every loop then directly
  // follows its guard, so popc enters it by falling through and makes it a rpt loop (a vector
  // loop behind the remainder's stays brnzdec: 1 cycle more a vector).
  const unsigned vectors = n / width;
  scalar(vectors * width);
  const float2 av = {float(a), float(a)}, bv = {float(b), float(b)}; // unused for integers
  if constexpr (IsSame<T, float>::value) {
    float2 *xv = reinterpret_cast<float2 *>(x);
    const float2 *yv = reinterpret_cast<const float2 *>(y);
    for (unsigned k = 0; k < vectors; ++k)
      xv[k] = av * xv[k] + bv * yv[k];
  } else if constexpr (IsSame<T, half>::value) {
    const half2 *xh = reinterpret_cast<const half2 *>(x);
    const half2 *yh = reinterpret_cast<const half2 *>(y);
    uint2 *xv = reinterpret_cast<uint2 *>(x);
    for (unsigned k = 0; k < vectors; ++k) {
      float2 lo = av * __builtin_convertvector(xh[2 * k], float2) +
                  bv * __builtin_convertvector(yh[2 * k], float2);
      float2 hi = av * __builtin_convertvector(xh[2 * k + 1], float2) +
                  bv * __builtin_convertvector(yh[2 * k + 1], float2);
      xv[k] = uint2{__builtin_bit_cast(unsigned, __builtin_convertvector(lo, half2)),
                    __builtin_bit_cast(unsigned, __builtin_convertvector(hi, half2))};
    }
  }
}

#undef POPOPS_VEC_INLINE

} // namespace vec
} // namespace popops
