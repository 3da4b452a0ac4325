// IEEE binary64 arithmetic in software for the tile, which has no double-precision unit (as
// Graphcore's compiler emulates it): popc's SoftenDoubles pass turns every double operation of
// a codelet into a call to one of these functions on the value's bits, and links this file in
// when it does. Rounding is to nearest, ties to even; subnormals are kept; an operation that
// makes a NaN returns the canonical NaN, as the tile's float instructions do.
#include <cstdint>

namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;

constexpr u64 kSignBit = u64(1) << 63;
constexpr u64 kFractionMask = (u64(1) << 52) - 1;
constexpr u64 kImplicitBit = u64(1) << 52;
constexpr u64 kInfinity = u64(0x7ff) << 52;
constexpr u64 kCanonicalNaN = u64(0x7ff8) << 48;

inline unsigned exponentOf(u64 x) { return unsigned(x >> 52) & 0x7ff; }
inline bool isNaN(u64 x) { return (x & ~kSignBit) > kInfinity; }
inline bool isInfinity(u64 x) { return (x & ~kSignBit) == kInfinity; }
inline bool isZero(u64 x) { return (x & ~kSignBit) == 0; }

/// x >> n with the bits shifted out OR-ed into bit 0 (they decide rounding).
inline u64 shiftRightSticky(u64 x, unsigned n) {
  if (n == 0)
    return x;
  if (n >= 64)
    return x != 0;
  return (x >> n) | ((x << (64 - n)) != 0);
}

/// The significand with its leading one at bit 52 (subnormals normalised) and the matching
/// biased exponent, which may fall below 1 for a subnormal.
inline u64 unpack(u64 x, int &exponent) {
  exponent = int(exponentOf(x));
  u64 significand = x & kFractionMask;
  if (exponent)
    return significand | kImplicitBit;
  exponent = 1;
  int shift = __builtin_clzll(significand) - 11;
  exponent -= shift;
  return significand << shift;
}

/// The binary64 nearest to sig * 2^(exponent - 1023 - 62), ties to even: `sig` holds the value
/// with its leading one at (or near) bit 62, the low bits deciding the rounding.
u64 roundAndPack(bool negative, int exponent, u64 sig) {
  u64 sign = negative ? kSignBit : 0;
  if (sig == 0)
    return sign;
  int shift = __builtin_clzll(sig) - 1; // leading one to bit 62
  if (shift > 0)
    sig <<= shift;
  else if (shift < 0)
    sig = shiftRightSticky(sig, 1);
  exponent -= shift;
  if (exponent <= 0) { // subnormal: the exponent field is 0, worth 2^(1 - 1023)
    sig = shiftRightSticky(sig, unsigned(1 - exponent));
    exponent = 0;
  }
  u64 m = sig >> 10, rest = sig & 0x3ff;
  if (rest > 0x200 || (rest == 0x200 && (m & 1)))
    ++m;
  if (m >> 53) {
    m >>= 1;
    ++exponent;
  }
  if (exponent == 0 && (m & kImplicitBit))
    exponent = 1; // rounded up to the smallest normal
  if (exponent >= 0x7ff)
    return sign | kInfinity;
  return sign | (u64(exponent) << 52) | (m & kFractionMask);
}

/// The high 64 bits of a * b, and whether the low 64 are nonzero.
u64 multiplyHigh(u64 a, u64 b, bool &lowNonzero) {
  u64 aLo = u32(a), aHi = a >> 32, bLo = u32(b), bHi = b >> 32;
  u64 ll = aLo * bLo, lh = aLo * bHi, hl = aHi * bLo, hh = aHi * bHi;
  u64 middle = (ll >> 32) + u32(lh) + u32(hl);
  lowNonzero = (u32(ll) | u32(middle)) != 0;
  return hh + (lh >> 32) + (hl >> 32) + (middle >> 32);
}

u64 add(u64 a, u64 b) {
  if (isNaN(a) || isNaN(b))
    return kCanonicalNaN;
  if (isInfinity(a))
    return isInfinity(b) && (a ^ b) == kSignBit ? kCanonicalNaN : a;
  if (isInfinity(b))
    return b;
  if (isZero(a) && isZero(b))
    return a & b; // -0 only when both are -0
  if (isZero(a))
    return b;
  if (isZero(b))
    return a;
  int ea, eb;
  u64 ma = unpack(a, ea) << 10, mb = unpack(b, eb) << 10; // leading ones at bit 62
  bool negative = a >> 63;
  if (ea < eb || (ea == eb && ma < mb)) { // |a| >= |b| from here on
    u64 t = ma;
    ma = mb;
    mb = t;
    int e = ea;
    ea = eb;
    eb = e;
    negative = b >> 63;
  }
  mb = shiftRightSticky(mb, unsigned(ea - eb));
  if ((a ^ b) >> 63) {
    u64 difference = ma - mb;
    if (difference == 0)
      return 0; // x - x is +0
    return roundAndPack(negative, ea, difference);
  }
  return roundAndPack(negative, ea, ma + mb);
}

} // namespace

extern "C" {

u64 __popc_dadd(u64 a, u64 b) { return add(a, b); }

u64 __popc_dsub(u64 a, u64 b) { return add(a, b ^ kSignBit); }

u64 __popc_dmul(u64 a, u64 b) {
  if (isNaN(a) || isNaN(b))
    return kCanonicalNaN;
  bool negative = (a ^ b) >> 63;
  u64 sign = negative ? kSignBit : 0;
  if (isInfinity(a) || isInfinity(b))
    return isZero(a) || isZero(b) ? kCanonicalNaN : sign | kInfinity;
  if (isZero(a) || isZero(b))
    return sign;
  int ea, eb;
  u64 ma = unpack(a, ea), mb = unpack(b, eb);
  // ma * mb is in [2^104, 2^106): scaled by 2^21, its high word holds it from bit 61 or 62
  // down, the rest a sticky bit. value = high * 2^(ea + eb - 2107).
  bool lowNonzero;
  u64 high = multiplyHigh(ma << 10, mb << 11, lowNonzero);
  return roundAndPack(negative, ea + eb - 1022, high | lowNonzero);
}

u64 __popc_ddiv(u64 a, u64 b) {
  if (isNaN(a) || isNaN(b))
    return kCanonicalNaN;
  bool negative = (a ^ b) >> 63;
  u64 sign = negative ? kSignBit : 0;
  if (isInfinity(a))
    return isInfinity(b) ? kCanonicalNaN : sign | kInfinity;
  if (isInfinity(b))
    return sign;
  if (isZero(b))
    return isZero(a) ? kCanonicalNaN : sign | kInfinity;
  if (isZero(a))
    return sign;
  int ea, eb;
  u64 ma = unpack(a, ea), mb = unpack(b, eb);
  // Long division: 63 quotient bits of ma / mb, the first worth 2^0 (the quotient is in (1/2,
  // 2)), then the remainder as a sticky bit.
  u64 quotient = 0, remainder = ma;
  for (int bit = 0; bit < 63; ++bit) {
    quotient <<= 1;
    if (remainder >= mb) {
      remainder -= mb;
      quotient |= 1;
    }
    remainder <<= 1;
  }
  // quotient / 2^62 truncates ma / mb; doubled, bit 0 takes the sticky remainder.
  return roundAndPack(negative, ea - eb + 1022, (quotient << 1) | (remainder != 0));
}

/// 1 equal, 2 greater, 4 less, 8 unordered: the bits of LLVM's fcmp predicates, so that a
/// comparison holds when (result & predicate) is nonzero.
u32 __popc_dcmp(u64 a, u64 b) {
  if (isNaN(a) || isNaN(b))
    return 8;
  if ((isZero(a) && isZero(b)) || a == b)
    return 1;
  bool negativeA = a >> 63, negativeB = b >> 63;
  if (negativeA != negativeB)
    return negativeA ? 4 : 2;
  bool less = (a & ~kSignBit) < (b & ~kSignBit); // same sign: compare magnitudes
  return less != negativeA ? 4 : 2;
}

u64 __popc_f32_to_f64(u32 f) {
  u64 sign = u64(f >> 31) << 63;
  unsigned exponent = (f >> 23) & 0xff;
  u64 fraction = f & 0x7fffff;
  if (exponent == 0xff)
    return fraction ? kCanonicalNaN : sign | kInfinity;
  if (exponent == 0) {
    if (fraction == 0)
      return sign;
    // A float subnormal is normal as a double.
    int shift = __builtin_clzll(fraction) - 40; // leading one to bit 23
    fraction = (fraction << shift) & 0x7fffff;
    return sign | (u64(1023 - 126 - shift) << 52) | (fraction << 29);
  }
  return sign | (u64(exponent - 127 + 1023) << 52) | (fraction << 29);
}

/// The nearest float or half (`mantissaBits` 23 or 10, `bias` 127 or 15, `maxExponent` 255 or
/// 31), ties to even, as its bit pattern.
static u32 narrow(u64 x, int mantissaBits, int bias, int maxExponent) {
  u32 sign = u32(x >> 63) << (mantissaBits + (maxExponent == 255 ? 8 : 5));
  u32 infinity = u32(maxExponent) << mantissaBits;
  if (isNaN(x))
    return infinity | (1u << (mantissaBits - 1));
  if (isInfinity(x))
    return sign | infinity;
  if (isZero(x))
    return sign;
  int e;
  u64 m = unpack(x, e); // leading one at bit 52, exponent biased for double
  int exponent = e - 1023 + bias;
  int drop = 52 - mantissaBits; // bits below the target's last mantissa bit
  if (exponent <= 0) {          // subnormal in the target
    m = shiftRightSticky(m, unsigned(1 - exponent));
    exponent = 0;
  }
  u64 kept = m >> drop, rest = m & ((u64(1) << drop) - 1), half = u64(1) << (drop - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  if (kept >> (mantissaBits + 1)) {
    kept >>= 1;
    ++exponent;
  }
  if (exponent == 0 && (kept >> mantissaBits))
    exponent = 1;
  if (exponent >= maxExponent)
    return sign | infinity;
  return sign | (u32(exponent) << mantissaBits) | (u32(kept) & ((1u << mantissaBits) - 1));
}

u32 __popc_f64_to_f32(u64 x) { return narrow(x, 23, 127, 255); }
u32 __popc_f64_to_f16(u64 x) { return narrow(x, 10, 15, 31); }

u64 __popc_u64_to_f64(u64 x) { return roundAndPack(false, 1023 + 62, x); }
u64 __popc_i64_to_f64(u64 x) {
  bool negative = x >> 63;
  return roundAndPack(negative, 1023 + 62, negative ? 0 - x : x);
}

/// Toward zero; NaN gives 0 and out-of-range values saturate, as the tile's ftoi / ftou do.
u64 __popc_f64_to_u64(u64 x) {
  if (isNaN(x) || (x >> 63))
    return 0;
  int e;
  if (isZero(x))
    return 0;
  u64 m = unpack(x, e);
  int shift = e - 1023 - 52; // value = m * 2^shift
  if (shift >= 12)
    return ~u64(0);
  return shift >= 0 ? m << shift : (shift > -64 ? m >> -shift : 0);
}
u64 __popc_f64_to_i64(u64 x) {
  if (isNaN(x))
    return 0;
  u64 magnitude = __popc_f64_to_u64(x & ~kSignBit);
  if (x >> 63)
    return magnitude > kSignBit ? kSignBit : 0 - magnitude;
  return magnitude >= kSignBit ? kSignBit - 1 : magnitude;
}

} // extern "C"
