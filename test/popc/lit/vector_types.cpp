// Vector types (float2, half4, ...): 64-bit vectors live in register pairs, with the ISA's
// f32v2 / f16v4 arithmetic, ld64 / st64 (post-incremented in loops) and the half2 <-> float2
// conversions; the rest is split into elements by LLVM's scalarizer.
// RUN: popc -S %s -o - | FileCheck %s
// RUN: popc -O0 -S %s -o /dev/null
#include <poplar/VectorTypes.hpp>
#include <poplar/Vertex.hpp>

class Scale2 : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float, poplar::VectorLayout::SPAN, 8>> v;
  bool compute() {
    float2 *p = reinterpret_cast<float2 *>(&v[0]);
    for (unsigned i = 0; i < v.size() / 2; ++i)
      p[i] = p[i] * 2.0f; // line 15
    return true;
  }
};
// a * a - a on half4: f16v4mul, then a + (-a) (no f16v4sub: the sign bits flipped by xor).
class SquareMinus : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<half, poplar::VectorLayout::SPAN, 8>> v;
  bool compute() {
    half4 *p = reinterpret_cast<half4 *>(&v[0]);
    for (unsigned i = 0; i < v.size() / 4; ++i) {
      half4 x = p[i];
      half4 sq = x * x;
      p[i] = sq - x;
    }
    return true;
  }
};
// half2 -> float2, times a float2, -> half2.
class Widen : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<half, poplar::VectorLayout::SPAN, 8>> in;
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::ONE_PTR, 8>> scale;
  poplar::Output<poplar::Vector<half, poplar::VectorLayout::ONE_PTR, 8>> out;
  bool compute() {
    const half2 *p = reinterpret_cast<const half2 *>(&in[0]);
    const float2 *s = reinterpret_cast<const float2 *>(&scale[0]);
    half2 *q = reinterpret_cast<half2 *>(&out[0]);
    for (unsigned i = 0; i < in.size() / 2; ++i) {
      float2 f = __builtin_convertvector(p[i], float2);
      q[i] = __builtin_convertvector(f * s[i], half2);
    }
    return true;
  }
};
// Vertex names spell vector template arguments as poplar/VectorTypes.hpp does.
template <typename V> class Zero : public poplar::Vertex {
public:
  poplar::Output<poplar::Vector<float, poplar::VectorLayout::SPAN, 8>> v;
  bool compute() {
    *reinterpret_cast<V *>(&v[0]) = V{};
    return true;
  }
};
template class Zero<float2>;
template class Zero<half4>;
// CHECK-DAG: ; vertex Zero<float2> (Vertex)
// CHECK-DAG: ; vertex Zero<half4> (Vertex)
// CHECK-LABEL: __runCodelet_Scale2:
// CHECK: vector_types.cpp:15:14
// CHECK-NEXT: ld64 [[X:r[0-9]+]], {{\[}}[[P:r[0-9]+]]{{\]}}
// CHECK: f32v2mul [[Y:r[0-9]+]], [[X]], {{r[0-9]+}}
// CHECK: st64p [[Y]], {{\[}}[[P]]+=8{{\]}}
// CHECK-LABEL: __runCodelet_SquareMinus:
// CHECK: ld64 [[H:r[0-9]+]]
// CHECK: f16v4mul [[S:r[0-9]+]], [[H]], [[H]]
// CHECK-DAG: xor
// CHECK-DAG: xor
// CHECK: f16v4add {{r[0-9]+}}, [[S]], {{r[0-9]+}}
// CHECK: st64p
// CHECK-LABEL: __runCodelet_Widen:
// CHECK: ld32p [[W:r[0-9]+]]
// CHECK: f16v2tof32v2 [[F:r[0-9]+]], [[W]]
// CHECK: f32v2mul [[G:r[0-9]+]], {{(r[0-9]+, )?}}[[F]]
// CHECK: f32v2tof16v2 [[N:r[0-9]+]], [[G]]
// CHECK: st32p [[N]]
