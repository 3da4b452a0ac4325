// Rpt bodies that stream arrays: each pass loads its operands a unit further along arrays,
// computes lane-wise f32 arithmetic and stores results a unit further along others, as popops'
// element-wise loops do (`ld64p; ld64p; st64p || f32v2add`). The native tier runs such a rpt,
// when its arrays are in the window and apart, as one loop over 32-bit lanes that LLVM
// vectorises like a plain C loop (StreamLoop.cpp); translated pass by pass, a pair's two lanes
// are two scalars and a software-pipelined store a recurrence, which cost the vector loop
// shuffles for every vector. Header-only: the tests check the matcher directly.
#pragma once

#include "interp/Decoder.hpp"
#include "isa/Isa.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace poplar::native {

enum class LaneOp : std::uint8_t { Add, Sub, Mul, Fma };

/// One instruction of a streaming body. Registers are a pair's first for two-lane bodies.
struct StreamStep {
  enum class Kind : std::uint8_t { Load, Op, Store } kind;
  LaneOp op = LaneOp::Add;         // Op: reg = src[0] op src[1] (Fma: src[0] * src[1] + src[2])
  std::uint8_t reg = 0;            // Load, Op: the register written; Store: the register stored
  std::uint8_t ptr = 0;            // Load, Store: the pointer, stepped a unit a pass
  std::uint8_t src[3] = {0, 0, 0}; // Op: its operands; src[2] repeats src[0] but for Fma
  bool delayed = false; // Store: of the value its register had when the pass began (its last
                        // pass's, written later in the body: a software-pipelined store)
};

struct StreamLoop {
  unsigned lanes = 0;                   // 32-bit lanes a pass: 1 (32-bit accesses) or 2 (64-bit)
  std::vector<StreamStep> steps;        // in issue order
  std::vector<std::uint8_t> invariants; // registers an op reads that the body never writes
};

namespace streamdetail {

struct Shape {
  isa::Opcode op;
  StreamStep::Kind kind;
  unsigned lanes;
  LaneOp laneOp;
};

inline std::optional<Shape> shapeOf(std::uint16_t plainOp) {
  using O = isa::Opcode;
  using K = StreamStep::Kind;
  static const Shape shapes[] = {
      {O::Ld32p, K::Load, 1, LaneOp::Add},  {O::Ld64p, K::Load, 2, LaneOp::Add},
      {O::St32p, K::Store, 1, LaneOp::Add}, {O::St64p, K::Store, 2, LaneOp::Add},
      {O::Fadd, K::Op, 1, LaneOp::Add},     {O::Fsub, K::Op, 1, LaneOp::Sub},
      {O::Fmul, K::Op, 1, LaneOp::Mul},     {O::Fma, K::Op, 1, LaneOp::Fma},
      {O::F32v2add, K::Op, 2, LaneOp::Add}, {O::F32v2sub, K::Op, 2, LaneOp::Sub},
      {O::F32v2mul, K::Op, 2, LaneOp::Mul}, {O::F32v2fma, K::Op, 2, LaneOp::Fma},
  };
  for (const Shape &s : shapes)
    if (plainOp == std::uint16_t(s.op))
      return s;
  return std::nullopt;
}

} // namespace streamdetail

/// The streaming form of the rpt body body[0, len), or none. Every instruction must be a
/// post-increment load or store of the body's width stepping by its size, or f32 add, sub, mul
/// or fma of that width; each pointer serves one access and nothing else; each register is
/// written once; an op reads registers written earlier in the pass or never; a store may also
/// read one written later (or in its own bundle, whose halves read before either writes).
inline std::optional<StreamLoop> matchStreamLoop(const interp::DecodedInsn *body,
                                                 std::uint32_t len) {
  using K = StreamStep::Kind;
  StreamLoop loop;
  // Which register each register number belongs to (its pair's first), and where it is written.
  constexpr unsigned kNone = ~0u;
  std::vector<unsigned> owner(isa::kNumRegs, kNone), writtenAt(isa::kNumRegs, kNone);
  std::vector<bool> isPointer(isa::kNumRegs, false);
  auto claim = [&](unsigned r, unsigned width) {
    if (r == isa::kRegZero || r + width > isa::kNumRegs || r % width != 0)
      return false;
    for (unsigned l = 0; l < width; ++l)
      if (owner[r + l] != kNone && owner[r + l] != r)
        return false; // a pair overlapping another register or pair
    for (unsigned l = 0; l < width; ++l)
      owner[r + l] = r;
    return true;
  };
  // Issue groups: an instruction and, if the next has no cycles, the second half of its bundle.
  std::vector<unsigned> group(len);
  for (std::uint32_t i = 0; i < len; ++i)
    group[i] = i > 0 && body[i].cycles == 0 ? group[i - 1] : i;
  for (std::uint32_t i = 0; i < len; ++i) {
    const interp::DecodedInsn &d = body[i];
    const auto shape = streamdetail::shapeOf(d.plainOp);
    if (!shape || (loop.lanes && loop.lanes != shape->lanes))
      return std::nullopt;
    loop.lanes = shape->lanes;
    const unsigned w = shape->lanes;
    StreamStep s{shape->kind};
    s.op = shape->laneOp;
    if (shape->kind == K::Op) {
      s.reg = d.rd;
      s.src[0] = d.ra;
      s.src[1] = d.rb;
      s.src[2] = shape->laneOp == LaneOp::Fma ? d.rc : d.ra;
    } else {
      s.reg = shape->kind == K::Load ? d.rd : d.rb;
      s.ptr = d.ra;
      if (d.imm != 4 * w || isPointer[s.ptr] || writtenAt[s.ptr] != kNone || !claim(s.ptr, 1))
        return std::nullopt;
      isPointer[s.ptr] = true;
      writtenAt[s.ptr] = i;
    }
    if (!claim(s.reg, w))
      return std::nullopt;
    if (shape->kind != K::Store) {
      if (writtenAt[s.reg] != kNone)
        return std::nullopt;
      writtenAt[s.reg] = i;
    }
    loop.steps.push_back(s);
  }
  if (!loop.lanes)
    return std::nullopt;
  // Reads: pointers only by their access; an op's operands from earlier groups or invariant.
  for (std::uint32_t i = 0; i < len; ++i) {
    StreamStep &s = loop.steps[i];
    auto before = [&](unsigned r) {
      return writtenAt[r] != kNone && group[writtenAt[r]] < group[i];
    };
    if (isPointer[s.reg])
      return std::nullopt;
    if (s.kind == K::Store) {
      if (writtenAt[s.reg] == kNone)
        return std::nullopt; // a register the body never writes: its lanes may differ
      s.delayed = !before(s.reg);
      continue;
    }
    if (s.kind != K::Op)
      continue;
    for (unsigned k = 0; k < 3; ++k) {
      const unsigned r = s.src[k];
      if (isPointer[r] || !claim(r, loop.lanes))
        return std::nullopt;
      if (writtenAt[r] == kNone) {
        bool known = false;
        for (std::uint8_t v : loop.invariants)
          known |= v == r;
        if (!known)
          loop.invariants.push_back(std::uint8_t(r));
      } else if (!before(r)) {
        return std::nullopt; // a value carried from the last pass into arithmetic
      }
    }
  }
  return loop;
}

} // namespace poplar::native
