// The reduction that follows a matmul or convolution split over input channels: the sum of
// the partials each tile computed, out[i] = sum_p partials[p][i].
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

using namespace poplar;

namespace poplin {

template <class OutType, class PartialsType> class ReduceAdd : public MultiVertex {
public:
  Vector<Input<Vector<PartialsType, VectorLayout::ONE_PTR, 8>>> partials;
  Output<Vector<OutType, VectorLayout::SPAN, 8>> out;

  void compute(unsigned wid) {
    auto r = popops::device::workerRange(wid, out.size(), sizeof(OutType));
    // Blocks of a float accumulator, so half partials or outputs round once, at the end.
    constexpr unsigned kBlock = 32;
    float acc[kBlock];
    for (unsigned b = r.begin; b < r.end; b += kBlock) {
      const unsigned n = r.end - b < kBlock ? r.end - b : kBlock;
      const PartialsType *first = &partials[0][b];
      for (unsigned i = 0; i < n; ++i)
        acc[i] = float(first[i]);
      for (unsigned p = 1; p < partials.size(); ++p) {
        const PartialsType *q = &partials[p][b];
        for (unsigned i = 0; i < n; ++i)
          acc[i] += float(q[i]);
      }
      OutType *o = &out[b];
      for (unsigned i = 0; i < n; ++i)
        o[i] = OutType(acc[i]);
    }
  }
};

} // namespace poplin

#define POPLIN_FAMILY_ReduceAdd
#include "Instantiate.hpp"
