// tut3's SumVertex compiles to a loop over the input vector.
// RUN: popc -S %s -o - | FileCheck %s
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
// CHECK: fadd
// CHECK: st32 {{r[0-9]+}}, [[[OUT]]]
// CHECK: brnz
// CHECK: movi r{{[0-9]+}}, 1
// CHECK: ret
