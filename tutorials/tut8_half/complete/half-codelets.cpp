// Tutorial 8 codelet: HalfScaleVertex reads and writes 16-bit floats and sums them in 32 bits.
#include <poplar/Vertex.hpp>

using namespace poplar;

class HalfScaleVertex : public Vertex {
public:
  // `half` (from poplar/Vertex.hpp) is the IPU's 16-bit float: it is stored in 2 bytes and
  // widened to float for arithmetic.
  Input<Vector<half>> in;
  Output<Vector<half>> out;
  Output<float> sum;
  // The factor every element is multiplied by, set by the host.
  float scale;

  bool compute() {
    float total = 0;
    for (unsigned i = 0; i < in.size(); ++i) {
      // in[i] widens to float; the product is rounded back to half when stored (overflowing
      // to infinity above 65504).
      out[i] = in[i] * scale;
      // Summing in float keeps the precision that a half accumulator would lose.
      total += in[i];
    }
    *sum = total;
    return true;
  }
};
