// The AMP builtins are one instruction each, in program order, and are kept although their
// results are unused (they change the AMP's state and write memory); an unused result goes to
// the zero register, so it takes none.
// RUN: popc -S %s -o - | grep -v "^ *; /" | FileCheck %s
#include <ipu_builtins.h>
#include <poplar/Vertex.hpp>

class AmpPass : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Input<poplar::Vector<float>> weights;
  poplar::Output<poplar::Vector<float>> out;
  bool compute() {
    __builtin_ipu_amp_config(16 * 4, 8 * 4);
    __builtin_ipu_amp_load_f32(&weights[0], 8 | 16 << 8 | 8 << 16);
    __builtin_ipu_amp_f32(&in[0], &out[0], 4 | 0x80000000u);
    return true;
  }
};

// CHECK-LABEL: __runCodelet_AmpPass:
// CHECK: ampcfg zero, {{r[0-9]+}}, {{r[0-9]+}}
// CHECK: ampw32 zero, {{r[0-9]+}}, {{r[0-9]+}}
// CHECK: amp32 zero, {{r[0-9]+}}, {{r[0-9]+}}, {{r[0-9]+}}
// CHECK: ret
