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
