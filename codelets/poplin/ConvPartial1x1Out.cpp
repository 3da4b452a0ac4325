// The AMP vertex of a 1x1 convolution, which is how a matmul runs: for each conv group,
// out[p][o] = sum_i in[p][i] * weights[o][i] over one tile's block, in AMP passes.
#include "AmpPass.hpp"

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
    // The fields are read once: an AMP pass writes memory, so the compiler would reload them
    // after every pass.
    const unsigned positions = numPositions, nIn = inChans, nOut = outChans;
    const unsigned chunks = (nOut + kUnits - 1) / kUnits;
    // Workers share the output chunks when there are enough to go round, else the positions:
    // each pass reloads coefficients, so a worker should run long passes.
    unsigned p0 = 0, p1 = positions, c0 = wid, cStep = 6;
    if (chunks < 6) {
      const unsigned per = (positions + 5) / 6;
      p0 = wid * per < positions ? wid * per : positions;
      p1 = p0 + per < positions ? p0 + per : positions;
      c0 = 0;
      cStep = 1;
    }
    if (p0 == p1)
      return;
    __builtin_ipu_amp_config(nIn * sizeof(FPType), nOut * sizeof(AccumType));
    const unsigned fullPasses = nIn / kPassIn, restIn = nIn % kPassIn;
    const unsigned n = p1 - p0;
    for (unsigned g = 0; g < in.size(); ++g) {
      const FPType *x = &in[g][p0 * nIn];
      const FPType *w = &weights[g][0];
      AccumType *y = &out[g][p0 * nOut];
      for (unsigned c = c0; c < chunks; c += cStep) {
        const unsigned o0 = c * kUnits;
        const unsigned oc = nOut - o0 < kUnits ? nOut - o0 : kUnits;
        // The first input group overwrites the outputs; the others accumulate.
        unsigned ctl = n | 0x80000000u;
        const FPType *wp = w + o0, *xp = x;
        AccumType *yp = y + o0;
        const unsigned fullShape = oc | kPassIn << 8 | nOut << 16;
        for (unsigned i = 0; i < fullPasses; ++i) {
          pass(wp, fullShape, xp, yp, ctl);
          wp += kPassIn * nOut;
          xp += kPassIn;
          ctl = n;
        }
        if (restIn)
          pass(wp, oc | restIn << 8 | nOut << 16, xp, yp, ctl);
      }
    }
  }

private:
  // One AMP pass: load the coefficient block, run it over the positions.
  __attribute__((always_inline)) static void pass(const FPType *w, unsigned shape, const FPType *x,
                                                  AccumType *y, unsigned ctl) {
    ampLoad(w, shape);
    ampRun(x, y, ctl);
  }
};

} // namespace poplin

#define POPLIN_FAMILY_ConvPartial1x1Out
#include "Instantiate.hpp"
