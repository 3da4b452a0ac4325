// The double-precision kernels of DoubleKernels.hpp as vertices: popc computes them in software
// (the tile has no double unit), as Graphcore's compiler does.
#include "DoubleKernels.hpp"

#include <poplar/Vertex.hpp>

using namespace poplar;

class DoubleArithmetic : public Vertex {
public:
  Input<Vector<float>> a;
  Input<Vector<float, VectorLayout::ONE_PTR>> b;
  Input<Vector<int, VectorLayout::ONE_PTR>> k;
  Output<Vector<unsigned long long, VectorLayout::ONE_PTR>> out; // double bits
  Output<Vector<float, VectorLayout::ONE_PTR>> narrowed;
  Output<Vector<half, VectorLayout::ONE_PTR>> halves;
  Output<Vector<int, VectorLayout::ONE_PTR>> ints;
  Output<Vector<unsigned long long, VectorLayout::ONE_PTR>> longs;

  void compute() {
    doublek::Outputs o = {reinterpret_cast<double *>(&out[0]), &narrowed[0], &halves[0], &ints[0],
                          reinterpret_cast<std::uint64_t *>(&longs[0])};
    doublek::arithmetic(&a[0], &b[0], &k[0], a.size(), o);
  }
};

class DoubleAccumulate : public Vertex {
public:
  InOut<Vector<float>> data;
  Output<Vector<unsigned long long, VectorLayout::ONE_PTR>> sums; // double bits
  Output<unsigned> above;

  void compute() {
    doublek::accumulate(&data[0], data.size(), reinterpret_cast<double *>(&sums[0]), &*above);
  }
};
