// Tutorial 8 codelet (start here): the fields are ready; write compute() (see README).
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
    // TODO: out[i] = in[i] * scale for every element, and *sum = the float sum of in.
    return true;
  }
};
