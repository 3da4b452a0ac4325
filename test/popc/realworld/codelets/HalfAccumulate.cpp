// Half scalar edges and half functions: a dot product accumulated in float, rounded to half
// once into an InOut<half>, and a half helper passed and returning half.
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> [[gnu::noinline]] T scaled(T x, T scale) { return x * scale; }

class HalfDot : public Vertex {
public:
  Input<Vector<half>> a;
  Input<Vector<half, VectorLayout::ONE_PTR>> b;
  Input<half> scale;
  InOut<half> acc;
  Output<half> last;

  bool compute() {
    float sum = 0.0f;
    for (unsigned i = 0; i < a.size(); ++i)
      sum += float(a[i]) * float(b[i]);
    acc += half(sum) * scale;
    last = scaled<half>(a[a.size() - 1], scale);
    return true;
  }
};

// Every store rounds: summing in half rounds after each addition.
class HalfSum : public Vertex {
public:
  Input<Vector<half>> in;
  Output<half> out;

  bool compute() {
    half s = 0;
    for (half x : in)
      s += x;
    out = s;
    return true;
  }
};
