// debug.checkMemoryAccess in the interpreter: the memory one vertex run may load from and store
// to, and the check the memory-checked loop makes before every access an instruction makes.
#pragma once

#include "interp/Interpreter.hpp"
#include "interp/Steps.hpp"

#include <cstdint>
#include <vector>

namespace poplar::interp {

// The byte ranges a run may access. Loads may touch any range given; stores only the writable
// ones. The worker's live stack, [sp, stackHi), is allowed besides: it moves with sp, so the
// check reads it from the registers, and an access below sp (outside every frame) is stray.
class AccessMap {
public:
  void clear();
  // Allows loads from [addr, addr + bytes), and stores there too when `writable`.
  void allow(std::uint32_t addr, std::uint32_t bytes, bool writable);
  // Sorts and merges what allow() added; call once before the run.
  void seal();
  bool allows(std::uint32_t addr, std::uint32_t bytes, bool store) const {
    const std::vector<Range> &ranges = store ? stores_ : loads_;
    const std::uint64_t end = std::uint64_t(addr) + bytes;
    // The last range that starts at or below addr is the only one that can hold the access.
    std::size_t lo = 0, hi = ranges.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (ranges[mid].lo <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo > 0 && end <= ranges[lo - 1].hi;
  }

private:
  struct Range {
    std::uint32_t lo;
    std::uint64_t hi; // exclusive; a range may end at 2^32
    bool writable;
  };
  static void merge(std::vector<Range> &ranges);
  std::vector<Range> given_, loads_, stores_;
};

namespace ops {

// One memory access an instruction is about to make, aligned to `align`.
struct Access {
  std::uint32_t addr = 0, bytes = 0, align = 1;
  bool store = false;
};

// The accesses `d` is about to make with registers R (AMP passes: their whole span), at most
// two; 0 for an instruction that touches no memory or that traps on its operands first (a bad
// AMP shape, a misaligned stride).
// `print` is checked inside printFormatted, which knows what the format string reads.
inline unsigned accessesOf(const DecodedInsn &d, const std::uint32_t *R, const WorkerState &st,
                           Access out[2]) {
  if (d.plainOp >= isa::kNumOpcodes)
    return 0;
  const auto op = static_cast<isa::Opcode>(d.plainOp);
  switch (isa::info(op).format) {
  case isa::Format::Load:
  case isa::Format::Store:
  case isa::Format::LoadPost:
  case isa::Format::StorePost: {
    const auto format = isa::info(op).format;
    const bool post = format == isa::Format::LoadPost || format == isa::Format::StorePost;
    const std::uint32_t size = accessAlign(d.plainOp);
    out[0] = {post ? R[d.ra] : R[d.ra] + d.imm, size, size,
              format == isa::Format::Store || format == isa::Format::StorePost};
    return 1;
  }
  default:
    break;
  }
  switch (op) {
  case isa::Opcode::Ampwf32:
    out[0] = {R[d.ra], 64, 4, false};
    return 1;
  case isa::Opcode::Ampwf16:
    out[0] = {R[d.ra], 128, 2, false};
    return 1;
  case isa::Opcode::Ampw32:
  case isa::Opcode::Ampw16: {
    const std::uint32_t size = op == isa::Opcode::Ampw32 ? 4 : 2, shape = R[d.rb];
    const std::uint32_t oc = shape & 0xff, ic = (shape >> 8) & 0xff, stride = shape >> 16;
    if (oc == 0 || oc > 32 / size || ic == 0 || ic > AmpPassState::kMaxChans || stride < oc)
      return 0; // traps BadInstruction
    out[0] = {R[d.ra], size * ((ic - 1) * stride + oc), size, false};
    return 1;
  }
  case isa::Opcode::Amp32:
  case isa::Opcode::Amp16:
  case isa::Opcode::Amp16h: {
    const std::uint64_t n = R[d.rc] & 0x7fffffffu;
    const std::uint32_t in = op == isa::Opcode::Amp32 ? 4 : 2,
                        outSize = op == isa::Opcode::Amp16h ? 2 : 4;
    const AmpPassState &a = st.amp;
    const std::uint64_t inBytes = n ? (n - 1) * a.inStride + std::uint64_t(in) * a.inChans : 0;
    const std::uint64_t outBytes =
        n ? (n - 1) * a.outStride + std::uint64_t(outSize) * a.outChans : 0;
    if (n == 0 || inBytes > 0xffffffffu || outBytes > 0xffffffffu || (a.inStride & (in - 1)) ||
        (a.outStride & (outSize - 1)))
      return 0; // nothing to access, or the pass traps on its operands
    out[0] = {R[d.ra], std::uint32_t(inBytes), in, false};
    out[1] = {R[d.rb], std::uint32_t(outBytes), outSize, true};
    return 2;
  }
  default:
    return 0;
  }
}

// The first of the `n` accesses `a` that the run may not make (in neither `map` nor the live
// stack), or null. When any of them traps anyway (outside the tile, misaligned) the
// instruction is left to that trap, so a checked run faults as an unchecked one would
// wherever the unchecked one faults.
inline const Access *strayAccess(const Access *a, unsigned n, const TileMemory &mem,
                                 const WorkerState &st, const AccessMap &map) {
  for (unsigned i = 0; i < n; ++i)
    if ((a[i].addr & (a[i].align - 1)) || !accessOk(mem, a[i].addr, a[i].bytes, 1))
      return nullptr;
  const std::uint32_t sp = st.regs[isa::kRegSp];
  for (unsigned i = 0; i < n; ++i) {
    const bool inStack = a[i].addr >= sp && std::uint64_t(a[i].addr) + a[i].bytes <= st.stackHi;
    if (!inStack && !map.allows(a[i].addr, a[i].bytes, a[i].store))
      return a + i;
  }
  return nullptr;
}

} // namespace ops
} // namespace poplar::interp
