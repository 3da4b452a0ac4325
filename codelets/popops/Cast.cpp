// Cast vertices: element type conversion over one region split between workers (Cast1D) or a
// list of regions in one worker (Cast2D).
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

#include "VectorLoops.hpp"

using namespace poplar;

namespace popops {

template <class From, class To> class Cast1D : public MultiVertex {
public:
  Input<Vector<From, VectorLayout::ONE_PTR, 8>> src;
  Output<Vector<To, VectorLayout::SPAN, 8>> dst;

  void compute(unsigned wid) {
    // Split by the wider of the two types, so neither side's 8-byte grains are shared.
    auto r =
        device::workerRange(wid, dst.size(), sizeof(From) > sizeof(To) ? sizeof(To) : sizeof(From));
    vec::cast(&src[r.begin], &dst[r.begin], r.end - r.begin);
  }
};

template <class From, class To> class Cast2D : public Vertex {
public:
  Vector<Input<Vector<From, VectorLayout::SPAN, 8>>> src;
  Vector<Output<Vector<To, VectorLayout::SPAN, 8>>> dst;

  bool compute() {
    for (unsigned r = 0; r < dst.size(); ++r)
      vec::cast(&src[r][0], &dst[r][0], dst[r].size());
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Cast
#include "Instantiate.hpp"
