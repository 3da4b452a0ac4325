// A custom vertex used beside popops: out = in * scale + shift over one region, split between
// the tile's six workers.
#include <poplar/Vertex.hpp>

using namespace poplar;

class ScaleShift : public MultiVertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  float scale;
  float shift;

  void compute(unsigned workerId) {
    for (unsigned i = workerId; i < in.size(); i += numWorkers())
      out[i] = in[i] * scale + shift;
  }
};
