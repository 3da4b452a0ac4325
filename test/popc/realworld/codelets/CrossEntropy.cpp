// popnn-style softmax cross-entropy per row: probabilities from max-subtracted exponentials, the
// loss -log(max(p[label], tiny)) with tiny the type's smallest normal, and the gradient
// p - onehot(label); float and half activations, unsigned labels.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace poplar;

namespace popnn {

template <typename T> class SoftmaxCrossEntropy : public Vertex {
public:
  Input<Vector<T>> logits;
  Input<Vector<unsigned>> labels; // one per row
  Output<Vector<T, VectorLayout::ONE_PTR>> gradient;
  Output<Vector<float, VectorLayout::ONE_PTR>> loss;
  unsigned rowSize;

  void compute() {
    for (unsigned r = 0; r < labels.size(); ++r) {
      const T *row = &logits[r * rowSize];
      float m = float(*std::max_element(row, row + rowSize));
      float total = 0;
      for (unsigned i = 0; i < rowSize; ++i)
        total += std::exp(float(row[i]) - m);
      const float tiny = float(std::numeric_limits<T>::min());
      for (unsigned i = 0; i < rowSize; ++i) {
        float p = std::exp(float(row[i]) - m) / total;
        gradient[r * rowSize + i] = T(i == labels[r] ? p - 1.0f : p);
        if (i == labels[r])
          loss[r] = -std::log(std::max(p, tiny));
      }
    }
  }
};

template class SoftmaxCrossEntropy<float>;
template class SoftmaxCrossEntropy<half>;

} // namespace popnn
