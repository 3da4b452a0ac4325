// Arg max / arg min vertices, in two stages: a Gather MultiVertex finds, for each worker's
// chunk of a piece of one row, the best value and its column; a Sparse Vertex then picks the
// best of a row's candidates. Ties keep the lowest column (candidates arrive in column order).
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

using namespace poplar;

namespace popnn {

namespace device {

using popops::device::Compute;

template <bool isMax, class C> __attribute__((always_inline)) inline bool better(C a, C b) {
  return isMax ? a > b : a < b;
}

/// Worker wid's chunk [wid * workerSize, ...) of `size` activations starting at column `index`.
template <bool isMax, class In, class Label>
__attribute__((always_inline)) inline void gather(unsigned wid, const In *acts, Label index,
                                                  unsigned size, unsigned workerSize,
                                                  Compute<In> *value, Label *label) {
  unsigned begin = wid * workerSize;
  if (begin >= size)
    return;
  unsigned end = begin + workerSize < size ? begin + workerSize : size;
  Compute<In> best = acts[begin];
  unsigned bestAt = begin;
  for (unsigned i = begin + 1; i < end; ++i) {
    Compute<In> x = acts[i];
    if (better<isMax>(x, best)) {
      best = x;
      bestAt = i;
    }
  }
  value[wid] = best;
  label[wid] = index + bestAt;
}

template <bool isMax, class C, class Label>
__attribute__((always_inline)) inline void sparse(const C *values, const Label *labels, unsigned n,
                                                  C &value, Label &label) {
  C best = values[0];
  Label bestLabel = labels[0];
  for (unsigned i = 1; i < n; ++i) {
    if (better<isMax>(values[i], best)) {
      best = values[i];
      bestLabel = labels[i];
    }
  }
  value = best;
  label = bestLabel;
}

} // namespace device

// The candidates' values are in the compute type (float for half), so that each worker writes
// whole 32-bit words.
#define POPNN_CLASS_GATHER(Name, isMax)                                                            \
  template <class In, class Label> class Name : public MultiVertex {                               \
  public:                                                                                          \
    Input<Vector<In, VectorLayout::ONE_PTR, 8>> activations;                                       \
    Output<Vector<device::Compute<In>, VectorLayout::ONE_PTR, 4>> maxValue;                        \
    Output<Vector<Label, VectorLayout::ONE_PTR, 4>> maxIndex;                                      \
    const Label index;                                                                             \
    const unsigned size;                                                                           \
    const unsigned workerSize;                                                                     \
                                                                                                   \
    void compute(unsigned wid) {                                                                   \
      device::gather<isMax>(wid, &activations[0], index, size, workerSize, &maxValue[0],           \
                            &maxIndex[0]);                                                         \
    }                                                                                              \
  };

#define POPNN_CLASS_SPARSE(Name, isMax)                                                            \
  template <class In, class Label> class Name : public Vertex {                                    \
  public:                                                                                          \
    Input<Vector<device::Compute<In>, VectorLayout::SPAN, 4>> activations;                         \
    Input<Vector<Label, VectorLayout::ONE_PTR, 4>> labels;                                         \
    Output<device::Compute<In>> maxValue;                                                          \
    Output<Label> maxIndex;                                                                        \
                                                                                                   \
    bool compute() {                                                                               \
      device::sparse<isMax>(&activations[0], &labels[0], activations.size(), *maxValue,            \
                            *maxIndex);                                                            \
      return true;                                                                                 \
    }                                                                                              \
  };

POPNN_CLASS_GATHER(ReduceMaxClassGather, true)
POPNN_CLASS_GATHER(ReduceMinClassGather, false)
POPNN_CLASS_SPARSE(ReduceMaxClassSparse, true)
POPNN_CLASS_SPARSE(ReduceMinClassSparse, false)

} // namespace popnn

#define POPNN_FAMILY_ArgMax
#include "Instantiate.hpp"
