// 64-bit integers as real codelets use them: poprand's xoroshiro128+ generator (uint64_t
// state, rotates, shifts, xors, adds), 64-bit accumulation over int, unsigned and long long
// elements with min/max/llabs, run-time shifts and compares, division and bit counts, conversions
// to and from float, and an 8-byte struct copied by value (which LLVM moves as one i64).
#include "Int64Kernels.hpp"

#include <poplar/Vertex.hpp>

using namespace poplar;

class Xoroshiro : public Vertex {
public:
  Input<Vector<unsigned>> seed;
  Output<Vector<unsigned>> out;

  bool compute() {
    int64k::draw(&seed[0], &out[0], out.size() / 2);
    return true;
  }
};

template <typename T> class Accumulate64 : public Vertex {
public:
  Input<Vector<T>> in;
  Output<Vector<long long, VectorLayout::ONE_PTR>> out;

  bool compute() {
    int64k::accumulate(&in[0], in.size(), &out[0]);
    return true;
  }
};
template class Accumulate64<int>;
template class Accumulate64<long long>;
template class Accumulate64<unsigned>;

class Shifts64 : public Vertex {
public:
  Input<Vector<long long>> in;
  Input<Vector<unsigned, VectorLayout::ONE_PTR>> amounts;
  Output<Vector<long long, VectorLayout::ONE_PTR>> out;

  bool compute() {
    int64k::shifts(&in[0], &amounts[0], in.size(), &out[0]);
    return true;
  }
};

class Divide64 : public Vertex {
public:
  Input<Vector<long long>> num;
  Input<Vector<long long, VectorLayout::ONE_PTR>> den;
  Output<Vector<long long, VectorLayout::ONE_PTR>> out;

  bool compute() {
    int64k::divide(&num[0], &den[0], num.size(), &out[0]);
    return true;
  }
};

class Convert64 : public Vertex {
public:
  Input<Vector<long long>> in;
  Input<Vector<float, VectorLayout::ONE_PTR>> floats;
  Output<Vector<float, VectorLayout::ONE_PTR>> toFloat;
  Output<Vector<long long, VectorLayout::ONE_PTR>> toInt;

  bool compute() {
    int64k::convert(&in[0], &floats[0], in.size(), &toFloat[0], &toInt[0]);
    return true;
  }
};

class BitFields64 : public Vertex {
public:
  Input<Vector<long long>> in;
  Output<Vector<long long, VectorLayout::ONE_PTR>> out;

  void compute() { int64k::bitfields(&in[0], in.size(), &out[0]); }
};

struct Complex {
  float re, im;
};
class ComplexReverse : public Vertex {
public:
  InOut<Vector<float, VectorLayout::SPAN, 8>> pairs; // re, im, re, im, ...

  bool compute() {
    Complex *c = reinterpret_cast<Complex *>(&pairs[0]);
    unsigned n = pairs.size() / 2;
    for (unsigned i = 0; i < n / 2; ++i) {
      Complex t = c[i];
      c[i] = c[n - 1 - i];
      c[n - 1 - i] = t;
    }
    return true;
  }
};
