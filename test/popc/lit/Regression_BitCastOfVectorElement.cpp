// A bit cast of a vector element is an error: Clang 14 casts from the vector's address and drops
// the lane (v[1] and v.y read v[0]), which compiled silently to the wrong value before.
// RUN: not popc -S %s -o /dev/null 2>&1 | FileCheck %s
// RUN: popc -S -DWORKAROUND %s -o - | FileCheck %s --check-prefix=LOCAL
#include <poplar/VectorTypes.hpp>
#include <poplar/Vertex.hpp>

class Lanes : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<int, poplar::VectorLayout::SPAN, 8>> in;
  poplar::Output<poplar::Vector<float, poplar::VectorLayout::SPAN, 8>> out;
  bool compute() {
    const int2 v = reinterpret_cast<const int2 *>(&in[0])[0];
#ifndef WORKAROUND
    out[0] = __builtin_bit_cast(float, v[1]);
    // CHECK: Regression_BitCastOfVectorElement.cpp:[[@LINE-1]]:14: error: __builtin_bit_cast of a vector element is not supported
    out[1] = __builtin_bit_cast(float, (v.y));
    // CHECK: Regression_BitCastOfVectorElement.cpp:[[@LINE-1]]:14: error: __builtin_bit_cast of a vector element is not supported
#else
    // The workaround the message gives: the element copied to a local first reads lane 1.
    const int y = v[1];
    out[0] = __builtin_bit_cast(float, y);
    // LOCAL: ld32 [[R:r[0-9]+]], [{{r[0-9]+}}+4]
#endif
    return true;
  }
};
