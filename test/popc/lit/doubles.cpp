// Double precision is software: each double operation is a call into popc's runtime
// (popc/runtime/Double.cpp, linked in when used), a double lives in a register pair as its
// bits, and a float scaled by a double literal is widened, multiplied and rounded back.
// RUN: popc -S %s -o - | FileCheck %s
#include <poplar/Vertex.hpp>

class Scale : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> v;
  bool compute() {
    double sum = 0;
    for (unsigned i = 0; i < v.size(); ++i) {
      v[i] *= 1.01;
      sum += v[i];
    }
    v[0] = float(sum / 3);
    return true;
  }
};
// CHECK-LABEL: __runCodelet_Scale:
// CHECK-COUNT-5: call @
// CHECK: ret
// The runtime functions it calls, and no others (the linker takes only what is used).
// CHECK-NOT: __popc_dcmp:
// CHECK: __popc_dadd:
// CHECK: __popc_dmul:
// CHECK: __popc_ddiv:
// CHECK: __popc_f32_to_f64:
// CHECK: __popc_f64_to_f32:
// CHECK-NOT: __popc_dcmp:
