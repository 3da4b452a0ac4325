// The reference evaluator: one big switch over decoded words, written for clarity, not speed.
#include "ReferenceEvaluator.hpp"

#include "interp/Print.hpp"
#include "isa/CoIssue.hpp"
#include "isa/Isa.hpp"

#include <cmath>
#include <cstring>
#include <optional>

namespace poplar::isatest {

using interp::RunResult;
using interp::Trap;
using isa::Opcode;

uint16_t refFloatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  const uint16_t sign = (bits >> 31) ? 0x8000 : 0;
  if (std::isnan(f))
    return uint16_t(sign | 0x7e00 | ((bits >> 13) & 0x3ff));
  const double a = std::fabs(double(f));
  if (a < std::ldexp(1.0, -14)) // subnormal range: units of 2^-24, ties to even
    return uint16_t(sign | uint16_t(std::nearbyint(a * std::ldexp(1.0, 24))));
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  e -= 1;            // a = 1.x * 2^e
  double m = std::nearbyint(a / std::ldexp(1.0, e - 10));
  if (m == 2048) {
    m = 1024;
    ++e;
  }
  if (e > 15 || std::isinf(f))
    return uint16_t(sign | 0x7c00);
  return uint16_t(sign | ((e + 15) << 10) | (uint32_t(m) - 1024));
}

float refHalfToFloat(uint16_t h) {
  const bool neg = h & 0x8000;
  const int e = (h >> 10) & 0x1f;
  const int m = h & 0x3ff;
  if (e == 31 && m) {
    uint32_t bits = (neg ? 0x80000000u : 0) | 0x7fc00000u | (uint32_t(m) << 13);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  double v = e == 31 ? INFINITY : e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return float(neg ? -v : v);
}

namespace {

float fl(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
int32_t s(uint32_t u) { return int32_t(u); }
// Spec: arithmetic NaN results are the canonical NaN.
float canon(float x) { return std::isnan(x) ? fl(isa::kCanonicalNaN) : x; }
uint32_t nb(float x) { return bits(canon(x)); }

struct Machine {
  const std::vector<uint64_t> &words;
  RefState &st;
  RunResult res;
  uint64_t budget;
  // The model's bundles (isa/CoIssue.hpp): a second half issues with its first, for no cycle.
  std::vector<bool> bundleSeconds = isa::bundleSeconds(words.data(), words.size());

  void set(unsigned reg, uint32_t v) {
    if (reg != 0)
      st.r[reg] = v;
  }

  // Accesses fail with the trap they raise; alignment is checked before bounds.
  std::optional<Trap> check(uint32_t addr, uint32_t n, uint32_t align) {
    if (addr % align != 0) {
      res.address = addr;
      return Trap::Misaligned;
    }
    if (addr < st.base || uint64_t(addr) + n > uint64_t(st.base) + st.mem.size()) {
      res.address = addr;
      return Trap::OutOfBounds;
    }
    return std::nullopt;
  }
  uint64_t rd(uint32_t addr, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i)
      v |= uint64_t(st.mem[addr - st.base + i]) << (8 * i);
    return v;
  }
  void wr(uint32_t addr, unsigned n, uint64_t v) {
    for (unsigned i = 0; i < n; ++i)
      st.mem[addr - st.base + i] = uint8_t(v >> (8 * i));
  }

  static bool isBranch(const isa::Insn &in) {
    auto f = isa::info(in.op).format;
    return f == isa::Format::Jump || f == isa::Format::AJump;
  }

  // The instruction at pc if it may execute: decodable, branch target inside the code, and a
  // rpt body that is in the code and free of control flow.
  std::optional<isa::Insn> fetch(uint32_t pc) {
    if (pc >= words.size())
      return std::nullopt;
    auto in = isa::decode(words[pc]);
    if (!in)
      return std::nullopt;
    const int64_t target = int64_t(pc) + in->imm;
    if (isBranch(*in) && (target < 0 || target >= int64_t(words.size())))
      return std::nullopt;
    if (in->op == Opcode::Rpt) {
      for (int64_t i = 1; i <= in->imm; ++i) {
        auto body = pc + i < int64_t(words.size()) ? isa::decode(words[pc + i]) : std::nullopt;
        if (!body || (isa::info(body->op).flags & isa::CTL))
          return std::nullopt;
      }
    }
    return in;
  }

  // Budget, counting and fetch for one instruction; false if the run stops here.
  bool issue(uint32_t pc, std::optional<isa::Insn> &in) {
    if (res.instructions == budget) {
      res.trap = Trap::BudgetExceeded;
      res.pc = pc;
      return false;
    }
    ++res.instructions;
    in = fetch(pc);
    if (!in) {
      res.trap = Trap::BadInstruction;
      res.pc = pc;
      return false;
    }
    res.cycles += bundleSeconds[pc] ? 0 : isa::cycles(in->op);
    return true;
  }

  // Executes one non-rpt instruction. Returns false when the run stops (exit or trap).
  bool step(uint32_t &pc, const isa::Insn &in);
  RunResult run(uint32_t entry);
};

float lane(const uint32_t *r, unsigned reg, unsigned k) {
  return refHalfToFloat(uint16_t(r[reg + k / 2] >> (16 * (k % 2))));
}

bool Machine::step(uint32_t &pc, const isa::Insn &in) {
  uint32_t *r = st.r;
  const uint32_t a = r[in.ra], b = r[in.rb], c = r[in.rc], im = uint32_t(in.imm);
  const float fa = fl(a), fb = fl(b);
  const unsigned d = in.rd;
  uint32_t next = pc + 1;
  auto stop = [&](Trap t) {
    res.trap = t;
    res.pc = pc;
    return false;
  };
  auto divide = [&](uint32_t x, uint32_t y, bool isSigned, bool rem) -> std::optional<uint32_t> {
    if (y == 0)
      return std::nullopt;
    if (isSigned) {
      int64_t q = int64_t(s(x)) / int64_t(s(y)), m = int64_t(s(x)) % int64_t(s(y));
      return uint32_t(rem ? m : q); // int64 makes INT_MIN / -1 = 2^31, which wraps to INT_MIN
    }
    return rem ? x % y : x / y;
  };
  auto fminRef = [](float x, float y, bool isMax) {
    if (std::isnan(x) && std::isnan(y))
      return fl(isa::kCanonicalNaN);
    if (std::isnan(x))
      return y;
    if (std::isnan(y))
      return x;
    if (x == y) // only differs for signed zeros
      return (std::signbit(x) != isMax) ? x : y;
    return (x < y) != isMax ? x : y;
  };
  auto clampToInt = [](float x, double lo, double hi) -> double {
    if (std::isnan(x))
      return 0;
    double t = std::trunc(double(x));
    return t < lo ? lo : t > hi ? hi : t;
  };
  auto pair = [&](unsigned reg, float lo, float hi) { // arithmetic results
    r[reg] = nb(lo);
    r[reg + 1] = nb(hi);
  };
  auto rawPair = [&](unsigned reg, float lo, float hi) {
    r[reg] = bits(lo);
    r[reg + 1] = bits(hi);
  };
  auto halves = [&](unsigned reg, const float v[4]) {
    uint16_t h[4];
    for (unsigned k = 0; k < 4; ++k)
      h[k] = refFloatToHalf(canon(v[k]));
    uint32_t lo = h[0] | uint32_t(h[1]) << 16;
    uint32_t hi = h[2] | uint32_t(h[3]) << 16;
    r[reg] = lo;
    r[reg + 1] = hi;
  };
  auto load = [&](uint32_t addr, unsigned n, unsigned dst, bool sx, bool half) {
    if (auto t = check(addr, n, n))
      return stop(*t);
    uint64_t v = rd(addr, n);
    if (half)
      set(dst, bits(refHalfToFloat(uint16_t(v))));
    else if (n == 8) {
      r[dst] = uint32_t(v);
      r[dst + 1] = uint32_t(v >> 32);
    } else if (sx)
      set(dst, uint32_t(n == 1 ? int32_t(int8_t(v)) : int32_t(int16_t(v))));
    else
      set(dst, uint32_t(v));
    return true;
  };
  auto storeV = [&](uint32_t addr, unsigned n, uint64_t v) {
    if (auto t = check(addr, n, n))
      return stop(*t);
    wr(addr, n, v);
    return true;
  };
  const uint64_t b64 = uint64_t(r[in.rb]) | uint64_t(r[in.rb + 1 < 64 ? in.rb + 1 : 0]) << 32;
  const uint32_t ea = a + im; // base+offset address
  bool ok = true;
  switch (in.op) {
  case Opcode::Nop:
    break;
  case Opcode::Movi:
    set(d, im);
    break;
  case Opcode::Mov:
    set(d, a);
    break;
  case Opcode::Wid:
    set(d, st.workerId);
    break;
  case Opcode::Print: {
    // The formatting is the interpreter's printf library; the model checks the operands and
    // the result register.
    interp::TileMemory m{st.base, st.mem.data(), uint32_t(st.mem.size())};
    uint32_t written = 0, where = 0;
    if (!interp::detail::printFormatted(m, r[in.ra], r[in.rb], written, where)) {
      res.address = where;
      return stop(Trap::OutOfBounds);
    }
    set(d, written);
    break;
  }
  case Opcode::Spadd: {
    int64_t sp = int64_t(r[62]) + in.imm;
    if (sp < int64_t(st.stackLo) || sp > int64_t(st.stackHi))
      return stop(Trap::StackOverflow);
    r[62] = uint32_t(sp);
    break;
  }
  case Opcode::Exit:
    res.result = a;
    res.pc = pc;
    return false;
  case Opcode::Trap:
    res.result = im;
    return stop(im == isa::kTrapAssertion ? Trap::AssertionFailed : Trap::Explicit);
  case Opcode::Add:
    set(d, a + b);
    break;
  case Opcode::Sub:
    set(d, a - b);
    break;
  case Opcode::Mul:
    set(d, uint32_t(uint64_t(a) * b));
    break;
  case Opcode::Mulhs:
    set(d, uint32_t((int64_t(s(a)) * s(b)) >> 32));
    break;
  case Opcode::Mulhu:
    set(d, uint32_t((uint64_t(a) * b) >> 32));
    break;
  case Opcode::Divs:
  case Opcode::Divu:
  case Opcode::Rems:
  case Opcode::Remu:
  case Opcode::Divsi:
  case Opcode::Divui:
  case Opcode::Remsi:
  case Opcode::Remui: {
    const bool imm = in.op >= Opcode::Divsi;
    const bool sgn = in.op == Opcode::Divs || in.op == Opcode::Rems || in.op == Opcode::Divsi ||
                     in.op == Opcode::Remsi;
    const bool rem = in.op == Opcode::Rems || in.op == Opcode::Remu || in.op == Opcode::Remsi ||
                     in.op == Opcode::Remui;
    auto v = divide(a, imm ? im : b, sgn, rem);
    if (!v)
      return stop(Trap::DivideByZero);
    set(d, *v);
    break;
  }
  case Opcode::And:
    set(d, a & b);
    break;
  case Opcode::Or:
    set(d, a | b);
    break;
  case Opcode::Xor:
    set(d, a ^ b);
    break;
  case Opcode::Shl:
    set(d, uint32_t(uint64_t(a) << (b % 32)));
    break;
  case Opcode::Shr:
    set(d, a >> (b % 32));
    break;
  case Opcode::Sra:
    set(d, uint32_t(int64_t(s(a)) >> (b % 32)));
    break;
  case Opcode::Mins:
    set(d, s(a) < s(b) ? a : b);
    break;
  case Opcode::Maxs:
    set(d, s(a) > s(b) ? a : b);
    break;
  case Opcode::Minu:
    set(d, a < b ? a : b);
    break;
  case Opcode::Maxu:
    set(d, a > b ? a : b);
    break;
  case Opcode::Clz: {
    unsigned n = 0;
    while (n < 32 && !(a >> (31 - n) & 1))
      ++n;
    set(d, n);
    break;
  }
  case Opcode::Ctz: {
    unsigned n = 0;
    while (n < 32 && !(a >> n & 1))
      ++n;
    set(d, n);
    break;
  }
  case Opcode::Popc: {
    unsigned n = 0;
    for (unsigned i = 0; i < 32; ++i)
      n += a >> i & 1;
    set(d, n);
    break;
  }
  case Opcode::Sext8:
    set(d, (a & 0x80) ? (a | 0xffffff00) : (a & 0xff));
    break;
  case Opcode::Sext16:
    set(d, (a & 0x8000) ? (a | 0xffff0000) : (a & 0xffff));
    break;
  case Opcode::Zext8:
    set(d, a % 256);
    break;
  case Opcode::Zext16:
    set(d, a % 65536);
    break;
  case Opcode::Addi:
    set(d, a + im);
    break;
  case Opcode::Muli:
    set(d, uint32_t(uint64_t(a) * im));
    break;
  case Opcode::Andi:
    set(d, a & im);
    break;
  case Opcode::Ori:
    set(d, a | im);
    break;
  case Opcode::Xori:
    set(d, a ^ im);
    break;
  case Opcode::Shli:
    set(d, uint32_t(uint64_t(a) << (im % 32)));
    break;
  case Opcode::Shri:
    set(d, a >> (im % 32));
    break;
  case Opcode::Srai:
    set(d, uint32_t(int64_t(s(a)) >> (im % 32)));
    break;
  case Opcode::Cmpeq:
    set(d, a == b);
    break;
  case Opcode::Cmpne:
    set(d, a != b);
    break;
  case Opcode::Cmplt:
    set(d, s(a) < s(b));
    break;
  case Opcode::Cmple:
    set(d, s(a) <= s(b));
    break;
  case Opcode::Cmpgt:
    set(d, s(a) > s(b));
    break;
  case Opcode::Cmpge:
    set(d, s(a) >= s(b));
    break;
  case Opcode::Cmpltu:
    set(d, a < b);
    break;
  case Opcode::Cmpleu:
    set(d, a <= b);
    break;
  case Opcode::Cmpgtu:
    set(d, a > b);
    break;
  case Opcode::Cmpgeu:
    set(d, a >= b);
    break;
  case Opcode::Cmpeqi:
    set(d, a == im);
    break;
  case Opcode::Cmpnei:
    set(d, a != im);
    break;
  case Opcode::Cmplti:
    set(d, s(a) < in.imm);
    break;
  case Opcode::Cmplei:
    set(d, s(a) <= in.imm);
    break;
  case Opcode::Cmpgti:
    set(d, s(a) > in.imm);
    break;
  case Opcode::Cmpgei:
    set(d, s(a) >= in.imm);
    break;
  case Opcode::Cmpltui:
    set(d, a < im);
    break;
  case Opcode::Cmpleui:
    set(d, a <= im);
    break;
  case Opcode::Cmpgtui:
    set(d, a > im);
    break;
  case Opcode::Cmpgeui:
    set(d, a >= im);
    break;
  case Opcode::Sel:
    set(d, c != 0 ? a : b);
    break;
  case Opcode::Fadd:
    set(d, nb(fa + fb));
    break;
  case Opcode::Fsub:
    set(d, nb(fa - fb));
    break;
  case Opcode::Fmul:
    set(d, nb(fa * fb));
    break;
  case Opcode::Fdiv:
    set(d, nb(fa / fb));
    break;
  case Opcode::Fma:
    set(d, nb(std::fmaf(fa, fb, fl(c))));
    break;
  case Opcode::Fmin:
    set(d, bits(fminRef(fa, fb, false)));
    break;
  case Opcode::Fmax:
    set(d, bits(fminRef(fa, fb, true)));
    break;
  case Opcode::Fabs:
    set(d, a & 0x7fffffff);
    break;
  case Opcode::Fneg:
    set(d, a ^ 0x80000000);
    break;
  case Opcode::Fsqrt:
    set(d, nb(sqrtf(fa)));
    break;
  case Opcode::Fexp:
    set(d, nb(expf(fa)));
    break;
  case Opcode::Flog:
    set(d, nb(logf(fa)));
    break;
  case Opcode::Ftanh:
    set(d, nb(tanhf(fa)));
    break;
  case Opcode::Fsin:
    set(d, nb(sinf(fa)));
    break;
  case Opcode::Fcos:
    set(d, nb(cosf(fa)));
    break;
  case Opcode::Fpow:
    set(d, nb(powf(fa, fb)));
    break;
  case Opcode::Ffloor:
    set(d, nb(floorf(fa)));
    break;
  case Opcode::Fceil:
    set(d, nb(ceilf(fa)));
    break;
  case Opcode::Fround:
    set(d, nb(roundf(fa)));
    break;
  case Opcode::Ftrunc:
    set(d, nb(truncf(fa)));
    break;
  case Opcode::Feq:
    set(d, !std::isnan(fa) && !std::isnan(fb) && fa == fb);
    break;
  case Opcode::Fne:
    set(d, std::isnan(fa) || std::isnan(fb) || fa != fb);
    break;
  case Opcode::Flt:
    set(d, fa < fb);
    break;
  case Opcode::Fle:
    set(d, fa <= fb);
    break;
  case Opcode::Fgt:
    set(d, fa > fb);
    break;
  case Opcode::Fge:
    set(d, fa >= fb);
    break;
  case Opcode::Ford:
    set(d, !std::isnan(fa) && !std::isnan(fb));
    break;
  case Opcode::Funo:
    set(d, std::isnan(fa) || std::isnan(fb));
    break;
  case Opcode::Ftoi:
    set(d, uint32_t(int32_t(clampToInt(fa, -2147483648.0, 2147483647.0))));
    break;
  case Opcode::Ftou:
    set(d, uint32_t(clampToInt(fa, 0, 4294967295.0)));
    break;
  case Opcode::Itof:
    set(d, bits(float(s(a))));
    break;
  case Opcode::Utof:
    set(d, bits(float(a)));
    break;
  case Opcode::Ftoh:
    set(d, refFloatToHalf(fa));
    break;
  case Opcode::Htof:
    set(d, bits(refHalfToFloat(uint16_t(a & 0xffff))));
    break;
  case Opcode::F32v2add:
    pair(d, fa + fb, fl(r[in.ra + 1]) + fl(r[in.rb + 1]));
    break;
  case Opcode::F32v2sub:
    pair(d, fa - fb, fl(r[in.ra + 1]) - fl(r[in.rb + 1]));
    break;
  case Opcode::F32v2mul:
    pair(d, fa * fb, fl(r[in.ra + 1]) * fl(r[in.rb + 1]));
    break;
  case Opcode::F32v2fma:
    pair(d, std::fmaf(fa, fb, fl(c)),
         std::fmaf(fl(r[in.ra + 1]), fl(r[in.rb + 1]), fl(r[in.rc + 1])));
    break;
  case Opcode::F32v2sum:
    set(d, nb(fa + fl(r[in.ra + 1])));
    break;
  case Opcode::F16v4add:
  case Opcode::F16v4mul:
  case Opcode::F16v4fma: {
    float v[4];
    for (unsigned k = 0; k < 4; ++k) {
      const float x = lane(r, in.ra, k), y = lane(r, in.rb, k);
      v[k] = in.op == Opcode::F16v4add   ? x + y
             : in.op == Opcode::F16v4mul ? x * y
                                         : std::fmaf(x, y, lane(r, in.rc, k));
    }
    halves(d, v);
    break;
  }
  case Opcode::F16v4sum:
    set(d, nb((lane(r, in.ra, 0) + lane(r, in.ra, 1)) + (lane(r, in.ra, 2) + lane(r, in.ra, 3))));
    break;
  case Opcode::F16v2tof32v2:
    rawPair(d, refHalfToFloat(uint16_t(a)), refHalfToFloat(uint16_t(a >> 16)));
    break;
  case Opcode::F32v2tof16v2:
    set(d, refFloatToHalf(fa) | uint32_t(refFloatToHalf(fl(r[in.ra + 1]))) << 16);
    break;
  case Opcode::Ld8s:
    ok = load(ea, 1, d, true, false);
    break;
  case Opcode::Ld8u:
    ok = load(ea, 1, d, false, false);
    break;
  case Opcode::Ld16s:
    ok = load(ea, 2, d, true, false);
    break;
  case Opcode::Ld16u:
    ok = load(ea, 2, d, false, false);
    break;
  case Opcode::Ld32:
    ok = load(ea, 4, d, false, false);
    break;
  case Opcode::Ld64:
    ok = load(ea, 8, d, false, false);
    break;
  case Opcode::Ldh:
    ok = load(ea, 2, d, false, true);
    break;
  case Opcode::St8:
    ok = storeV(ea, 1, b & 0xff);
    break;
  case Opcode::St16:
    ok = storeV(ea, 2, b & 0xffff);
    break;
  case Opcode::St32:
    ok = storeV(ea, 4, b);
    break;
  case Opcode::St64:
    ok = storeV(ea, 8, b64);
    break;
  case Opcode::Sth:
    ok = storeV(ea, 2, refFloatToHalf(fb));
    break;
  // Post-increment: access at the old base, then the base moves (a load may not write it).
  case Opcode::Ld8sp:
    ok = load(a, 1, d, true, false);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::Ld8up:
    ok = load(a, 1, d, false, false);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::Ld16sp:
    ok = load(a, 2, d, true, false);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::Ld16up:
    ok = load(a, 2, d, false, false);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::Ld32p:
    ok = load(a, 4, d, false, false);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::Ld64p:
    ok = load(a, 8, d, false, false);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::Ldhp:
    ok = load(a, 2, d, false, true);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::St8p:
    ok = storeV(a, 1, b & 0xff);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::St16p:
    ok = storeV(a, 2, b & 0xffff);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::St32p:
    ok = storeV(a, 4, b);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::St64p:
    ok = storeV(a, 8, b64);
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::Sthp:
    ok = storeV(a, 2, refFloatToHalf(fb));
    if (ok)
      r[in.ra] = a + im;
    break;
  case Opcode::Br:
    next = pc + im;
    break;
  case Opcode::Brz:
    if (a == 0)
      next = pc + im;
    break;
  case Opcode::Brnz:
    if (a != 0)
      next = pc + im;
    break;
  case Opcode::Brnzdec:
    if (a != 0) {
      r[in.ra] = a - 1;
      next = pc + im;
    }
    break;
  case Opcode::Call:
    r[63] = pc + 1;
    next = pc + im;
    break;
  case Opcode::Ret:
    if (r[63] == isa::kExitLr) {
      res.result = r[1];
      res.pc = pc;
      return false;
    }
    if (r[63] >= words.size())
      return stop(Trap::BadJump);
    next = r[63];
    break;
  case Opcode::Rpt:
    break; // handled by run()
  case Opcode::Ampclr:
    for (float &x : st.acc)
      x = 0;
    break;
  case Opcode::Ampwf32:
    if (auto t = check(a, 64, 4))
      return stop(*t);
    for (unsigned i = 0; i < 16; ++i)
      st.w[i] = fl(uint32_t(rd(a + 4 * i, 4)));
    break;
  case Opcode::Ampwf16:
    if (auto t = check(a, 128, 2))
      return stop(*t);
    for (unsigned i = 0; i < 64; ++i)
      st.w[i] = refHalfToFloat(uint16_t(rd(a + 2 * i, 2)));
    break;
  case Opcode::Ampf32:
    for (unsigned i = 0; i < 8; ++i)
      st.acc[i] =
          canon(std::fma(st.w[2 * i + 1], fl(r[in.ra + 1]), std::fma(st.w[2 * i], fa, st.acc[i])));
    break;
  case Opcode::Ampf16:
    for (unsigned i = 0; i < 16; ++i) {
      float sum = st.w[4 * i] * lane(r, in.ra, 0);
      for (unsigned k = 1; k < 4; ++k)
        sum = sum + st.w[4 * i + k] * lane(r, in.ra, k);
      st.acc[i] = canon(st.acc[i] + sum);
    }
    break;
  case Opcode::Ampcfg:
    st.passInStride = a;
    st.passOutStride = b;
    set(d, 0);
    break;
  case Opcode::Ampw32:
  case Opcode::Ampw16: {
    const unsigned size = in.op == Opcode::Ampw32 ? 4 : 2;
    const uint32_t oc = b & 0xff, ic = (b >> 8) & 0xff, stride = b >> 16;
    if (oc == 0 || oc > 32 / size || ic == 0 || ic > 16 || stride < oc) {
      res.address = a;
      return stop(Trap::BadInstruction);
    }
    if (auto t = check(a, size * ((ic - 1) * stride + oc), size))
      return stop(*t);
    st.passOut = oc;
    st.passIn = ic;
    for (uint32_t o = 0; o < 16; ++o)
      for (uint32_t i = 0; i < 16; ++i) {
        const uint32_t at = a + size * (i * stride + o);
        st.pw[o][i] = o >= oc || i >= ic ? 0.0f
                      : size == 4        ? fl(uint32_t(rd(at, 4)))
                                         : refHalfToFloat(uint16_t(rd(at, 2)));
      }
    set(d, oc * ic);
    break;
  }
  case Opcode::Amp32:
  case Opcode::Amp16:
  case Opcode::Amp16h: {
    const unsigned inSize = in.op == Opcode::Amp32 ? 4 : 2;
    const unsigned outSize = in.op == Opcode::Amp16h ? 2 : 4;
    const uint32_t n = c & 0x7fffffffu;
    auto span = [&](uint32_t addr, uint32_t stride, unsigned size, uint32_t chans) {
      if (stride % size != 0) {
        res.address = addr;
        return std::optional<Trap>(Trap::Misaligned);
      }
      const uint64_t bytes = uint64_t(n - 1) * stride + size * chans;
      if (addr % size == 0 && bytes > st.mem.size()) {
        res.address = addr;
        return std::optional<Trap>(Trap::OutOfBounds);
      }
      return check(addr, uint32_t(bytes), size);
    };
    if (n != 0) {
      if (auto t = span(a, st.passInStride, inSize, st.passIn))
        return stop(*t);
      if (auto t = span(b, st.passOutStride, outSize, st.passOut))
        return stop(*t);
    }
    auto load = [&](uint32_t at, unsigned size) {
      return size == 4 ? fl(uint32_t(rd(at, 4))) : refHalfToFloat(uint16_t(rd(at, 2)));
    };
    for (uint32_t p = 0; p < n; ++p) { // a position reads all its operands, then writes
      const uint32_t x = a + p * st.passInStride, y = b + p * st.passOutStride;
      float sums[16];
      for (uint32_t o = 0; o < st.passOut; ++o) {
        sums[o] = c >> 31 ? 0.0f : load(y + outSize * o, outSize);
        for (uint32_t i = 0; i < st.passIn; ++i)
          sums[o] = std::fma(st.pw[o][i], load(x + inSize * i, inSize), sums[o]);
      }
      for (uint32_t o = 0; o < st.passOut; ++o) {
        if (outSize == 4)
          wr(y + 4 * o, 4, nb(sums[o]));
        else
          wr(y + 2 * o, 2, refFloatToHalf(canon(sums[o])));
      }
    }
    res.cycles += uint64_t(in.op == Opcode::Amp32 ? isa::kAmpF32CyclesPerPosition
                                                  : isa::kAmpF16CyclesPerPosition) *
                  n;
    set(d, n);
    break;
  }
  case Opcode::Ampget:
    rawPair(d, st.acc[2 * im], st.acc[2 * im + 1]);
    break;
  case Opcode::Ampput:
    st.acc[2 * im] = fa;
    st.acc[2 * im + 1] = fl(r[in.ra + 1]);
    break;
  }
  pc = next;
  return ok;
}

RunResult Machine::run(uint32_t pc) {
  if (pc >= words.size()) {
    res.trap = Trap::BadJump;
    res.pc = pc;
    return res;
  }
  for (;;) {
    std::optional<isa::Insn> in;
    if (!issue(pc, in))
      return res;
    if (in->op != Opcode::Rpt) {
      if (!step(pc, *in))
        return res;
      continue;
    }
    const uint32_t count = st.r[in->ra], len = uint32_t(in->imm);
    for (uint32_t k = 0; k < count; ++k) {
      for (uint32_t i = 1; i <= len; ++i) {
        uint32_t bodyPc = pc + i;
        std::optional<isa::Insn> body;
        if (!issue(bodyPc, body) || !step(bodyPc, *body))
          return res;
      }
    }
    pc += len + 1;
  }
}

} // namespace

RunResult referenceRun(const std::vector<uint64_t> &words, uint32_t entryPc, RefState &state,
                       uint64_t budget) {
  Machine m{words, state, {}, budget};
  return m.run(entryPc);
}

} // namespace poplar::isatest
