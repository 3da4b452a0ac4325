// Vector types (float2, half4, ...) compile element by element: LLVM's scalarizer splits each
// vector operation, load and store before the lowering (no f32v2 / f16v4 selection yet).
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
      p[i] = p[i] * 2.0f; // line 14
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
// CHECK: vector_types.cpp:14:14
// CHECK-NEXT: ld32 [[X:r[0-9]+]], {{\[}}[[P:r[0-9]+]]{{\]}}
// CHECK-NEXT: ld32 [[Y:r[0-9]+]], {{\[}}[[P]]+4{{\]}}
// CHECK-DAG: fmul {{r[0-9]+}}, [[X]], {{r[0-9]+}}
// CHECK-DAG: fmul {{r[0-9]+}}, [[Y]], {{r[0-9]+}}
