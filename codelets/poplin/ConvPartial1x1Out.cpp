// The AMP vertex of a 1x1 convolution, which is how a matmul runs: for each conv group,
// out[p][o] = sum_i in[p][i] * weights[o][i] over one tile's block, in AMP passes.
#include <ipu_builtins.h>
#include <poplar/Vertex.hpp>

#include <type_traits>

using namespace poplar;

namespace poplin {

template <class FPType, class AccumType> class ConvPartial1x1Out : public MultiVertex {
public:
  // Per conv group: in [numPositions][inChans], weights [inChans][outChans] (the right-hand
  // matrix), out [numPositions][outChans]; all row-major and contiguous.
  Vector<Input<Vector<FPType, VectorLayout::ONE_PTR, 8>>> in;
  Vector<Input<Vector<FPType, VectorLayout::ONE_PTR, 8>>> weights;
  Vector<Output<Vector<AccumType, VectorLayout::ONE_PTR, 8>>> out;
  unsigned numPositions;
  unsigned inChans;
  unsigned outChans;

  void compute(unsigned wid) {
    constexpr bool f32 = std::is_same<FPType, float>::value;
    // A pass covers up to 16 input channels and the outputs of every conv unit.
    constexpr unsigned kPassIn = 16, kUnits = f32 ? 8 : 16;
    const unsigned chunks = (outChans + kUnits - 1) / kUnits;
    // Workers share the output chunks when there are enough to go round, else the positions:
    // each pass reloads coefficients, so a worker should run long passes.
    unsigned p0 = 0, p1 = numPositions, c0 = wid, cStep = 6;
    if (chunks < 6) {
      const unsigned per = (numPositions + 5) / 6;
      p0 = wid * per < numPositions ? wid * per : numPositions;
      p1 = p0 + per < numPositions ? p0 + per : numPositions;
      c0 = 0;
      cStep = 1;
    }
    if (p0 == p1)
      return;
    __builtin_ipu_amp_config(inChans * sizeof(FPType), outChans * sizeof(AccumType));
    for (unsigned g = 0; g < in.size(); ++g) {
      const FPType *x = &in[g][p0 * inChans];
      const FPType *w = &weights[g][0];
      AccumType *y = &out[g][p0 * outChans];
      for (unsigned c = c0; c < chunks; c += cStep) {
        const unsigned o0 = c * kUnits;
        const unsigned oc = outChans - o0 < kUnits ? outChans - o0 : kUnits;
        for (unsigned i0 = 0; i0 < inChans; i0 += kPassIn) {
          const unsigned ic = inChans - i0 < kPassIn ? inChans - i0 : kPassIn;
          const unsigned shape = oc | ic << 8 | outChans << 16;
          // The first input group overwrites the outputs; the others accumulate.
          const unsigned ctl = (p1 - p0) | (i0 == 0 ? 0x80000000u : 0u);
          if constexpr (f32) {
            __builtin_ipu_amp_load_f32(w + i0 * outChans + o0, shape);
            __builtin_ipu_amp_f32(x + i0, y + o0, ctl);
          } else {
            __builtin_ipu_amp_load_f16(w + i0 * outChans + o0, shape);
            if constexpr (std::is_same<AccumType, float>::value)
              __builtin_ipu_amp_f16(x + i0, y + o0, ctl);
            else
              __builtin_ipu_amp_f16h(x + i0, y + o0, ctl);
          }
        }
      }
    }
  }
};

} // namespace poplin

#define POPLIN_FAMILY_ConvPartial1x1Out
#include "Instantiate.hpp"
