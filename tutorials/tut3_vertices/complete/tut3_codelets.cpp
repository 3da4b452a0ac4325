// Tutorial 3 codelet: a vertex that sums its input vector into one output.
#include <poplar/Vertex.hpp>

class SumVertex : public poplar::Vertex {
public:
  // Fields: an input vector (connected to a tensor slice) and one output element.
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<float> out;

  // compute() runs on the tile; returning true means success.
  bool compute() {
    *out = 0;
    for (const auto &v : in) {
      *out += v;
    }
    return true;
  }
};
