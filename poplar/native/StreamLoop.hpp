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

#include <algorithm>
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
  bool delayed = false; // Store: of the value its register had when the pass began (the last
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
/// or fma of that width; each pointer serves one access and nothing else. An op reads registers
/// written earlier in the pass or never in the body; a store may also read one written only
/// later (its last pass's value: a delayed store). The halves of a bundle read and write as if
/// issued in order, since the second never reads what the first writes (isa/CoIssue.hpp).
inline std::optional<StreamLoop> matchStreamLoop(const interp::DecodedInsn *body,
                                                 std::uint32_t len) {
  using K = StreamStep::Kind;
  StreamLoop loop;
  // Which register each register number belongs to (its pair's first), and which the body
  // writes (pointers apart).
  constexpr unsigned kNone = ~0u;
  std::vector<unsigned> owner(isa::kNumRegs, kNone);
  std::vector<bool> isPointer(isa::kNumRegs, false), written(isa::kNumRegs, false);
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
  for (std::uint32_t i = 0; i < len; ++i) {
    const interp::DecodedInsn &d = body[i];
    const auto shape = streamdetail::shapeOf(d.plainOp);
    if (!shape || (loop.lanes && loop.lanes != shape->lanes))
      return std::nullopt;
    loop.lanes = shape->lanes;
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
      if (d.imm != 4 * loop.lanes || isPointer[s.ptr] || !claim(s.ptr, 1))
        return std::nullopt;
      isPointer[s.ptr] = true;
    }
    if (!claim(s.reg, loop.lanes))
      return std::nullopt;
    if (shape->kind != K::Store)
      written[s.reg] = true;
    loop.steps.push_back(s);
  }
  if (!loop.lanes)
    return std::nullopt;
  // Reads, in issue order: pointers only by their access.
  std::vector<bool> writtenSoFar(isa::kNumRegs, false);
  for (StreamStep &s : loop.steps) {
    if (isPointer[s.reg])
      return std::nullopt;
    if (s.kind == K::Store) {
      if (!written[s.reg])
        return std::nullopt; // a register the body never writes: its lanes may differ
      s.delayed = !writtenSoFar[s.reg];
      continue;
    }
    for (unsigned k = 0; s.kind == K::Op && k < 3; ++k) {
      const unsigned r = s.src[k];
      if (isPointer[r] || !claim(r, loop.lanes))
        return std::nullopt;
      if (written[r] && !writtenSoFar[r])
        return std::nullopt; // a value carried from the last pass into arithmetic
      if (!written[r] &&
          std::find(loop.invariants.begin(), loop.invariants.end(), r) == loop.invariants.end())
        loop.invariants.push_back(std::uint8_t(r));
    }
    writtenSoFar[s.reg] = true;
  }
  return loop;
}

} // namespace poplar::native
