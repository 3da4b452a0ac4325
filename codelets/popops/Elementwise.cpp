// Element-wise unary and binary op vertices: 1-D MultiVertex forms over one contiguous region
// split between the six workers, and 2-D single-worker forms over a list of regions.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

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
    for (unsigned i = r.begin; i < r.end; ++i)
      out[i] = device::unaryOp<op>(Compute<T>(in[i]));
  }
};

template <expr::UnaryOpType op, class T> class UnaryOp1DInPlace : public MultiVertex {
public:
  InOut<Vector<T, VectorLayout::SPAN, 8>> inOut;

  void compute(unsigned wid) {
    auto r = device::workerRange(wid, inOut.size(), sizeof(T));
    for (unsigned i = r.begin; i < r.end; ++i)
      inOut[i] = device::unaryOp<op>(Compute<T>(inOut[i]));
  }
};

template <expr::UnaryOpType op, class T> class UnaryOp2D : public Vertex {
public:
  Vector<Input<Vector<T, VectorLayout::SPAN, 8>>> in;
  Vector<Output<Vector<UnaryOut<op, T>, VectorLayout::SPAN, 8>>> out;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r) {
      const T *src = &in[r][0];
      UnaryOut<op, T> *dst = &out[r][0];
      unsigned n = out[r].size();
      for (unsigned i = 0; i < n; ++i)
        dst[i] = device::unaryOp<op>(Compute<T>(src[i]));
    }
    return true;
  }
};

template <expr::UnaryOpType op, class T> class UnaryOp2DInPlace : public Vertex {
public:
  Vector<InOut<Vector<T, VectorLayout::SPAN, 8>>> inOut;

  bool compute() {
    for (unsigned r = 0; r < inOut.size(); ++r) {
      T *p = &inOut[r][0];
      unsigned n = inOut[r].size();
      for (unsigned i = 0; i < n; ++i)
        p[i] = device::unaryOp<op>(Compute<T>(p[i]));
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
    for (unsigned i = r.begin; i < r.end; ++i)
      out[i] = device::binaryOp<op>(Compute<T>(in1[i]), Compute<T>(in2[i]));
  }
};

template <expr::BinaryOpType op, class T> class BinaryOp1DInPlace : public MultiVertex {
public:
  InOut<Vector<T, VectorLayout::SPAN, 8>> in1Out;
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in2;

  void compute(unsigned wid) {
    auto r = device::workerRange(wid, in1Out.size(), sizeof(T));
    for (unsigned i = r.begin; i < r.end; ++i)
      in1Out[i] = device::binaryOp<op>(Compute<T>(in1Out[i]), Compute<T>(in2[i]));
  }
};

template <expr::BinaryOpType op, class T> class BinaryOp2D : public Vertex {
public:
  Vector<Input<Vector<T, VectorLayout::SPAN, 8>>> in1;
  Vector<Input<Vector<T, VectorLayout::SPAN, 8>>> in2;
  Vector<Output<Vector<BinaryOut<op, T>, VectorLayout::SPAN, 8>>> out;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r) {
      const T *a = &in1[r][0];
      const T *b = &in2[r][0];
      BinaryOut<op, T> *dst = &out[r][0];
      unsigned n = out[r].size();
      for (unsigned i = 0; i < n; ++i)
        dst[i] = device::binaryOp<op>(Compute<T>(a[i]), Compute<T>(b[i]));
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
      T *a = &in1Out[r][0];
      const T *b = &in2[r][0];
      unsigned n = in1Out[r].size();
      for (unsigned i = 0; i < n; ++i)
        a[i] = device::binaryOp<op>(Compute<T>(a[i]), Compute<T>(b[i]));
    }
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Elementwise
#include "Instantiate.hpp"
