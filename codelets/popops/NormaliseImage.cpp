// Image normalisation (NormaliseImage): 3-channel pixels scaled and offset per channel into
// 4-channel pixels whose fourth channel is 0.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

using namespace poplar;

namespace popops {

using device::Compute;

/// out pixel p = ((in[p][c] * inScale - offsets[c]) * scales[c] for c < 3, 0), in OutT's
/// arithmetic (each step rounded to half for half, as the IPU's half vector ops do). The workers
/// take whole pixels, so each writes whole 32-bit words.
template <class InT, class OutT> class NormaliseImage : public MultiVertex {
public:
  Input<Vector<InT, VectorLayout::ONE_PTR, 4>> in;
  Output<Vector<OutT, VectorLayout::ONE_PTR, 8>> out;
  Input<Vector<OutT, VectorLayout::ONE_PTR, 8>> scales;
  Input<Vector<OutT, VectorLayout::ONE_PTR, 8>> offsets;
  const OutT inScale;
  const unsigned numPixels;

  void compute(unsigned wid) {
    using device::asStored;
    const unsigned perWorker = (numPixels + 5) / 6;
    unsigned begin = wid * perWorker, end = begin + perWorker;
    if (end > numPixels)
      end = numPixels;
    Compute<OutT> scale = inScale;
    for (unsigned p = begin; p < end; ++p) {
      for (unsigned c = 0; c < 3; ++c) {
        Compute<OutT> x = asStored<OutT>(Compute<OutT>(in[3 * p + c]) * scale);
        x = asStored<OutT>(x - Compute<OutT>(offsets[c]));
        out[4 * p + c] = x * Compute<OutT>(scales[c]);
      }
      out[4 * p + 3] = OutT(0);
    }
  }
};

} // namespace popops

#define POPOPS_FAMILY_NormaliseImage
#include "Instantiate.hpp"
