// The host functions translated code calls: thin wrappers over the interpreter's Ops.hpp.
#include "interp/NativeHelpers.hpp"

#include "interp/Ops.hpp"
#include "interp/Print.hpp"
#include "interp/Steps.hpp"

#include <cmath>

namespace poplar::interp {

namespace {

using namespace ops;
using U32 = std::uint32_t;
using U64 = std::uint64_t;

// Registers laid out for the Ops.hpp functions that index a register file: operands at 0, 2
// and 4, the result at 6.
struct PairFile {
  U32 r[8] = {};
  explicit PairFile(U64 a, U64 b = 0, U64 c = 0) {
    put(0, a);
    put(2, b);
    put(4, c);
  }
  void put(unsigned i, U64 v) {
    r[i] = U32(v);
    r[i + 1] = U32(v >> 32);
  }
  U64 result() const { return r[6] | U64(r[7]) << 32; }
};

U64 f16v4Binary(U64 a, U64 b, VecOp op) {
  PairFile p(a, b);
  f16v4(p.r, 6, 0, 2, op);
  return p.result();
}

template <isa::Opcode Op, U32 Bytes, U32 Align>
U32 ampWeights(WorkerState *s, const TileMemory *m, U32 addr) {
  if (!accessOk(*m, addr, Bytes, Align))
    return U32(accessTrap(addr, accessAlign(std::uint16_t(Op))));
  if constexpr (Op == isa::Opcode::Ampwf32)
    ampLoadF32(*s, *m, addr);
  else
    ampLoadF16(*s, *m, addr);
  return U32(Trap::None);
}

template <typename T>
U32 ampLoad(WorkerState *s, const TileMemory *m, U32 base, U32 shape, U32 *rd) {
  const Trap t = ampLoadPass<T>(s->amp, *m, base, shape);
  *rd = s->amp.outChans * s->amp.inChans;
  return U32(t);
}

template <typename In, typename Out>
U32 ampRun(WorkerState *s, const TileMemory *m, U32 in, U32 out, U32 ctl, U32 *addr) {
  return U32(ampRunPass<In, Out>(s->amp, *m, in, out, ctl, *addr));
}

const NativeHelpers kHelpers = {
    [](U32 a) { return un(std::exp(f(a))); },
    [](U32 a) { return un(std::log(f(a))); },
    [](U32 a) { return un(std::tanh(f(a))); },
    [](U32 a) { return un(std::sin(f(a))); },
    [](U32 a) { return un(std::cos(f(a))); },
    [](U32 a, U32 b) { return un(std::pow(f(a), f(b))); },
    [](U32 a) { return ftoh(a); },
    [](U32 a) { return htof(a); },
    [](U64 a, U64 b) { return f16v4Binary(a, b, VecOp::Add); },
    [](U64 a, U64 b) { return f16v4Binary(a, b, VecOp::Mul); },
    [](U64 a, U64 b, U64 c) {
      PairFile p(a, b, c);
      f16v4fma(p.r, 6, 0, 2, 4);
      return p.result();
    },
    [](U64 a) { return f16v4sum(PairFile(a).r, 0); },
    ampWeights<isa::Opcode::Ampwf32, 64, 4>,
    ampWeights<isa::Opcode::Ampwf16, 128, 2>,
    [](WorkerState *s, U32 lo, U32 hi) { ampF32(*s, lo, hi); },
    [](WorkerState *s, U32 lo, U32 hi) { ampF16(*s, lo, hi); },
    ampLoad<float>,
    ampLoad<std::uint16_t>,
    ampRun<float, float>,
    ampRun<std::uint16_t, float>,
    ampRun<std::uint16_t, std::uint16_t>,
    [](const TileMemory *m, U32 format, U32 args, U32 *written, U32 *addr) -> U32 {
      return detail::printFormatted(*m, format, args, *written, *addr);
    },
};

} // namespace

const NativeHelpers &nativeHelpers() { return kHelpers; }

} // namespace poplar::interp
