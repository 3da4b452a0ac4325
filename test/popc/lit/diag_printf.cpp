// printf takes floats (promoted to double only by the call) and 64-bit integers; a value
// computed in double precision is an error that names printf.
// RUN: not popc -S %s -o /dev/null 2>&1 | FileCheck %s
#include <cstdio>
#include <poplar/Vertex.hpp>

class Prints : public poplar::Vertex {
public:
  poplar::Input<float> x;
  poplar::Input<long long> n;
  bool compute() {
    printf("%f %lld\n", *x, (long long)*n);
    printf("%f\n", *x * 0.1);
    // CHECK: diag_printf.cpp:[[@LINE-1]]:5: error: printf of a double-precision value
    return true;
  }
};
// CHECK-NOT: error
