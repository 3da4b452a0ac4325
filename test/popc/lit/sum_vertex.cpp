// tut3's SumVertex compiles to a loop over the input vector.
// RUN: popc -S %s -o - | grep -v "^ *; /" | FileCheck %s
#include <poplar/Vertex.hpp>

class SumVertex : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<float> out;
  bool compute() {
    *out = 0;
    for (const auto &v : in) {
      *out += v;
    }
    return true;
  }
};

// CHECK: ; vertex SumVertex (Vertex): entry @{{[0-9]+}}, state 12 bytes align 4
// CHECK-NEXT: ;   field in: Input Vector SPAN <float> at 0 size 8 align 4
// CHECK-NEXT: ;   field out: Output Scalar <float> at 8 size 4 align 4
// CHECK: __runCodelet_SumVertex:
// CHECK: ld32 [[OUT:r[0-9]+]], [[[STATE:r[0-9]+]]+8]
// CHECK: ld32 {{r[0-9]+}}, [[[STATE]]]
// CHECK: ld32 {{r[0-9]+}}, [[[STATE]]+4]
// The loop: a counted zero-overhead loop stepping a post-incremented pointer, no copies.
// CHECK: rpt {{r[0-9]+}}, 3
// CHECK-NEXT: ld32p [[V:r[0-9]+]], [{{r[0-9]+}}+=4]
// CHECK-NEXT: fadd [[ACC:r[0-9]+]], [[ACC]], [[V]]
// CHECK-NEXT: st32 [[ACC]], [[[OUT]]]
// CHECK-NEXT: movi r{{[0-9]+}}, 1
// CHECK: ret
