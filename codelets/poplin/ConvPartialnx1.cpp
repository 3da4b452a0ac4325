// The AMP vertex of a convolution with a kernel larger than 1x1: for each kernel position, its
// weights are loaded into the AMP and run over the output positions that position reaches,
// reading the input field in place (no im2col copy); the outputs are zeroed first.
#include "AmpPass.hpp"

#include <poplar/Vertex.hpp>

#include <type_traits>

using namespace poplar;

namespace poplin {

template <class FPType, class AccumType> class ConvPartialnx1 : public MultiVertex {
public:
  // Per conv group: in [inPositions][inChans], weights [kernelPositions][inChans][outChans] (one
  // right-hand matrix per kernel position), out [outPositions][outChans]; row-major, contiguous.
  Vector<Input<Vector<FPType, VectorLayout::ONE_PTR, 8>>> in;
  Vector<Input<Vector<FPType, VectorLayout::ONE_PTR, 8>>> weights;
  Vector<Output<Vector<AccumType, VectorLayout::ONE_PTR, 8>>> out;
  // PopLibs' worklists per (kernel position, worker) and zerosInfo, in one vector of positions
  // (poplin/lib/ConvNx1Worklist.hpp builds it): worker w's header at w * (kernelPositions + 3) is
  // {zeroBegin, zeroEnd, e_0 ... e_kernelPositions}: the worker zeros output positions
  // [zeroBegin, zeroEnd), and kernel position k's entries are the triples {outPosition, count,
  // inPosition} at words [e_k, e_k+1); entry i covers out[outPosition + i] += W_k in[inPosition +
  // i * inStride]. A worker's entries write only inside its zeroed range, so workers never race.
  Input<Vector<unsigned, VectorLayout::ONE_PTR, 4>> worklists;
  unsigned kernelPositions;
  unsigned inStride;
  unsigned inChans;
  unsigned outChans;

  void compute(unsigned wid) {
    constexpr bool f32 = std::is_same<FPType, float>::value;
    // A pass covers up to 16 input channels and the outputs of every conv unit.
    constexpr unsigned kPassIn = 16, kUnits = f32 ? 8 : 16;
    // The fields are read once: an AMP pass writes memory, so the compiler would reload them
    // after every pass.
    const unsigned numKernel = kernelPositions, nIn = inChans, nOut = outChans;
    const unsigned *list = &worklists[0];
    const unsigned *header = list + wid * (numKernel + 3);
    const unsigned zeroBegin = header[0], zeroEnd = header[1];
    if (zeroBegin == zeroEnd)
      return;
    const unsigned chunks = (nOut + kUnits - 1) / kUnits;
    const unsigned passes = (nIn + kPassIn - 1) / kPassIn;
    __builtin_ipu_amp_config(inStride * nIn * sizeof(FPType), nOut * sizeof(AccumType));
    for (unsigned g = 0; g < in.size(); ++g) {
      AccumType *y = &out[g][0];
      zero(y + zeroBegin * nOut, (zeroEnd - zeroBegin) * nOut);
      const FPType *x = &in[g][0];
      const FPType *w = &weights[g][0];
      for (unsigned k = 0; k < numKernel; ++k, w += nIn * nOut) {
        const unsigned *first = list + header[2 + k], *last = list + header[3 + k];
        if (first == last)
          continue;
        // Each coefficient block is loaded once and run over every entry of the position.
        for (unsigned c = 0; c < chunks; ++c) {
          const unsigned o0 = c * kUnits;
          const unsigned oc = nOut - o0 < kUnits ? nOut - o0 : kUnits;
          for (unsigned p = 0; p < passes; ++p) {
            const unsigned i0 = p * kPassIn;
            const unsigned ic = nIn - i0 < kPassIn ? nIn - i0 : kPassIn;
            ampLoad(w + i0 * nOut + o0, oc | ic << 8 | nOut << 16);
            for (const unsigned *e = first; e != last; e += 3)
              ampRun(x + e[2] * nIn + i0, y + e[0] * nOut + o0, e[1]);
          }
        }
      }
    }
  }

private:
  static void zero(AccumType *y, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
      y[i] = AccumType(0);
  }
};

} // namespace poplin

#define POPLIN_FAMILY_ConvPartialnx1
#include "Instantiate.hpp"
