// NonLinearity vertices: an activation (forward, out of place or in place) or its input gradient
// over one tile's elements. 1-D forms are MultiVertexes over one contiguous region, split between
// the workers in 8-byte grains; 2-D forms are single-worker Vertexes over a list of regions.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

#include "NonLinearityOps.hpp"

using namespace poplar;

namespace popnn {

template <class FP, NonLinearityType nl> class NonLinearity1D : public MultiVertex {
public:
  Input<Vector<FP, VectorLayout::ONE_PTR, 8>> data;
  Output<Vector<FP, VectorLayout::SPAN, 8>> out;

  void compute(unsigned wid) {
    auto r = popops::device::workerRange(wid, out.size(), sizeof(FP));
    for (unsigned i = r.begin; i < r.end; ++i)
      out[i] = FP(device::forward<nl>(float(data[i])));
  }
};

template <class FP, NonLinearityType nl> class NonLinearity1DInPlace : public MultiVertex {
public:
  InOut<Vector<FP, VectorLayout::SPAN, 8>> data;

  void compute(unsigned wid) {
    auto r = popops::device::workerRange(wid, data.size(), sizeof(FP));
    for (unsigned i = r.begin; i < r.end; ++i)
      data[i] = FP(device::forward<nl>(float(data[i])));
  }
};

template <class FP, NonLinearityType nl> class NonLinearity2D : public Vertex {
public:
  Vector<Input<Vector<FP, VectorLayout::SPAN, 8>>> data;
  Vector<Output<Vector<FP, VectorLayout::SPAN, 8>>> out;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r) {
      const FP *src = &data[r][0];
      FP *dst = &out[r][0];
      unsigned n = out[r].size();
      for (unsigned i = 0; i < n; ++i)
        dst[i] = FP(device::forward<nl>(float(src[i])));
    }
    return true;
  }
};

template <class FP, NonLinearityType nl> class NonLinearity2DInPlace : public Vertex {
public:
  Vector<InOut<Vector<FP, VectorLayout::SPAN, 8>>> data;

  bool compute() {
    for (unsigned r = 0; r < data.size(); ++r) {
      FP *p = &data[r][0];
      unsigned n = data[r].size();
      for (unsigned i = 0; i < n; ++i)
        p[i] = FP(device::forward<nl>(float(p[i])));
    }
    return true;
  }
};

/// inGrad = gradient(out, outGrad); `out` is the forward output or input (NonLinearityOps.hpp).
template <class FP, NonLinearityType nl> class NonLinearityGrad1D : public MultiVertex {
public:
  Input<Vector<FP, VectorLayout::ONE_PTR, 8>> outGrad;
  Input<Vector<FP, VectorLayout::ONE_PTR, 8>> out;
  Output<Vector<FP, VectorLayout::SPAN, 8>> inGrad;

  void compute(unsigned wid) {
    auto r = popops::device::workerRange(wid, inGrad.size(), sizeof(FP));
    for (unsigned i = r.begin; i < r.end; ++i)
      inGrad[i] = FP(device::gradient<nl>(float(out[i]), float(outGrad[i])));
  }
};

template <class FP, NonLinearityType nl> class NonLinearityGrad2D : public Vertex {
public:
  Vector<Input<Vector<FP, VectorLayout::SPAN, 8>>> outGrad;
  Vector<Input<Vector<FP, VectorLayout::SPAN, 8>>> out;
  Vector<Output<Vector<FP, VectorLayout::SPAN, 8>>> inGrad;

  bool compute() {
    for (unsigned r = 0; r < inGrad.size(); ++r) {
      const FP *g = &outGrad[r][0];
      const FP *act = &out[r][0];
      FP *dst = &inGrad[r][0];
      unsigned n = inGrad[r].size();
      for (unsigned i = 0; i < n; ++i)
        dst[i] = FP(device::gradient<nl>(float(act[i]), float(g[i])));
    }
    return true;
  }
};

} // namespace popnn

#define POPNN_FAMILY_NonLinearity
#include "Instantiate.hpp"
