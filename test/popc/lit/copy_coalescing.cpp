// Phi copies: coalesced away when the registers do not interfere; a rotation of loop-carried
// values (a, b = b, a + b) keeps exactly the copies it needs, in an order that is correct.
// RUN: popc -S %s -o - | grep -v "^ *; /" | FileCheck %s
#include <poplar/Vertex.hpp>

class Fibonacci : public poplar::Vertex {
public:
  poplar::Output<poplar::Vector<unsigned>> out;
  bool compute() {
    unsigned a = 0, b = 1;
    for (unsigned i = 0; i < out.size(); ++i) {
      out[i] = a;
      unsigned t = a + b;
      a = b;
      b = t;
    }
    return true;
  }
};

// CHECK-LABEL: __runCodelet_Fibonacci:
// CHECK: movi [[B:r[0-9]+]], 1
// CHECK-NEXT: [[LOOP:[0-9]+]]: st32p [[A:r[0-9]+]], [{{r[0-9]+}}+=4]
// CHECK-NEXT: add [[T:r[0-9]+]], [[B]], [[A]]
// CHECK-NOT: mov
// CHECK: brz
// CHECK-NEXT: mov [[A]], [[B]]
// CHECK-NEXT: mov [[B]], [[T]]
// CHECK-NEXT: br @[[LOOP]]
