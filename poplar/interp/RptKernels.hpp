// Whole-rpt superinstructions: a short rpt body of a known shape (sum, dot) run as a C++ loop
// with its registers in host registers, so the accumulator's dependency chain does not go
// through the in-memory register file once per instruction.
//
// The decoder picks a kernel only from the decoded body (matchRptKernel in Decoder.cpp); the
// fast loops run one only when the budget covers the whole rpt. A kernel does what the body
// would, in the same order, with the same memory accesses and results. NaNs are made canonical
// only where a value is observed (stored, or written back): a NaN stays a NaN through f32
// add, mul and fma, so that is the same bits as canonicalising every step. On a
// fault it writes the registers back and returns the iteration, with `step` the body index of
// the faulting instruction; the caller turns that into a pc and refunds what was not issued.
#pragma once

#include "interp/Steps.hpp"

namespace poplar::interp::ops {

// `ld32p X,[P+=s]; fadd A,A,X` then, if kStore, `st32 A,[Q+imm]`. Returns n if no fault.
template <bool kStore, class W>
inline uint64_t rptSum(const DecodedInsn *b, uint64_t n, Regs R, const W &w, uint32_t &addr,
                       uint32_t &step) {
  const DecodedInsn &ld = b[0], &add = b[1];
  uint32_t p = R[ld.ra], x = R[ld.rd];
  const uint32_t s = ld.imm;
  float acc = f(R[add.rd]);
  const uint32_t out = kStore ? R[b[2].ra] + b[2].imm : 0;
  const bool outOk = !kStore || inWindowStore<2>(w, out);
  bool added = false;
  uint64_t i = 0;
  for (; i < n; ++i) {
    if (!inWindow<2>(w, p)) {
      addr = p, step = 0;
      break;
    }
    x = load<uint32_t>(w, p);
    p += s;
    acc = acc + f(x);
    added = true;
    if (kStore) {
      if (!outOk) {
        addr = out, step = 2;
        break;
      }
      store<float>(w, out, fn(acc));
    }
  }
  R[ld.ra] = p;
  R[ld.rd] = x;
  if (added)
    R[add.rd] = un(acc);
  return i;
}

// `ld32p X,[P+=s]; ld32p Y,[Q+=t]` then `fmul M,X,Y; fadd A,A,M`, or (kFma) `fma A,X,Y,A`.
template <bool kFma, class W>
inline uint64_t rptDot(const DecodedInsn *b, uint64_t n, Regs R, const W &w, uint32_t &addr,
                       uint32_t &step) {
  const DecodedInsn &la = b[0], &lb = b[1], &acc0 = b[kFma ? 2 : 3];
  uint32_t p = R[la.ra], q = R[lb.ra], x = R[la.rd], y = R[lb.rd];
  const uint32_t s = la.imm, t = lb.imm;
  float m = kFma ? 0.0f : f(R[b[2].rd]), acc = f(R[acc0.rd]);
  bool wroteAcc = false;
  uint64_t i = 0;
  for (; i < n; ++i) {
    if (!inWindow<2>(w, p)) {
      addr = p, step = 0;
      break;
    }
    x = load<uint32_t>(w, p);
    p += s;
    if (!inWindow<2>(w, q)) {
      addr = q, step = 1;
      break;
    }
    y = load<uint32_t>(w, q);
    q += t;
    if (kFma) {
      acc = std::fma(f(x), f(y), acc);
    } else {
      m = f(x) * f(y);
      acc = acc + m;
    }
    wroteAcc = true;
  }
  R[la.ra] = p;
  R[la.rd] = x;
  R[lb.ra] = q;
  R[lb.rd] = y;
  if (wroteAcc) {
    if (!kFma)
      R[b[2].rd] = un(m);
    R[acc0.rd] = un(acc);
  }
  return i;
}

} // namespace poplar::interp::ops
