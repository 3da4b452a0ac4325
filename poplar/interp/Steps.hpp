// One instruction's semantics as an inline function, shared by its own handler and by every
// fused pair (Fusions.def) it takes part in; also the one-compare tile memory check.
#pragma once

#include "interp/Decoder.hpp"
#include "interp/Ops.hpp"

#include <algorithm>

namespace poplar::interp::ops {

// Tile memory with bounds precomputed per access size 2^k (k = 0..3), so an aligned,
// in-window check is one rotate and one compare (see inWindow).
struct Window {
  uint8_t *data;
  uint32_t base;
  uint32_t lo[4];  // first aligned address >> k
  int64_t span[4]; // (last aligned address that fits) >> k, minus lo; < 0 if none fits
};

inline Window window(const TileMemory &m) {
  Window w{m.data, m.base, {}, {}};
  for (unsigned k = 0; k < 4; ++k) {
    const int64_t n = int64_t(1) << k;
    const int64_t first = (int64_t(m.base) + n - 1) >> k;
    const int64_t last = std::min<int64_t>(int64_t(m.base) + m.size - n, 0xffffffffll) >> k;
    w.lo[k] = uint32_t(first);
    w.span[k] = int64_t(m.size) < n ? -1 : last - first;
  }
  return w;
}

// [addr, addr + 2^K) is in the window and addr is a multiple of 2^K. Rotating right by K
// moves misaligned low bits to the top, which puts the value above every aligned one.
template <unsigned K> inline bool inWindow(const Window &w, uint32_t addr) {
  uint32_t r = addr;
  if constexpr (K != 0)
    r = (addr >> K) | (addr << (32 - K));
  return int64_t(uint32_t(r - w.lo[K])) <= w.span[K];
}

// A store's check: the same as a load's here; a memory-checked window (MemCheck.hpp) also
// asks whether the address is writable.
template <unsigned K> inline bool inWindowStore(const Window &w, uint32_t addr) {
  return inWindow<K>(w, addr);
}

template <typename T> inline T load(const Window &w, uint32_t addr) {
  T v;
  std::memcpy(&v, w.data + (addr - w.base), sizeof(T));
  return v;
}
template <typename T> inline void store(const Window &w, uint32_t addr, T v) {
  std::memcpy(w.data + (addr - w.base), &v, sizeof(T));
}

// The alignment an access of this op needs, for telling Misaligned from OutOfBounds.
inline uint32_t accessAlign(uint16_t op) {
  switch (static_cast<isa::Opcode>(op)) {
  case isa::Opcode::Ld8s:
  case isa::Opcode::Ld8u:
  case isa::Opcode::St8:
  case isa::Opcode::Ld8sp:
  case isa::Opcode::Ld8up:
  case isa::Opcode::St8p:
  case isa::Opcode::Print: // reads bytes and unaligned slots: only out of bounds
    return 1;
  case isa::Opcode::Ld32:
  case isa::Opcode::St32:
  case isa::Opcode::Ld32p:
  case isa::Opcode::St32p:
  case isa::Opcode::Ampwf32:
    return 4;
  case isa::Opcode::Ld64:
  case isa::Opcode::St64:
  case isa::Opcode::Ld64p:
  case isa::Opcode::St64p:
    return 8;
  default:
    return 2;
  }
}

// Step functions: false means a memory fault at `addr` (nothing was written). Post-increment
// forms update ra before writing rd, so rd wins when they are the same register.
using Regs = uint32_t *;

template <class W> inline bool stepLd32(const DecodedInsn &d, Regs R, const W &w, uint32_t &addr) {
  addr = R[d.ra] + d.imm;
  if (!inWindow<2>(w, addr))
    return false;
  R[d.rd] = load<uint32_t>(w, addr);
  return true;
}
template <class W> inline bool stepLd32p(const DecodedInsn &d, Regs R, const W &w, uint32_t &addr) {
  addr = R[d.ra];
  if (!inWindow<2>(w, addr))
    return false;
  R[d.ra] += d.imm;
  R[d.rd] = load<uint32_t>(w, addr);
  return true;
}
template <class W> inline bool stepLdh(const DecodedInsn &d, Regs R, const W &w, uint32_t &addr) {
  addr = R[d.ra] + d.imm;
  if (!inWindow<1>(w, addr))
    return false;
  R[d.rd] = htof(load<uint16_t>(w, addr));
  return true;
}
template <class W> inline bool stepLdhp(const DecodedInsn &d, Regs R, const W &w, uint32_t &addr) {
  addr = R[d.ra];
  if (!inWindow<1>(w, addr))
    return false;
  R[d.ra] += d.imm;
  R[d.rd] = htof(load<uint16_t>(w, addr));
  return true;
}
template <class W> inline bool stepSt32(const DecodedInsn &d, Regs R, const W &w, uint32_t &addr) {
  addr = R[d.ra] + d.imm;
  if (!inWindowStore<2>(w, addr))
    return false;
  store<uint32_t>(w, addr, R[d.rb]);
  return true;
}
template <class W> inline bool stepSt32p(const DecodedInsn &d, Regs R, const W &w, uint32_t &addr) {
  addr = R[d.ra];
  if (!inWindowStore<2>(w, addr))
    return false;
  store<uint32_t>(w, addr, R[d.rb]);
  R[d.ra] += d.imm;
  return true;
}
template <class W> inline bool stepSthp(const DecodedInsn &d, Regs R, const W &w, uint32_t &addr) {
  addr = R[d.ra];
  if (!inWindowStore<1>(w, addr))
    return false;
  store<uint16_t>(w, addr, uint16_t(ftoh(R[d.rb])));
  R[d.ra] += d.imm;
  return true;
}
template <class W> inline bool stepFadd(const DecodedInsn &d, Regs R, const W &, uint32_t &) {
  R[d.rd] = un(f(R[d.ra]) + f(R[d.rb]));
  return true;
}
template <class W> inline bool stepFmul(const DecodedInsn &d, Regs R, const W &, uint32_t &) {
  R[d.rd] = un(f(R[d.ra]) * f(R[d.rb]));
  return true;
}
template <class W> inline bool stepFma(const DecodedInsn &d, Regs R, const W &, uint32_t &) {
  R[d.rd] = un(std::fma(f(R[d.ra]), f(R[d.rb]), f(R[d.rc])));
  return true;
}
template <class W> inline bool stepFtoh(const DecodedInsn &d, Regs R, const W &, uint32_t &) {
  R[d.rd] = ftoh(R[d.ra]);
  return true;
}
template <class W> inline bool stepHtof(const DecodedInsn &d, Regs R, const W &, uint32_t &) {
  R[d.rd] = htof(R[d.ra] & 0xffff);
  return true;
}
template <class W> inline bool stepAddi(const DecodedInsn &d, Regs R, const W &, uint32_t &) {
  R[d.rd] = R[d.ra] + d.imm;
  return true;
}

} // namespace poplar::interp::ops
