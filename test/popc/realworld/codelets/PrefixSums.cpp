// Prefix sums in two shapes: a SupervisorVertex over a whole vector (SupervisorVertexIf<true>,
// as PopLibs picks the supervisor form), and a MultiVertex where worker w scans chunk w of six
// and adds the totals of the chunks before it (each worker rescans those: no shared state).
#include <poplar/TileConstants.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> class InclusiveScan : public SupervisorVertexIf<true> {
public:
  InOut<Vector<T>> data;

  void compute() {
    T running = 0;
    for (T &x : data) {
      running += x;
      x = running;
    }
  }
};

template class InclusiveScan<int>;
template class InclusiveScan<float>;

class ChunkedScan : public MultiVertex {
public:
  Input<Vector<unsigned>> in;
  Output<Vector<unsigned, VectorLayout::ONE_PTR>> out;

  void compute(unsigned wid) {
    const unsigned n = in.size(), chunk = (n + CTXT_WORKERS - 1) / CTXT_WORKERS;
    const unsigned begin = wid * chunk < n ? wid * chunk : n;
    const unsigned end = begin + chunk < n ? begin + chunk : n;
    unsigned running = 0;
    for (unsigned i = 0; i < begin; ++i)
      running += in[i];
    for (unsigned i = begin; i < end; ++i) {
      running += in[i];
      out[i] = running;
    }
  }
};
