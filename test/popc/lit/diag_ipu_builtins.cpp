// IPU builtins without a simulated-tile equivalent, and CSR reads other than the worker id,
// are errors at their line naming the builtin.
// RUN: not popc -S %s -o /dev/null 2>&1 | FileCheck %s
#include <ipu_builtins.h>
#include <poplar/Vertex.hpp>

class Builtins : public poplar::Vertex {
public:
  poplar::Output<unsigned> out;
  bool compute() {
    unsigned t = __builtin_ipu_get_tile_id();
    // CHECK-DAG: :[[@LINE-1]]:18: error: '__builtin_ipu_get_tile_id' has no equivalent on the
    unsigned c = __builtin_ipu_get(7);
    // CHECK-DAG: :[[@LINE-1]]:18: error: __builtin_ipu_get reads only CSR_W_WSR__INDEX
    *out = t + c + (__builtin_ipu_get(CSR_W_WSR__INDEX) & CSR_W_WSR__CTXTID_M1__MASK);
    return true;
  }
};
