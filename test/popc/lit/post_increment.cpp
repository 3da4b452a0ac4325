// A pointer that a loop steps by a constant is advanced by the load or store through it
// (post-increment), here by the MultiVertex worker stride of 6 floats.
// RUN: popc -S %s -o - | grep -v "^ *; /" | FileCheck %s
#include <poplar/Vertex.hpp>

class Axpy : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<float>> x;
  poplar::Input<poplar::Vector<float>> y;
  poplar::Output<poplar::Vector<float>> out;
  float a;
  bool compute(unsigned workerId) {
    for (unsigned i = workerId; i < out.size(); i += numWorkers())
      out[i] = a * x[i] + y[i];
    return true;
  }
};

// CHECK-LABEL: __runCodelet_Axpy:
// CHECK: [[LOOP:[0-9]+]]: ld32 [[A:r[0-9]+]], [{{r[0-9]+}}+24]
// CHECK-NEXT: ld32p [[X:r[0-9]+]], [{{r[0-9]+}}+=24]
// CHECK-NEXT: fmul [[AX:r[0-9]+]], [[A]], [[X]]
// CHECK-NEXT: ld32p [[Y:r[0-9]+]], [{{r[0-9]+}}+=24]
// CHECK-NEXT: fadd [[R:r[0-9]+]], [[AX]], [[Y]]
// CHECK-NEXT: st32p [[R]], [{{r[0-9]+}}+=24]
// CHECK-NEXT: addi [[I:r[0-9]+]], [[I]], 6
// CHECK-NEXT: cmpltu [[C:r[0-9]+]], [[I]], {{r[0-9]+}}
// CHECK-NEXT: brnz [[C]], @[[LOOP]]

// A load that the same iteration's store goes through keeps its plain form.
class Scale : public poplar::MultiVertex {
public:
  poplar::InOut<poplar::Vector<float>> data;
  float k;
  bool compute(unsigned wid) {
    float kk = k;
    unsigned n = data.size();
    for (unsigned i = wid; i < n; i += numWorkers())
      data[i] *= kk;
    return true;
  }
};

// CHECK-LABEL: __runCodelet_Scale:
// CHECK-NOT: ld32p
// CHECK: add [[P:r[0-9]+]], {{r[0-9]+}}, {{r[0-9]+}}
// CHECK-NEXT: ld32 [[V:r[0-9]+]], [[[P]]]
// CHECK-NEXT: fmul [[W:r[0-9]+]], {{r[0-9]+}}, [[V]]
// CHECK-NEXT: st32p [[W]], [[[P]]+=24]
