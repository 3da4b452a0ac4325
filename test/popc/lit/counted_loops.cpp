// Loops with a computable trip count end in one brnzdec (countLoops + the lowering), and a
// single-block body becomes a zero-overhead rpt loop (formRepeatLoops, which also moves its
// loop-invariant arithmetic before it); indexed addresses
// become post-incremented pointers (stridePointers + formPostIncrement).
// RUN: popc -S %s -o - | grep -v "^ *; /" | FileCheck %s
#include <poplar/Vertex.hpp>

class DotProduct : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> a;
  poplar::Input<poplar::Vector<float>> b;
  poplar::Output<float> out;
  bool compute() {
    float acc = 0;
    for (unsigned i = 0; i < a.size(); ++i)
      acc += a[i] * b[i];
    *out = acc;
    return true;
  }
};

// CHECK-LABEL: __runCodelet_DotProduct:
// CHECK: addi [[N:r[0-9]+]], [[N]], 1
// CHECK-NEXT: rpt [[N]], 4
// CHECK-NEXT: ld32p [[X:r[0-9]+]], [[[A:r[0-9]+]]+=4]
// CHECK-NEXT: ld32p [[Y:r[0-9]+]], [[[B:r[0-9]+]]+=4]
// CHECK-NEXT: fmul [[P:r[0-9]+]], [[X]], [[Y]]
// CHECK-NEXT: fadd [[ACC:r[0-9]+]], [[ACC]], [[P]]
// CHECK-NEXT: ld32 {{r[0-9]+}}, [{{r[0-9]+}}+16]
// CHECK: ret

// A body with a branch cannot be a rpt body: it keeps brnzdec, and no compare of the index.
class ClampPositive : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      if (in[i] > 0.0f)
        out[i] = in[i];
    return true;
  }
};

// CHECK-LABEL: __runCodelet_ClampPositive:
// CHECK: addi [[C:r[0-9]+]], {{r[0-9]+}}, -1
// CHECK-NEXT: [[LOOP:[0-9]+]]: ld32 [[V:r[0-9]+]], [[[IN:r[0-9]+]]]
// CHECK-NOT: cmp{{.*}}
// CHECK: st32 [[V]], [[[OUT:r[0-9]+]]]
// CHECK-NEXT: addi [[IN]], [[IN]], 4
// CHECK-NEXT: addi [[OUT]], [[OUT]], 4
// CHECK-NEXT: brnzdec [[C]], @[[LOOP]]
// CHECK: ret

// A loop entered by a branch (LLVM lays the code after a software-pipelined loop between its
// guard and the loop) still becomes a rpt loop: its set-up gets a block of its own, which the
// branch enters. The multiply then issues beside the store before it (a bundle, "||").
class ScaleByTwo : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  bool compute() {
    const unsigned n = in.size();
    if (n == 0)
      return true;
    float r = in[0] * 2.0f;
    for (unsigned i = 1; i < n; ++i) {
      const float x = in[i];
      out[i - 1] = r;
      r = x * 2.0f;
    }
    out[n - 1] = r;
    return true;
  }
};

// CHECK-LABEL: __runCodelet_ScaleByTwo:
// CHECK: br @[[HEAD:[0-9]+]]
// CHECK: [[HEAD]]: addi [[N:r[0-9]+]], [[N]], 1
// CHECK-NEXT: rpt [[N]], 3
// CHECK-NEXT: ld32p [[X:r[0-9]+]], [{{r[0-9]+}}+=4]
// CHECK-NEXT: st32p [[R:r[0-9]+]], [{{r[0-9]+}}+=4]
// CHECK-NEXT: || fmul [[R]], [[X]], {{r[0-9]+}}
// CHECK-NEXT: br @
// CHECK: ret

// Loop-invariant arithmetic leaves a rpt body: the column's byte offset, which popc's lowering
// derives next to each row's address, is shifted once before the loop.
class ColumnSum : public poplar::Vertex {
public:
  poplar::Vector<poplar::Input<poplar::Vector<float, poplar::VectorLayout::ONE_PTR>>> rows;
  poplar::Input<unsigned> column;
  poplar::Output<float> out;
  bool compute() {
    float s = 0;
    for (unsigned r = 0; r < rows.size(); ++r)
      s += rows[r][*column];
    *out = s;
    return true;
  }
};

// CHECK-LABEL: __runCodelet_ColumnSum:
// CHECK: shli [[OFF:r[0-9]+]], {{r[0-9]+}}, 2
// CHECK: rpt [[N:r[0-9]+]], 4
// CHECK-NEXT: ld32p [[ROW:r[0-9]+]], [{{r[0-9]+}}+=4]
// CHECK-NEXT: add [[P:r[0-9]+]], [[ROW]], [[OFF]]
// CHECK-NEXT: ld32 {{r[0-9]+}}, [[[P]]]
// CHECK-NEXT: fadd
// CHECK-NOT: shli
// CHECK: ret
