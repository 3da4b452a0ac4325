// Fill vertices: every element of one region (Fill) or of a list of regions (Fill2d) set to `in`.
#include <poplar/Vertex.hpp>

#include "VectorLoops.hpp"

using namespace poplar;

namespace popops {

template <class T> class Fill : public Vertex {
public:
  T in;
  Output<Vector<T, VectorLayout::SPAN, 8>> out;

  bool compute() {
    vec::fill(&out[0], out.size(), in);
    return true;
  }
};

template <class T> class Fill2d : public Vertex {
public:
  T in;
  Vector<Output<Vector<T, VectorLayout::SPAN, 8>>> out;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r)
      vec::fill(&out[r][0], out[r].size(), in);
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Fill
#include "Instantiate.hpp"
