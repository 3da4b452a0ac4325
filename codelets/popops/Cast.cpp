// Cast vertices: element type conversion over one region split between workers (Cast1D) or a
// list of regions in one worker (Cast2D).
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

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
    for (unsigned i = r.begin; i < r.end; ++i)
      dst[i] = device::convert<To, From>(src[i]);
  }
};

template <class From, class To> class Cast2D : public Vertex {
public:
  Vector<Input<Vector<From, VectorLayout::SPAN, 8>>> src;
  Vector<Output<Vector<To, VectorLayout::SPAN, 8>>> dst;

  bool compute() {
    for (unsigned r = 0; r < dst.size(); ++r) {
      const From *s = &src[r][0];
      To *d = &dst[r][0];
      unsigned n = dst[r].size();
      for (unsigned i = 0; i < n; ++i)
        d[i] = device::convert<To, From>(s[i]);
    }
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Cast
#include "Instantiate.hpp"
