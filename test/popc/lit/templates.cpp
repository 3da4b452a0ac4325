// Explicit instantiations are vertices named as poputil::templateVertex names them; the
// MultiVertex receives its worker id in r2.
// RUN: popc -S %s -o - | FileCheck %s
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
enum class Op { ADD, MUL };
template <typename T, Op op, bool scale>
class Foo : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<T, poplar::VectorLayout::ONE_PTR, 8>> in;
  poplar::InOut<poplar::VectorList<T>> lists;
  poplar::Output<poplar::Vector<T>> out;
  const float factor;
  unsigned short n;
  void compute(unsigned wid) {
    for (unsigned i = wid; i < n; i += numWorkers())
      out[i] = op == Op::ADD ? in[i] + factor : in[i] * factor;
  }
};
template class Foo<float, Op::ADD, true>;
template class Foo<half, Op::MUL, false>;
} // namespace popops

// CHECK: ; vertex popops::Foo<float,popops::Op::ADD,true> (MultiVertex)
// CHECK-NEXT: field in: Input Vector ONE_PTR <float> at 0 size 4 align 8
// CHECK-NEXT: field lists: InOut VectorList DELTANELEMENTS <float> at 4 size 8 align 4
// CHECK-NEXT: field out: Output Vector SPAN <float> at 12 size 8 align 4
// CHECK-NEXT: field factor: State Value <float> at 20 size 4 align 4
// CHECK-NEXT: field n: State Value <unsigned short> at 24 size 2 align 2
// CHECK: ; vertex popops::Foo<half,popops::Op::MUL,false> (MultiVertex)
// CHECK: field out: Output Vector SPAN <half> at 12 size 8 align 2
// CHECK: __runCodelet_popops__Foo_float_popops__Op__ADD_true_:
// CHECK: fadd
// CHECK: __runCodelet_popops__Foo_half_popops__Op__MUL_false_:
// CHECK: ldh
// CHECK: fmul
// CHECK: sth
