// A counted loop whose trip count is chosen before it (here: zero unless the pointers are
// aligned) and which code follows is still a rpt loop: LLVM's block order put the code after the
// loop between the guard and the loop, so the loop was entered by a branch and stayed a
// brnzdec loop (layoutBlocks now places it after the block that enters it).
// RUN: popc -S %s -o - | grep -v "^ *; /" | FileCheck %s
#include <poplar/Vertex.hpp>

class GuardedVectorAdd : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::SPAN, 8>> a;
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::ONE_PTR, 8>> b;
  poplar::Output<poplar::Vector<float, poplar::VectorLayout::ONE_PTR, 8>> out;
  bool compute() {
    const float *pa = &a[0], *pb = &b[0];
    float *po = &out[0];
    unsigned n = a.size();
    bool aligned = ((unsigned(pa) | unsigned(pb) | unsigned(po)) & 7) == 0;
    unsigned vectors = aligned ? n / 2 : 0;
    const float2 *va = reinterpret_cast<const float2 *>(pa);
    const float2 *vb = reinterpret_cast<const float2 *>(pb);
    float2 *vo = reinterpret_cast<float2 *>(po);
    for (unsigned k = 0; k < vectors; ++k)
      vo[k] = va[k] + vb[k];
    for (unsigned i = vectors * 2; i < n; ++i)
      po[i] = pa[i] + pb[i];
    return true;
  }
};

// CHECK-LABEL: __runCodelet_GuardedVectorAdd:
// CHECK: brnz {{r[0-9]+}}, @[[AFTER:[0-9]+]]
// CHECK: addi [[N:r[0-9]+]], [[N]], 1
// CHECK-NEXT: rpt [[N]], 4
// CHECK-NEXT: ld64p
// CHECK-NEXT: ld64p
// CHECK-NEXT: f32v2add
// CHECK-NEXT: st64p
// CHECK-NEXT: [[AFTER]]:
// CHECK: rpt {{r[0-9]+}}, 4
// CHECK-NEXT: ld32p
// CHECK-NEXT: ld32p
// CHECK-NEXT: fadd
// CHECK-NEXT: st32p
// CHECK: ret
