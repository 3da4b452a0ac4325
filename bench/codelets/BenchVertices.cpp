// Codelets timed by bench/codelets.cpp: compiled by popc for the interpreter and by the host
// compiler (included into the benchmark) from this one source.
#include <poplar/Vertex.hpp>

// tut3's vertex: a range-for sum written through the output on every element.
class SumVertex : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<float> out;

  bool compute() {
    *out = 0;
    for (const auto &v : in) {
      *out += v;
    }
    return true;
  }
};

// An indexed dot product accumulated in a local, as PopLibs' reduction codelets are written.
class DotProductVertex : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> a;
  poplar::Input<poplar::Vector<float>> b;
  poplar::Output<float> out;

  bool compute() {
    float acc = 0;
    for (unsigned i = 0; i < a.size(); ++i)
      acc += a[i] * b[i];
    *out = acc;
    return true;
  }
};

// An elementwise a*x+y over all six workers, each taking every sixth element.
class AxpyMultiVertex : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<float>> x;
  poplar::Input<poplar::Vector<float>> y;
  poplar::Output<poplar::Vector<float>> out;
  float a;

  bool compute(unsigned workerId) {
    for (unsigned i = workerId; i < out.size(); i += numWorkers())
      out[i] = a * x[i] + y[i];
    return true;
  }
};

// One increment per element: the tiny vertex whose compute sets bench/step_cost.cpp times, so
// that the executor's cost per step and per vertex dominates.
class AddOneVertex : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> data;

  bool compute() {
    for (unsigned i = 0; i < data.size(); ++i)
      data[i] += 1.0f;
    return true;
  }
};

// The short vector types: popc's (ext_vector_type) on the tile, GCC's vector_size on the host.
#ifndef __POPC__
typedef float float2 __attribute__((vector_size(8)));
typedef _Float16 half;
typedef half half4 __attribute__((vector_size(8)));
#endif

// out = a * x + y two floats at a time (f32v2mul, f32v2add); one operation per statement, so
// that neither build fuses the multiply-add.
class AxpyFloat2Vertex : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::SPAN, 8>> x;
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::ONE_PTR, 8>> y;
  poplar::Output<poplar::Vector<float, poplar::VectorLayout::ONE_PTR, 8>> out;
  float a;

  bool compute() {
    const float2 *x2 = reinterpret_cast<const float2 *>(&x[0]);
    const float2 *y2 = reinterpret_cast<const float2 *>(&y[0]);
    float2 *o2 = reinterpret_cast<float2 *>(&out[0]);
    const float2 av = {a, a};
    const unsigned n = x.size() / 2; // a vector store may alias the size field: read it once
    for (unsigned i = 0; i < n; ++i) {
      float2 p = av * x2[i];
      o2[i] = p + y2[i];
    }
    return true;
  }
};

// A 2-D transpose of a rows x cols block, one element per step, as PopLibs' Transpose2d walks
// its input.
class TransposeVertex : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  unsigned rows;
  unsigned cols;

  bool compute() {
    for (unsigned r = 0; r < rows; ++r)
      for (unsigned c = 0; c < cols; ++c)
        out[c * rows + r] = in[r * cols + c];
    return true;
  }
};

// The same four halves at a time (f16v4mul, f16v4add).
class AxpyHalf4Vertex : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<half, poplar::VectorLayout::SPAN, 8>> x;
  poplar::Input<poplar::Vector<half, poplar::VectorLayout::ONE_PTR, 8>> y;
  poplar::Output<poplar::Vector<half, poplar::VectorLayout::ONE_PTR, 8>> out;
  float a;

  bool compute() {
    const half4 *x4 = reinterpret_cast<const half4 *>(&x[0]);
    const half4 *y4 = reinterpret_cast<const half4 *>(&y[0]);
    half4 *o4 = reinterpret_cast<half4 *>(&out[0]);
    const half h = half(a);
    const half4 av = {h, h, h, h};
    const unsigned n = x.size() / 4;
    for (unsigned i = 0; i < n; ++i) {
      half4 p = av * x4[i];
      o4[i] = p + y4[i];
    }
    return true;
  }
};

// A fused three-operand map, out = (a + b) * c, shaped as popops::map's generated codelet:
// six workers, each over its own contiguous range.
class Map3Vertex : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<float>> a;
  poplar::Input<poplar::Vector<float>> b;
  poplar::Input<poplar::Vector<float>> c;
  poplar::Output<poplar::Vector<float>> out;

  bool compute(unsigned workerId) {
    const unsigned n = out.size(), workers = numWorkers();
    const unsigned begin = n * workerId / workers, end = n * (workerId + 1) / workers;
    for (unsigned i = begin; i < end; ++i)
      out[i] = (a[i] + b[i]) * c[i];
    return true;
  }
};
