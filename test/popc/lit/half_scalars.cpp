// half is a first-class codelet type: scalar edges, arguments and results of functions, and
// std::numeric_limits<half>. Arithmetic is in f32; each half result is rounded (ftoh + htof)
// and each store rounds again through sth, as on the IPU.
// RUN: popc -S %s -o - | FileCheck %s
#include <limits>
#include <poplar/Vertex.hpp>

[[gnu::noinline]] half scale(half x, half s) { return x * s; }

class HalfEdges : public poplar::Vertex {
public:
  poplar::Input<half> a;
  poplar::Output<half> b;
  poplar::InOut<half> c;
  bool compute() {
    b = scale(a, half(3.0f));
    c += std::numeric_limits<half>::max();
    return true;
  }
};
// CHECK: ; vertex HalfEdges (Vertex)
// CHECK-NEXT: field a: Input Scalar <half> at 0 size 4 align 2
// CHECK-NEXT: field b: Output Scalar <half> at 4 size 4 align 2
// CHECK-NEXT: field c: InOut Scalar <half> at 8 size 4 align 2
// The half arguments arrive in r1 and r2 and the result leaves in r1, each as its f32 value.
// CHECK-LABEL: _Z5scaleDhDh:
// CHECK: fmul [[P:r[0-9]+]], {{r[12]}}, {{r[12]}}
// CHECK-NEXT: ftoh [[H:r[0-9]+]], [[P]]
// CHECK-NEXT: htof [[R:r[0-9]+]], [[H]]
// CHECK: mov r1, [[R]]
// CHECK-NEXT: ret
// CHECK-LABEL: __runCodelet_HalfEdges:
// CHECK: ldh
// CHECK: call
// CHECK: sth
// 65504 is 0x477fe000 as an f32.
// CHECK: movi {{r[0-9]+}}, 0x477fe000
// CHECK: sth
