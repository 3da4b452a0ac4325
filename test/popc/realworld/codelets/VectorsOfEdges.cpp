// Vectors of edges in every outer x inner layout, as PopLibs' 2-D vertices declare them
// (BinaryOp2D: Vector<Input<Vector<T, ONE_PTR, 8>>, ONE_PTR>): each vertex sums every element
// of every region. The vector of edges is the last field, where a wrong state size shows.
#include <poplar/Vertex.hpp>

using namespace poplar;

template <VectorLayout Outer, VectorLayout Inner> class SumRegions : public Vertex {
public:
  Input<Vector<unsigned>> sizes; // region sizes (ONE_PTR layouts keep none)
  Output<Vector<float>> sums;
  Vector<Input<Vector<float, Inner, 4>>, Outer> regions;

  bool compute() {
    for (unsigned r = 0; r < sizes.size(); ++r) {
      float s = 0;
      for (unsigned i = 0; i < sizes[r]; ++i)
        s += regions[r][i];
      sums[r] = s;
    }
    return true;
  }
};

// The sized layouts also check the counts the runtime stored.
template <VectorLayout Outer> class CountRegions : public Vertex {
public:
  Output<Vector<unsigned>> counts;
  Vector<InOut<Vector<float, VectorLayout::SPAN>>, Outer> regions;

  bool compute() {
    for (unsigned r = 0; r < counts.size(); ++r) {
      counts[r] = regions[r].size();
      for (float &x : regions[r])
        x = x * 2;
    }
    return true;
  }
};

template class SumRegions<VectorLayout::SPAN, VectorLayout::SPAN>;
template class SumRegions<VectorLayout::SPAN, VectorLayout::ONE_PTR>;
template class SumRegions<VectorLayout::SPAN, VectorLayout::COMPACT_PTR>;
template class SumRegions<VectorLayout::ONE_PTR, VectorLayout::SPAN>;
template class SumRegions<VectorLayout::ONE_PTR, VectorLayout::ONE_PTR>;
template class SumRegions<VectorLayout::ONE_PTR, VectorLayout::COMPACT_PTR>;
template class SumRegions<VectorLayout::COMPACT_PTR, VectorLayout::ONE_PTR>;
template class SumRegions<VectorLayout::SHORT_SPAN, VectorLayout::SCALED_PTR32>;
template class CountRegions<VectorLayout::SPAN>;
template class CountRegions<VectorLayout::ONE_PTR>;
