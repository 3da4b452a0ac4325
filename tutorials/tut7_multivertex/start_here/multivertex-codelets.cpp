// Tutorial 7 codelets (start here): AxpyVertex is done; give each worker of AxpyMultiVertex its
// share of the vector (see README).
#include <poplar/Vertex.hpp>

using namespace poplar;

// A Vertex's compute() runs once, in one of the tile's worker contexts.
class AxpyVertex : public Vertex {
public:
  Input<Vector<float>> x;
  InOut<Vector<float>> y;
  // A plain member is not connected to a tensor: the host sets it with setInitialValue.
  float a;

  bool compute() {
    for (unsigned i = 0; i < x.size(); ++i)
      y[i] = a * x[i] + y[i];
    return true;
  }
};

// A MultiVertex's compute(workerId) runs once in each worker context of its tile, all at the
// same time; workerId, from 0 to numWorkers() - 1, tells the copies apart.
class AxpyMultiVertex : public MultiVertex {
public:
  Input<Vector<float>> x;
  InOut<Vector<float>> y;
  float a;

  bool compute(unsigned workerId) {
    // TODO: worker w must update its own contiguous range [begin, end) of the vector, so
    // that the six ranges cover it exactly once. As it stands no worker does anything.
    const unsigned begin = 0;
    const unsigned end = 0;
    for (unsigned i = begin; i < end; ++i)
      y[i] = a * x[i] + y[i];
    return true;
  }
};
