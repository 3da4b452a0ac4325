// The MAC vertex of a 1x1 convolution for blocks the AMP serves badly (few output channels per
// conv group, few positions): out[p][o] = sum_i in[p][i] * weights[i][o] per conv group, as
// ConvPartial1x1Out computes it, in plain multiply-accumulate loops.
#include <poplar/Vertex.hpp>

#include <math.h>

using namespace poplar;

namespace poplin {

namespace {

/// out[o] = sum_i x[i] * w[i * stride + o] for o < W, in float registers: a row of W weights
/// per input channel, so every load feeds a MAC (the AMP pass pays for its unused units).
template <unsigned W, bool Packed, class FPType, class AccumType>
void dotRow(const FPType *x, const FPType *w, AccumType *y, unsigned inChans,
            unsigned strideBytes) {
  float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  // x indexed (popc makes it a post-incremented pointer) and the weight row stepped by a byte
  // count, so the body is one block that runs as a rpt loop; when the row is the whole of
  // outChans (Packed), the step is a constant that folds into a post-increment.
  for (unsigned i = 0; i < inChans; ++i) {
    const float xi = float(x[i]);
    a0 = fmaf(xi, float(w[0]), a0);
    if constexpr (W > 1)
      a1 = fmaf(xi, float(w[1]), a1);
    if constexpr (W > 2)
      a2 = fmaf(xi, float(w[2]), a2);
    if constexpr (W > 3)
      a3 = fmaf(xi, float(w[3]), a3);
    if constexpr (Packed)
      w += W;
    else
      w = reinterpret_cast<const FPType *>(reinterpret_cast<const char *>(w) + strideBytes);
  }
  y[0] = AccumType(a0);
  if constexpr (W > 1)
    y[1] = AccumType(a1);
  if constexpr (W > 2)
    y[2] = AccumType(a2);
  if constexpr (W > 3)
    y[3] = AccumType(a3);
}

/// dotRow over n positions: the dispatch on the row width is made once per group and row, not
/// once per position, so a position costs its MACs and a few instructions.
template <unsigned W, bool Packed, class FPType, class AccumType>
void dotRows(const FPType *x, const FPType *w, AccumType *y, unsigned n, unsigned inChans,
             unsigned outChans, unsigned strideBytes) {
  for (unsigned p = 0; p < n; ++p) {
    dotRow<W, Packed>(x, w, y, inChans, strideBytes);
    x += inChans;
    y += outChans;
  }
}

} // namespace

template <class FPType, class AccumType> class ConvPartialHorizontalMac : public MultiVertex {
public:
  // Per conv group: in [numPositions][inChans], weights [inChans][outChans] (the right-hand
  // matrix), out [numPositions][outChans]; all row-major and contiguous (ConvPartial1x1Out's).
  Vector<Input<Vector<FPType, VectorLayout::ONE_PTR, 8>>> in;
  Vector<Input<Vector<FPType, VectorLayout::ONE_PTR, 8>>> weights;
  Vector<Output<Vector<AccumType, VectorLayout::ONE_PTR, 8>>> out;
  unsigned numPositions;
  unsigned inChans;
  unsigned outChans;

  void compute(unsigned wid) {
    // Workers share the positions when there are enough to go round, else the conv groups
    // (a depthwise block on a tile is many groups of few positions).
    const unsigned groups = in.size();
    unsigned p0 = 0, p1 = numPositions, g0 = wid, gStep = 6;
    if (numPositions >= 6 || groups == 1) {
      const unsigned per = (numPositions + 5) / 6;
      p0 = wid * per < numPositions ? wid * per : numPositions;
      p1 = p0 + per < numPositions ? p0 + per : numPositions;
      g0 = 0;
      gStep = 1;
    }
    if (p0 == p1)
      return;
    const unsigned strideBytes = outChans * sizeof(FPType);
    const unsigned n = p1 - p0;
    for (unsigned g = g0; g < groups; g += gStep) {
      const FPType *x = &in[g][p0 * inChans];
      const FPType *w = &weights[g][0];
      AccumType *y = &out[g][p0 * outChans];
      // Few output channels (the shapes this vertex is for) are one packed row; more go in
      // rows of four, the widest that stays in registers, and a rest.
      switch (outChans) {
      case 1:
        dotRows<1, true>(x, w, y, n, inChans, outChans, strideBytes);
        continue;
      case 2:
        dotRows<2, true>(x, w, y, n, inChans, outChans, strideBytes);
        continue;
      case 3:
        dotRows<3, true>(x, w, y, n, inChans, outChans, strideBytes);
        continue;
      default:
        break;
      }
      unsigned o = 0;
      for (; o + 4 <= outChans; o += 4)
        dotRows<4, false>(x, w + o, y + o, n, inChans, outChans, strideBytes);
      switch (outChans - o) {
      case 3:
        dotRows<3, false>(x, w + o, y + o, n, inChans, outChans, strideBytes);
        break;
      case 2:
        dotRows<2, false>(x, w + o, y + o, n, inChans, outChans, strideBytes);
        break;
      case 1:
        dotRows<1, false>(x, w + o, y + o, n, inChans, outChans, strideBytes);
        break;
      default:
        break;
      }
    }
  }
};

} // namespace poplin

#define POPLIN_FAMILY_ConvPartialHorizontalMac
#include "Instantiate.hpp"
