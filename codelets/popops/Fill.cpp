// Fill vertices: every element of one region (Fill) or of a list of regions (Fill2d) set to `in`.
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace popops {

template <class T> class Fill : public Vertex {
public:
  T in;
  Output<Vector<T, VectorLayout::SPAN, 8>> out;

  bool compute() {
    T *p = &out[0];
    for (unsigned i = 0; i < out.size(); ++i)
      p[i] = in;
    return true;
  }
};

template <class T> class Fill2d : public Vertex {
public:
  T in;
  Vector<Output<Vector<T, VectorLayout::SPAN, 8>>> out;

  bool compute() {
    for (unsigned r = 0; r < out.size(); ++r) {
      T *p = &out[r][0];
      unsigned n = out[r].size();
      for (unsigned i = 0; i < n; ++i)
        p[i] = in;
    }
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Fill
#include "Instantiate.hpp"
