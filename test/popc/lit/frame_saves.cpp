// A vertex's entry function saves none of the callee-saved registers it writes (the host that
// runs it keeps nothing in registers); a function it calls saves those it writes, pairs with
// st64, and restores them before its ret.
// RUN: popc -S %s -o - | grep -v "^ *; /" | FileCheck %s
#include <poplar/VectorTypes.hpp>
#include <poplar/Vertex.hpp>

// Sixteen float2 accumulators live across the loop: more than the caller-saved registers hold.
template <class Out>
inline __attribute__((always_inline)) void sumRows(const float2 *p, Out *o, unsigned rows) {
  float2 acc[16] = {};
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned i = 0; i < 16; ++i)
      acc[i] += p[16 * r + i];
  for (unsigned i = 0; i < 16; ++i)
    o[i] = acc[i];
}

__attribute__((noinline)) void sumRowsCalled(const float2 *p, float2 *o, unsigned rows) {
  sumRows(p, o, rows);
}

class SumInline : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::SPAN, 8>> in;
  poplar::Output<poplar::Vector<float, poplar::VectorLayout::ONE_PTR, 8>> out;
  void compute() {
    sumRows(reinterpret_cast<const float2 *>(&in[0]), reinterpret_cast<float2 *>(&out[0]),
            in.size() / 32);
  }
};

class SumCalled : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::SPAN, 8>> in;
  poplar::Output<poplar::Vector<float, poplar::VectorLayout::ONE_PTR, 8>> out;
  void compute() {
    sumRowsCalled(reinterpret_cast<const float2 *>(&in[0]), reinterpret_cast<float2 *>(&out[0]),
                  in.size() / 32);
  }
};
// CHECK-LABEL: _Z13sumRowsCalledPKDv2_fPS_j:
// CHECK-NEXT: spadd -64
// CHECK-NEXT: st64 r32, [sp]
// CHECK: st64 r46, [sp+56]
// CHECK: ld64 r32, [sp]
// CHECK: ld64 r46, [sp+56]
// CHECK-NEXT: spadd 64
// CHECK-NEXT: ret
// The inlined sum keeps its accumulators in r32.. too, unsaved: the entry has no frame.
// CHECK-LABEL: __runCodelet_SumInline:
// CHECK-NOT: sp
// CHECK: f32v2add r32, r32
// CHECK-NOT: sp
// CHECK: ret
// An entry that calls saves lr only (its ret must reach the host's kExitLr).
// CHECK-LABEL: __runCodelet_SumCalled:
// CHECK-NEXT: spadd -8
// CHECK-NEXT: st32 lr, [sp]
// CHECK: call
// CHECK: ld32 lr, [sp]
// CHECK-NEXT: spadd 8
// CHECK-NEXT: ret
