// debug.checkMemoryAccess in the interpreter: the memory one vertex run may load from and store
// to, and the check the memory-checked loop makes before every access an instruction makes.
#pragma once

#include "interp/Interpreter.hpp"
#include "interp/Steps.hpp"

#include <algorithm>
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
  // A merged range, [lo, lo + len), as the checked window caches it.
  struct Hit {
    std::uint32_t lo = 0, len = 0;
  };
  // Whether [addr, addr + bytes) may be loaded (or stored); if so, `hit` is the range that
  // holds it.
  bool find(std::uint32_t addr, std::uint32_t bytes, bool store, Hit &hit) const {
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
    if (lo == 0 || end > ranges[lo - 1].hi)
      return false;
    const Range &r = ranges[lo - 1];
    hit = {r.lo, std::uint32_t(std::min<std::uint64_t>(r.hi - r.lo, 0xffffffffu))};
    return true;
  }
  bool allows(std::uint32_t addr, std::uint32_t bytes, bool store) const {
    Hit unused;
    return find(addr, bytes, store, unused);
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

// The last few ranges that held an access, most recent first: a loop over up to four tensors
// (an element-wise vertex reads two or three, writes one) finds its range without a search.
struct RecentRanges {
  static constexpr unsigned kSize = 4;
  AccessMap::Hit hits[kSize] = {};
  static bool holds(const AccessMap::Hit &h, std::uint32_t addr, std::uint32_t n) {
    const std::uint32_t at = addr - h.lo;
    return at < h.len && n <= h.len - at;
  }
  // Moves the range that holds the access to the front; false if none does. (The caller has
  // looked at the first two.)
  bool find(std::uint32_t addr, std::uint32_t n);
  void add(const AccessMap::Hit &h);
};

// The tile window of a memory-checked run: an access must also be in the map or the live
// stack [sp, stackHi). The check inline is the two most recent ranges: a loop over one or two
// tensors, such as an rpt kernel's, pays two to four compares; the rest is out of line.
struct CheckedWindow : Window {
  const AccessMap *map;
  const std::uint32_t *sp;
  std::uint32_t stackHi;
  mutable RecentRanges loads, stores;

  bool may(std::uint32_t addr, std::uint32_t n, bool store) const {
    const RecentRanges &recent = store ? stores : loads;
    if (__builtin_expect(RecentRanges::holds(recent.hits[0], addr, n), 1) ||
        RecentRanges::holds(recent.hits[1], addr, n))
      return true;
    return mayMiss(addr, n, store);
  }
  // The other recent ranges, the live stack, then the map.
  __attribute__((noinline)) bool mayMiss(std::uint32_t addr, std::uint32_t n, bool store) const;
};

inline CheckedWindow checkedWindow(const TileMemory &m, const AccessMap &map,
                                   const WorkerState &st) {
  return {window(m), &map, &st.regs[isa::kRegSp], st.stackHi, {}, {}};
}

// inWindow for a checked run: in the tile, aligned, and the run's to load (or store).
template <unsigned K> inline bool inWindow(const CheckedWindow &w, std::uint32_t addr) {
  return inWindow<K>(static_cast<const Window &>(w), addr) && w.may(addr, 1u << K, false);
}
template <unsigned K> inline bool inWindowStore(const CheckedWindow &w, std::uint32_t addr) {
  return inWindow<K>(static_cast<const Window &>(w), addr) && w.may(addr, 1u << K, true);
}

// Whether all n accesses of 4 bytes at p, p + stride, ... are in one range the run may load
// from (or store to).
inline bool streamAllowed(const CheckedWindow &w, std::uint32_t p, std::int32_t stride,
                          std::uint64_t n, bool store) {
  const std::int64_t last = std::int64_t(p) + std::int64_t(stride) * std::int64_t(n - 1);
  const std::int64_t lo = std::min<std::int64_t>(p, last), hi = std::max<std::int64_t>(p, last) + 4;
  return lo >= 0 && hi <= 0xffffffffll && w.may(std::uint32_t(lo), std::uint32_t(hi - lo), store);
}

// Whether every access a whole rpt kernel (RptKernels.hpp) makes over n >= 1 iterations of
// `body` is the run's, so that it may run with the unchecked window.
inline bool kernelAllowed(RptKernel kernel, const DecodedInsn *body, std::uint64_t n,
                          const std::uint32_t *R, const CheckedWindow &w) {
  if (n > 0x7fffffffu)
    return false;
  auto stream = [&](const DecodedInsn &ld) {
    return streamAllowed(w, R[ld.ra], std::int32_t(ld.imm), n, false);
  };
  switch (kernel) {
  case RptKernel::Sum:
    return stream(body[0]);
  case RptKernel::SumStore:
    return stream(body[0]) && streamAllowed(w, R[body[2].ra] + body[2].imm, 0, 1, true);
  default:
    return stream(body[0]) && stream(body[1]);
  }
}

// One memory access an instruction is about to make, aligned to `align`.
struct Access {
  std::uint32_t addr = 0, bytes = 0, align = 1;
  bool store = false;
};

// The access a load or store instruction makes at `addr`; false for other instructions.
inline bool loadStoreAccess(std::uint16_t plainOp, std::uint32_t addr, Access &a) {
  if (plainOp >= isa::kNumOpcodes)
    return false;
  const auto format = isa::info(static_cast<isa::Opcode>(plainOp)).format;
  const bool store = format == isa::Format::Store || format == isa::Format::StorePost;
  if (!store && format != isa::Format::Load && format != isa::Format::LoadPost)
    return false;
  const std::uint32_t size = accessAlign(plainOp);
  a = {addr, size, size, store};
  return true;
}

// The accesses an AMP instruction `d` is about to make with registers R (a pass: its whole
// input and output spans), at most two; 0 for other instructions and for one that traps on its
// operands first (a bad shape, a misaligned stride). Loads and stores are checked through
// CheckedWindow, `print` inside printFormatted.
inline unsigned ampAccessesOf(const DecodedInsn &d, const std::uint32_t *R, const WorkerState &st,
                              Access out[2]) {
  if (d.plainOp >= isa::kNumOpcodes)
    return 0;
  const auto op = static_cast<isa::Opcode>(d.plainOp);
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
