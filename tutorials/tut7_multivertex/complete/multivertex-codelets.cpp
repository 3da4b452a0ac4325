// Tutorial 7 codelets: y = a * x + y written twice, as a Vertex (one worker does it all) and as a
// MultiVertex (the tile's six workers share it).
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
    // Worker w takes the contiguous elements [w * n / workers, (w + 1) * n / workers): the six
    // ranges cover the vector exactly once whatever its length, and no two workers write the
    // same element.
    const unsigned n = x.size();
    const unsigned begin = workerId * n / numWorkers();
    const unsigned end = (workerId + 1) * n / numWorkers();
    for (unsigned i = begin; i < end; ++i)
      y[i] = a * x[i] + y[i];
    return true;
  }
};
