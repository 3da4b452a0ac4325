// A 1x1 convolution over one tile's positions (poplin-style, written with float2): out[p][o] =
// bias[o] + sum_i w[o][i] * in[p][i], the input channels taken two at a time (f32v2mul and
// f32v2add into a float2 accumulator), an even channel count.
#include <poplar/VectorTypes.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace poplin {

class PointwiseConvFloat2 : public Vertex {
public:
  Input<Vector<float, VectorLayout::SPAN, 8>> in;         // positions x inChans
  Input<Vector<float, VectorLayout::ONE_PTR, 8>> weights; // outChans x inChans
  Input<Vector<float, VectorLayout::ONE_PTR>> bias;       // outChans
  Output<Vector<float, VectorLayout::ONE_PTR>> out;       // positions x outChans
  unsigned inChans, outChans;

  void compute() {
    const unsigned positions = in.size() / inChans, pairs = inChans / 2;
    for (unsigned p = 0; p < positions; ++p) {
      const float2 *x = reinterpret_cast<const float2 *>(&in[p * inChans]);
      for (unsigned o = 0; o < outChans; ++o) {
        const float2 *w = reinterpret_cast<const float2 *>(&weights[o * inChans]);
        float2 acc = {0.0f, 0.0f};
        for (unsigned i = 0; i < pairs; ++i) {
          float2 prod = w[i] * x[i];
          acc = acc + prod;
        }
        out[p * outChans + o] = bias[o] + (acc[0] + acc[1]);
      }
    }
  }
};

} // namespace poplin
