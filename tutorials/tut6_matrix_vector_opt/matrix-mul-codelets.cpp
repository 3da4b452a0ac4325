// Tutorial 6 codelets: DotProductVertex (one row segment times one input segment) and
// ReduceVertex (the sum of a row's partial sums).
#include <poplar/Vertex.hpp>

using namespace poplar;

// out = a . b, accumulated in float in index order.
class DotProductVertex : public Vertex {
public:
  Input<Vector<float>> a;
  Input<Vector<float>> b;
  Output<float> out;

  bool compute() {
    float sum = 0;
    for (unsigned i = 0; i < a.size(); ++i)
      sum += a[i] * b[i];
    *out = sum;
    return true;
  }
};

// out = in[0] + in[1] + ...: one row's partial sums, one per column segment.
class ReduceVertex : public Vertex {
public:
  Input<Vector<float>> in;
  Output<float> out;

  bool compute() {
    float sum = 0;
    for (unsigned i = 0; i < in.size(); ++i)
      sum += in[i];
    *out = sum;
    return true;
  }
};
