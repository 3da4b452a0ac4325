// Tutorial 5 codelet: DotProductVertex, the dot product of two equal-length vectors.
#include <poplar/Vertex.hpp>

using namespace poplar;

class DotProductVertex : public Vertex {
public:
  // One row of the matrix and the whole input vector (same length), and one output element.
  Input<Vector<float>> a;
  Input<Vector<float>> b;
  Output<float> out;

  bool compute() {
    // Accumulate in float, in index order: the host check repeats this order exactly.
    float sum = 0;
    for (unsigned i = 0; i < a.size(); ++i)
      sum += a[i] * b[i];
    *out = sum;
    return true;
  }
};
