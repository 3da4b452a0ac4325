// Element-wise unary and binary op vertices: 1-D MultiVertex forms over one contiguous region
// split between the six workers, and 2-D single-worker forms over a list of regions.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

#include "VectorLoops.hpp"

using namespace poplar;

namespace popops {

using device::Compute;

template <expr::UnaryOpType op, class T> using UnaryOut = typename device::UnaryResult<op, T>::type;
template <expr::BinaryOpType op, class T>
using BinaryOut = typename device::BinaryResult<op, T>::type;

template <expr::UnaryOpType op, class T> class UnaryOp1D : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in;
  Output<Vector<UnaryOut<op, T>, VectorLayout::SPAN, 8>> out;

  void compute(unsigned wid) {
    auto r = device::workerRange(wid, out.size(), sizeof(T));
    vec::unary<op, false>(&in[r.begin], &out[r.begin], r.end - r.begin);
  }
};

template <expr::UnaryOpType op, class T> class UnaryOp1DInPlace : public MultiVertex {
public:
  InOut<Vector<T, VectorLayout::SPAN, 8>> inOut;

  void compute(unsigned wid) {
    auto r = device::workerRange(wid, inOut.size(), sizeof(T));
    vec::unary<op, true>(&inOut[r.begin], &inOut[r.begin], r.end - r.begin);
  }
};

template <expr::UnaryOpType op, class T> class UnaryOp2D : public Vertex {
public:
  Vector<Input<Vector<T, VectorLayout::SPAN, 8>>> in;
  Vector<Output<Vector<UnaryOut<op, T>, VectorLayout::SPAN, 8>>> out;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r) {
      vec::unary<op, false>(&in[r][0], &out[r][0], out[r].size());
    }
    return true;
  }
};

template <expr::UnaryOpType op, class T> class UnaryOp2DInPlace : public Vertex {
public:
  Vector<InOut<Vector<T, VectorLayout::SPAN, 8>>> inOut;

  bool compute() {
    for (unsigned r = 0; r < inOut.size(); ++r) {
      vec::unary<op, true>(&inOut[r][0], &inOut[r][0], inOut[r].size());
    }
    return true;
  }
};

template <expr::BinaryOpType op, class T> class BinaryOp1D : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in1;
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in2;
  Output<Vector<BinaryOut<op, T>, VectorLayout::SPAN, 8>> out;

  void compute(unsigned wid) {
    auto r = device::workerRange(wid, out.size(), sizeof(T));
    vec::binary<op, false>(&in1[r.begin], &in2[r.begin], &out[r.begin], r.end - r.begin);
  }
};

template <expr::BinaryOpType op, class T> class BinaryOp1DInPlace : public MultiVertex {
public:
  InOut<Vector<T, VectorLayout::SPAN, 8>> in1Out;
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in2;

  void compute(unsigned wid) {
    auto r = device::workerRange(wid, in1Out.size(), sizeof(T));
    vec::binary<op, true>(&in1Out[r.begin], &in2[r.begin], &in1Out[r.begin], r.end - r.begin);
  }
};

template <expr::BinaryOpType op, class T> class BinaryOp2D : public Vertex {
public:
  Vector<Input<Vector<T, VectorLayout::SPAN, 8>>> in1;
  Vector<Input<Vector<T, VectorLayout::SPAN, 8>>> in2;
  Vector<Output<Vector<BinaryOut<op, T>, VectorLayout::SPAN, 8>>> out;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r) {
      vec::binary<op, false>(&in1[r][0], &in2[r][0], &out[r][0], out[r].size());
    }
    return true;
  }
};

template <expr::BinaryOpType op, class T> class BinaryOp2DInPlace : public Vertex {
public:
  Vector<InOut<Vector<T, VectorLayout::SPAN, 8>>> in1Out;
  Vector<Input<Vector<T, VectorLayout::SPAN, 8>>> in2;

  bool compute() {
    for (unsigned r = 0; r < in1Out.size(); ++r) {
      vec::binary<op, true>(&in1Out[r][0], &in2[r][0], &in1Out[r][0], in1Out[r].size());
    }
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Elementwise
#include "Instantiate.hpp"
