// Vectors of edges in every outer x inner layout, as PopLibs' 2-D vertices declare them
// (BinaryOp2D: Vector<Input<Vector<T, ONE_PTR, 8>>, ONE_PTR>), and VectorLists in every layout:
// each vertex reads every element of every region. The vector of edges is the last field,
// where a wrong state size shows.
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

template <VectorListLayout Layout> class SumList : public Vertex {
public:
  Output<Vector<float>> sums;
  Input<VectorList<float, Layout>> regions;

  bool compute() {
    for (unsigned r = 0; r < regions.size(); ++r) {
      float s = 0;
      for (float x : regions[r])
        s += x;
      sums[r] = s;
    }
    return true;
  }
};

// One table of the layouts; a Vector of edges is instantiated for every (outer, inner) pair.
#define EVERY_LAYOUT(X)                                                                            \
  X(ONE_PTR) X(SCALED_PTR32) X(SCALED_PTR64) X(SCALED_PTR128) X(COMPACT_PTR) X(SHORT_SPAN) X(SPAN)
#define SUM_REGIONS(inner) template class SumRegions<OUTER, VectorLayout::inner>;
#define COUNT_REGIONS(outer) template class CountRegions<VectorLayout::outer>;
EVERY_LAYOUT(COUNT_REGIONS)
#define OUTER VectorLayout::ONE_PTR
EVERY_LAYOUT(SUM_REGIONS)
#undef OUTER
#define OUTER VectorLayout::SCALED_PTR32
EVERY_LAYOUT(SUM_REGIONS)
#undef OUTER
#define OUTER VectorLayout::SCALED_PTR64
EVERY_LAYOUT(SUM_REGIONS)
#undef OUTER
#define OUTER VectorLayout::SCALED_PTR128
EVERY_LAYOUT(SUM_REGIONS)
#undef OUTER
#define OUTER VectorLayout::COMPACT_PTR
EVERY_LAYOUT(SUM_REGIONS)
#undef OUTER
#define OUTER VectorLayout::SHORT_SPAN
EVERY_LAYOUT(SUM_REGIONS)
#undef OUTER
#define OUTER VectorLayout::SPAN
EVERY_LAYOUT(SUM_REGIONS)
#undef OUTER

template class SumList<VectorListLayout::ONE_PTR>;
template class SumList<VectorListLayout::SCALED_PTR32>;
template class SumList<VectorListLayout::SCALED_PTR64>;
template class SumList<VectorListLayout::SCALED_PTR128>;
template class SumList<VectorListLayout::DELTAN>;
template class SumList<VectorListLayout::DELTANELEMENTS>;
template class SumList<VectorListLayout::COMPACT_DELTAN>;
