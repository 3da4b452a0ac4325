// printf takes floats (promoted to double only by the call) and 64-bit integers as they are; a
// value computed in double precision is rounded to float for printing (the print instruction
// formats f32 values).
// RUN: popc -S %s -o - | FileCheck %s
#include <cstdio>
#include <poplar/Vertex.hpp>

class Prints : public poplar::Vertex {
public:
  poplar::Input<float> x;
  poplar::Input<long long> n;
  bool compute() {
    printf("%f %lld\n", *x, (long long)*n);
    printf("%f\n", *x * 0.1);
    return true;
  }
};
// CHECK-LABEL: __runCodelet_Prints:
// CHECK: print
// CHECK: call @
// CHECK: call @
// CHECK: call @
// CHECK: print
// CHECK: __popc_dmul:
// CHECK: __popc_f32_to_f64:
// CHECK: __popc_f64_to_f32:
