// popnn-style ReduceMaxClassGather: per worker, std::max_element over a chunk of the
// activations, with std::distance for the index; worker 0 then needs no cross-worker step
// because each worker writes its own (max, index) pair.
#include <algorithm>
#include <iterator>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename FPType, typename LabelType> class ReduceMaxClassGather : public MultiVertex {
public:
  Input<Vector<FPType, VectorLayout::ONE_PTR>> activations;
  Output<Vector<float, VectorLayout::ONE_PTR>> maxValue;
  Output<Vector<LabelType, VectorLayout::ONE_PTR>> maxIndex;
  unsigned size;
  unsigned short workerSize;

  void compute(unsigned wid) {
    unsigned begin = std::min(size, wid * workerSize);
    unsigned end = std::min(size, begin + workerSize);
    if (begin == end) {
      maxValue[wid] = 0;
      maxIndex[wid] = LabelType(0);
      return;
    }
    const FPType *first = &activations[0] + begin;
    const FPType *best = std::max_element(first, &activations[0] + end);
    maxValue[wid] = float(*best);
    maxIndex[wid] = LabelType(begin + std::distance(first, best));
  }
};

template class ReduceMaxClassGather<float, unsigned>;
template class ReduceMaxClassGather<half, int>;
