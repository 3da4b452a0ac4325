// Real-world codelet shapes run by VertexTest.cpp: loops, templates, helpers, tables, half, lists.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

// tut3: range-for over an input vector.
class SumVertex : public Vertex {
public:
  Input<Vector<float>> in;
  Output<float> out;
  bool compute() {
    *out = 0;
    for (const auto &v : in)
      *out += v;
    return true;
  }
};

// tut5: an index loop over two vectors.
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

// A template with several explicit instantiations and a plain scalar state member.
template <typename T> class Scale : public Vertex {
public:
  Input<Vector<T>> in;
  Output<Vector<T>> out;
  float factor;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = T(in[i] * factor);
    return true;
  }
};
template class Scale<float>;
template class Scale<int>;
template class Scale<half>;

// A helper the optimiser must not inline: the vertex calls it once per element.
__attribute__((noinline)) int clampTo(int x, int lo, int hi) {
  return x < lo ? lo : x > hi ? hi : x;
}

class ClampVertex : public Vertex {
public:
  Input<Vector<int>> in;
  Output<Vector<int>> out;
  int lo;
  int hi;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = clampTo(in[i], lo, hi);
    return true;
  }
};

// A lookup table in the data section: popcount of each byte's low nibble and high nibble.
static const unsigned char kNibbleBits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

class PopcountVertex : public Vertex {
public:
  Input<Vector<unsigned>> in;
  Output<Vector<unsigned>> out;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i) {
      unsigned x = in[i], n = 0;
      for (unsigned k = 0; k < 8; ++k)
        n += kNibbleBits[(x >> (4 * k)) & 15];
      out[i] = n;
    }
    return true;
  }
};

// Half in, half out, float arithmetic in between.
class HalfAxpy : public Vertex {
public:
  Input<Vector<half>> x;
  InOut<Vector<half>> y;
  float alpha;
  bool compute() {
    for (unsigned i = 0; i < x.size(); ++i)
      y[i] = half(alpha * float(x[i]) + float(y[i]));
    return true;
  }
};

// InOut of float, updated in place, with a void compute().
class AccumulateVertex : public Vertex {
public:
  Input<Vector<float>> in;
  InOut<Vector<float>> acc;
  void compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      acc[i] += in[i];
  }
};

// A VectorList input: one sum per list element.
class ListSums : public Vertex {
public:
  Input<VectorList<float>> in;
  Output<Vector<float>> out;
  bool compute() {
    for (unsigned j = 0; j < in.size(); ++j) {
      float s = 0;
      for (auto v : in[j])
        s += v;
      out[j] = s;
    }
    return true;
  }
};

// A MultiVertex: worker w handles elements w, w + 6, ...
class MultiAdd : public MultiVertex {
public:
  Input<Vector<float>> a;
  Input<Vector<float>> b;
  Output<Vector<float>> out;
  bool compute(unsigned workerId) {
    for (unsigned i = workerId; i < a.size(); i += numWorkers())
      out[i] = a[i] + b[i];
    return true;
  }
};

// Scalar Input and InOut edges (not vectors).
class ScalarMulAdd : public Vertex {
public:
  Input<float> a;
  Input<float> b;
  InOut<float> acc;
  bool compute() {
    *acc += a * b;
    return true;
  }
};
