// Float and vector constants used in a loop are built once, before it (HoistConstants), not by a
// movi on every iteration; +0.0 is the zero register.
// RUN: popc -S %s -o - | grep -v "^ *; /" | FileCheck %s
#include <poplar/VectorTypes.hpp>
#include <poplar/Vertex.hpp>

class ScaleAndClamp : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float, poplar::VectorLayout::SPAN, 8>> v;
  bool compute() {
    float2 *p = reinterpret_cast<float2 *>(&v[0]);
    const unsigned n = v.size() / 2;
    for (unsigned i = 0; i < n; ++i) {
      float2 x = p[i] * 1.5f;
      p[i] = x;
    }
    for (unsigned i = 0; i < 2 * n; ++i)
      v[i] = v[i] * 0.25f + 0.0f;
    return true;
  }
};
// CHECK-LABEL: __runCodelet_ScaleAndClamp:
// CHECK: movi [[A:r[0-9]+]], 0x3fc00000
// CHECK-NEXT: movi {{r[0-9]+}}, 0x3fc00000
// CHECK: movi [[Q:r[0-9]+]], 0x3e800000
// CHECK-NOT: movi
// CHECK: rpt {{r[0-9]+}}, 3
// CHECK-NEXT: ld64 [[X:r[0-9]+]]
// CHECK-NEXT: f32v2mul [[Y:r[0-9]+]], [[X]], [[A]]
// CHECK-NEXT: st64p [[Y]]
// CHECK: rpt {{r[0-9]+}}, 4
// CHECK-NEXT: ld32 [[S:r[0-9]+]]
// CHECK-NEXT: fmul [[T:r[0-9]+]], [[S]], [[Q]]
// CHECK-NEXT: fadd {{r[0-9]+}}, [[T]], zero
// CHECK: ret
