// Semantics of the non-trivial instructions as small inline functions shared by both dispatchers.
#pragma once

#include "interp/AmpKernel.hpp"
#include "interp/Interpreter.hpp"
#include "isa/Half.hpp"
#include "support/CopyBytes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace poplar::interp::ops {

using isa::bitsToFloat;
using isa::floatToBits;

inline float f(uint32_t u) { return bitsToFloat(u); }
inline uint32_t u(float x) { return floatToBits(x); }
// An arithmetic result: NaNs become the canonical NaN, because which input NaN the host
// propagates depends on the compiler's operand order (it may commute a+b or a*b in fma).
inline uint32_t un(float x) { return x != x ? isa::kCanonicalNaN : floatToBits(x); }
inline float fn(float x) { return x != x ? bitsToFloat(isa::kCanonicalNaN) : x; }

// Tile memory is little-endian like the IPU; so is every host we build for.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "tile memory access assumes LE host");

// True if [addr, addr+n) lies in the window and addr is a multiple of align (a power of 2).
inline bool accessOk(const TileMemory &m, uint32_t addr, uint32_t n, uint32_t align) {
  return !(addr & (align - 1)) && uint64_t(uint32_t(addr - m.base)) + n <= m.size;
}
inline Trap accessTrap(uint32_t addr, uint32_t align) {
  return (addr & (align - 1)) ? Trap::Misaligned : Trap::OutOfBounds;
}

template <typename T> inline T load(const TileMemory &m, uint32_t addr) {
  T v;
  std::memcpy(&v, m.data + (addr - m.base), sizeof(T));
  return v;
}
template <typename T> inline void store(const TileMemory &m, uint32_t addr, T v) {
  std::memcpy(m.data + (addr - m.base), &v, sizeof(T));
}

// Callers have already trapped on a zero divisor; INT_MIN / -1 wraps as on two's complement.
inline uint32_t divs(uint32_t a, uint32_t b) {
  if (int32_t(b) == -1)
    return 0u - a;
  return uint32_t(int32_t(a) / int32_t(b));
}
inline uint32_t rems(uint32_t a, uint32_t b) {
  if (int32_t(b) == -1)
    return 0;
  return uint32_t(int32_t(a) % int32_t(b));
}
inline uint32_t sra(uint32_t a, uint32_t s) { return uint32_t(int32_t(a) >> (s & 31)); }
inline uint32_t mulhs(uint32_t a, uint32_t b) {
  return uint32_t(uint64_t(int64_t(int32_t(a)) * int64_t(int32_t(b))) >> 32);
}
inline uint32_t mulhu(uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) * b) >> 32); }
inline uint32_t clz(uint32_t a) { return a ? uint32_t(__builtin_clz(a)) : 32; }
inline uint32_t ctz(uint32_t a) { return a ? uint32_t(__builtin_ctz(a)) : 32; }
inline uint32_t sext8(uint32_t a) { return uint32_t(int32_t(int8_t(uint8_t(a)))); }
inline uint32_t sext16(uint32_t a) { return uint32_t(int32_t(int16_t(uint16_t(a)))); }

// IEEE 754-2019 minimumNumber/maximumNumber: a NaN loses, and -0 < +0.
inline uint32_t fmin(uint32_t a, uint32_t b) {
  const float x = f(a), y = f(b);
  if (std::isnan(x))
    return std::isnan(y) ? isa::kCanonicalNaN : b;
  if (std::isnan(y) || x < y || (x == y && std::signbit(x)))
    return a;
  return b;
}
inline uint32_t fmax(uint32_t a, uint32_t b) {
  const float x = f(a), y = f(b);
  if (std::isnan(x))
    return std::isnan(y) ? isa::kCanonicalNaN : b;
  if (std::isnan(y) || x > y || (x == y && !std::signbit(x)))
    return a;
  return b;
}

inline uint32_t ftoi(uint32_t a) {
  const float x = f(a);
  if (std::isnan(x))
    return 0;
  if (x >= 2147483648.0f)
    return uint32_t(std::numeric_limits<int32_t>::max());
  if (x <= -2147483648.0f)
    return uint32_t(std::numeric_limits<int32_t>::min());
  return uint32_t(int32_t(x));
}
inline uint32_t ftou(uint32_t a) {
  const float x = f(a);
  if (!(x > -1.0f)) // NaN or <= -1
    return 0;
  if (x >= 4294967296.0f)
    return 0xffffffffu;
  return uint32_t(x);
}

inline uint32_t ftoh(uint32_t a) { return isa::floatToHalf(f(a)); }
inline uint32_t htof(uint32_t a) { return u(isa::halfToFloat(uint16_t(a))); }

// f16 lane k (0..3) of a register pair.
inline float lane16(const uint32_t *pair, unsigned k) {
  return isa::halfToFloat(uint16_t(pair[k >> 1] >> ((k & 1) * 16)));
}
inline void setLane16(uint32_t *pair, unsigned k, float v) {
  const unsigned shift = (k & 1) * 16;
  pair[k >> 1] =
      (pair[k >> 1] & ~(0xffffu << shift)) | (uint32_t(isa::floatToHalf(fn(v))) << shift);
}

enum class VecOp { Add, Sub, Mul };
inline float apply(VecOp op, float x, float y) {
  return op == VecOp::Add ? x + y : op == VecOp::Sub ? x - y : x * y;
}

// Pair operations read both sources before writing, so rd may alias ra or rb.
inline void f32v2(uint32_t *r, unsigned d, unsigned a, unsigned b, VecOp op) {
  const float x0 = apply(op, f(r[a]), f(r[b])), x1 = apply(op, f(r[a + 1]), f(r[b + 1]));
  r[d] = un(x0);
  r[d + 1] = un(x1);
}
inline void f32v2fma(uint32_t *r, unsigned d, unsigned a, unsigned b, unsigned c) {
  const float x0 = std::fma(f(r[a]), f(r[b]), f(r[c]));
  const float x1 = std::fma(f(r[a + 1]), f(r[b + 1]), f(r[c + 1]));
  r[d] = un(x0);
  r[d + 1] = un(x1);
}
inline void f16v4(uint32_t *r, unsigned d, unsigned a, unsigned b, VecOp op) {
  uint32_t out[2] = {0, 0};
  for (unsigned k = 0; k < 4; ++k)
    setLane16(out, k, apply(op, lane16(r + a, k), lane16(r + b, k)));
  r[d] = out[0];
  r[d + 1] = out[1];
}
inline void f16v4fma(uint32_t *r, unsigned d, unsigned a, unsigned b, unsigned c) {
  uint32_t out[2] = {0, 0};
  for (unsigned k = 0; k < 4; ++k)
    setLane16(out, k, std::fma(lane16(r + a, k), lane16(r + b, k), lane16(r + c, k)));
  r[d] = out[0];
  r[d + 1] = out[1];
}
inline uint32_t f16v4sum(const uint32_t *r, unsigned a) {
  return un((lane16(r + a, 0) + lane16(r + a, 1)) + (lane16(r + a, 2) + lane16(r + a, 3)));
}
inline void f16v2tof32v2(uint32_t *r, unsigned d, unsigned a) {
  const uint32_t v = r[a];
  r[d] = htof(v & 0xffff);
  r[d + 1] = htof(v >> 16);
}
inline uint32_t f32v2tof16v2(const uint32_t *r, unsigned a) {
  return ftoh(r[a]) | (ftoh(r[a + 1]) << 16);
}

// AMP (Opcodes.def group Amp). Callers have bounds-checked the weight block.
inline void ampLoadF32(WorkerState &s, const TileMemory &m, uint32_t addr) {
  for (unsigned i = 0; i < 16; ++i)
    s.weights[i] = f(load<uint32_t>(m, addr + 4 * i));
}
inline void ampLoadF16(WorkerState &s, const TileMemory &m, uint32_t addr) {
  for (unsigned i = 0; i < 64; ++i)
    s.weights[i] = isa::halfToFloat(load<uint16_t>(m, addr + 2 * i));
}
// The AMP MACs take their operand pair by value, so that the native tier (which keeps the
// registers in host registers) calls them as they are.
inline void ampF32(WorkerState &s, uint32_t lo, uint32_t hi) {
  const float x0 = f(lo), x1 = f(hi);
  for (unsigned i = 0; i < 8; ++i)
    s.acc[i] = fn(std::fma(s.weights[2 * i + 1], x1, std::fma(s.weights[2 * i], x0, s.acc[i])));
}
inline void ampF16(WorkerState &s, uint32_t lo, uint32_t hi) {
  const uint32_t pair[2] = {lo, hi};
  float x[4];
  for (unsigned k = 0; k < 4; ++k)
    x[k] = lane16(pair, k);
  for (unsigned i = 0; i < 16; ++i) {
    const float *w = s.weights + 4 * i;
    s.acc[i] = fn(s.acc[i] + (((w[0] * x[0] + w[1] * x[1]) + w[2] * x[2]) + w[3] * x[3]));
  }
}

// The trap an AMP access of `n` bytes at `addr` in steps of `stride` raises, if any:
// alignment (of the address and of the stride) before bounds, as the reference checks.
inline Trap ampAccessTrap(const TileMemory &m, uint32_t addr, uint64_t n, uint32_t stride,
                          uint32_t align) {
  if ((addr | stride) & (align - 1))
    return Trap::Misaligned;
  return n <= m.size && accessOk(m, addr, uint32_t(n), 1) ? Trap::None : Trap::OutOfBounds;
}

// An AMP coefficient load (Opcodes.def, group AmpPass) of T: float, or uint16_t for f16.
template <typename T>
inline Trap ampLoadPass(AmpPassState &a, const TileMemory &m, uint32_t base, uint32_t shape) {
  constexpr uint32_t maxOut = sizeof(T) == 4 ? 8 : 16;
  const uint32_t oc = shape & 0xff, ic = (shape >> 8) & 0xff, stride = shape >> 16;
  if (oc == 0 || oc > maxOut || ic == 0 || ic > AmpPassState::kMaxChans || stride < oc)
    return Trap::BadInstruction;
  if (Trap t = ampAccessTrap(m, base, sizeof(T) * ((ic - 1) * stride + oc), 0, sizeof(T));
      t != Trap::None)
    return t;
  // Only rows [0, ic) are read until the next load, so only they are written: zero beyond oc.
  a.outChans = oc;
  a.inChans = ic;
  const uint8_t *const src = m.data + (base - m.base);
  if constexpr (sizeof(T) == 2) {
    ampLoadRowsF16(a, src, 2 * stride); // the host's vector conversion (AmpKernel.cpp)
    return Trap::None;
  }
  // f32 coefficients are the words as they are: a row is a copy of its 8 lanes (the f32 pass
  // reads no more), zero beyond oc.
  for (uint32_t i = 0; i < ic; ++i) {
    float *row = a.w[i];
    if (oc < maxOut)
      std::fill(row, row + maxOut, 0.0f);
    popsdk::support::copyBytes<4 * maxOut>(reinterpret_cast<uint8_t *>(row), src + 4 * i * stride,
                                           4 * oc);
  }
  return Trap::None;
}

// Runs the pass over the positions `ctl` gives. Nothing is written if it traps; `addr` is the
// base of the bad operand (input first).
template <typename In, typename Out>
inline Trap ampRunPass(const AmpPassState &a, const TileMemory &m, uint32_t in, uint32_t out,
                       uint32_t ctl, uint32_t &addr) {
  const uint32_t n = ctl & 0x7fffffffu;
  const bool zero = ctl >> 31;
  if (n == 0)
    return Trap::None;
  addr = in;
  if (Trap t = ampAccessTrap(m, in, uint64_t(n - 1) * a.inStride + sizeof(In) * a.inChans,
                             a.inStride, sizeof(In));
      t != Trap::None)
    return t;
  addr = out;
  if (Trap t = ampAccessTrap(m, out, uint64_t(n - 1) * a.outStride + sizeof(Out) * a.outChans,
                             a.outStride, sizeof(Out));
      t != Trap::None)
    return t;
  uint8_t *const x = m.data + (in - m.base), *const y = m.data + (out - m.base);
  if constexpr (sizeof(In) == 4)
    ampPositionsF32(a, x, y, n, zero);
  else
    ampPositionsF16(a, x, y, n, zero, sizeof(Out) == 2);
  return Trap::None;
}

} // namespace poplar::interp::ops
