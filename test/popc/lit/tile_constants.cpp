// poplar/TileConstants.hpp gives the constants PopLibs' codelets take from it (worker count, AMP
// input load widths, packed stride width).
// RUN: popc -S %s -o - | FileCheck %s
#include <poplar/TileConstants.hpp>
#include <poplar/Vertex.hpp>

static_assert(CTXT_WORKERS == 6, "");
static_assert(CONV_UNIT_INPUT_LOAD_ELEMS_FLOAT * sizeof(float) == 8, "one 64-bit load");
static_assert(CONV_UNIT_INPUT_LOAD_ELEMS_HALF * sizeof(half) == 8, "one 64-bit load");
static_assert(3 * NUM_STRIDE_BITS <= 32, "three strides fit one register");

class LoadElems : public poplar::Vertex {
public:
  poplar::Output<unsigned> out;
  void compute() { *out = CONV_UNIT_INPUT_LOAD_ELEMS_HALF * 10 + CONV_UNIT_INPUT_LOAD_ELEMS_FLOAT; }
};
// CHECK-LABEL: __runCodelet_LoadElems:
// CHECK: movi r{{[0-9]+}}, 42
