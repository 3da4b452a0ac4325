// poplin / popnn-style vertices: OuterProduct over a vector of ONE_PTR output regions,
// ReduceAdd over partials declared Vector<Input<Vector<P, ONE_PTR, 8>>, COMPACT_PTR, 4>,
// LossSumSquaredTransform with half and float, and a SupervisorVertex that zeroes memory.
#include <cstring>
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace poplin {

template <typename T> class OuterProduct : public Vertex {
public:
  Input<Vector<T>> in;
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> weights;
  Vector<Output<Vector<T, VectorLayout::ONE_PTR, 8>>> out;
  const unsigned chansPerGroup;

  bool compute() {
    for (unsigned g = 0; g < out.size(); ++g)
      for (unsigned i = 0; i < in.size(); ++i)
        for (unsigned c = 0; c < chansPerGroup; ++c)
          out[g][i * chansPerGroup + c] = in[i] * weights[g * chansPerGroup + c];
    return true;
  }
};
template class OuterProduct<float>;
template class OuterProduct<half>;

template <typename OutType, typename PartialsType> class ReduceAdd : public MultiVertex {
public:
  Vector<Input<Vector<PartialsType, VectorLayout::ONE_PTR, 8>>, VectorLayout::COMPACT_PTR, 4>
      partials;
  Output<Vector<OutType, VectorLayout::COMPACT_PTR, 8>> out;
  unsigned short numPartials;
  unsigned short numElems;

  void compute(unsigned wid) {
    for (unsigned e = wid; e < numElems; e += numWorkers()) {
      float sum = 0;
      for (unsigned p = 0; p < numPartials; ++p)
        sum += float(partials[p][e]);
      out[e] = OutType(sum);
    }
  }
};
template class ReduceAdd<float, float>;
template class ReduceAdd<half, float>;
template class ReduceAdd<half, half>;

class WorkerMemZero : public SupervisorVertex {
public:
  Output<Vector<int>> out;

  void compute() { std::memset(&out[0], 0, out.size() * sizeof(int)); }
};

} // namespace poplin

namespace popnn {

template <typename FPType> class LossSumSquaredTransform : public Vertex {
public:
  Input<Vector<FPType>> probs;
  Input<Vector<FPType, VectorLayout::ONE_PTR>> expected;
  Output<Vector<FPType, VectorLayout::ONE_PTR>> deltas;
  Output<Vector<FPType, VectorLayout::ONE_PTR>> transformed;
  Input<FPType> deltasScale;
  Input<FPType> modelOutputScaling;

  bool compute() {
    float scale = float(*deltasScale) / float(*modelOutputScaling);
    for (unsigned i = 0; i < probs.size(); ++i) {
      float delta = float(probs[i]) - float(expected[i]);
      deltas[i] = FPType(delta * scale);
      transformed[i] = FPType(0.5f * delta * delta);
    }
    return true;
  }
};
template class LossSumSquaredTransform<float>;
template class LossSumSquaredTransform<half>;

} // namespace popnn
