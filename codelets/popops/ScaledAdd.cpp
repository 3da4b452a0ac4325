// Scaled arithmetic and the ternary ops: A = a.A + b.B (scaledAddTo, scaledSubtractFrom,
// aXPlusbY), select and clamp. Scales are one-element tensors of the compute type (float for
// half data), so one vertex serves constant and tensor scales.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

#include "VectorLoops.hpp"

using namespace poplar;

namespace popops {

using device::Compute;

template <class T> class ScaledAdd1D : public MultiVertex {
public:
  InOut<Vector<T, VectorLayout::SPAN, 8>> A;
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> B;
  Input<Vector<Compute<T>, VectorLayout::ONE_PTR, 4>> scaleA;
  Input<Vector<Compute<T>, VectorLayout::ONE_PTR, 4>> scaleB;

  void compute(unsigned wid) {
    auto r = device::workerRange(wid, A.size(), sizeof(T));
    vec::scaledAdd(&A[r.begin], &B[r.begin], r.end - r.begin, scaleA[0], scaleB[0]);
  }
};

template <class T> class ScaledAdd2D : public Vertex {
public:
  Vector<InOut<Vector<T, VectorLayout::SPAN, 8>>> A;
  Vector<Input<Vector<T, VectorLayout::SPAN, 8>>> B;
  Input<Vector<Compute<T>, VectorLayout::ONE_PTR, 4>> scaleA;
  Input<Vector<Compute<T>, VectorLayout::ONE_PTR, 4>> scaleB;

  bool compute() {
    Compute<T> a = scaleA[0], b = scaleB[0];
    for (unsigned r = 0; r < A.size(); ++r)
      vec::scaledAdd(&A[r][0], &B[r][0], A[r].size(), a, b);
    return true;
  }
};

/// out = in3 ? in1 : in2
template <class T> class Select1D : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in1;
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in2;
  Input<Vector<bool, VectorLayout::ONE_PTR, 8>> in3;
  Output<Vector<T, VectorLayout::SPAN, 8>> out;

  void compute(unsigned wid) {
    auto r = device::workerRange(wid, out.size(), sizeof(T) < 2 ? 1 : sizeof(T));
    vec::select(&in1[r.begin], &in2[r.begin], &in3[r.begin], &out[r.begin], r.end - r.begin);
  }
};

/// out = min(max(in1, in2), in3)
template <class T> class Clamp1D : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in1;
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in2;
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in3;
  Output<Vector<T, VectorLayout::SPAN, 8>> out;

  void compute(unsigned wid) {
    auto r = device::workerRange(wid, out.size(), sizeof(T));
    vec::clamp(&in1[r.begin], &in2[r.begin], &in3[r.begin], &out[r.begin], r.end - r.begin);
  }
};

} // namespace popops

#define POPOPS_FAMILY_ScaledAdd
#include "Instantiate.hpp"
