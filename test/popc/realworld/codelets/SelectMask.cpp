// Masked selection with bool tensors: out = mask ? a : b per element over float, half and int,
// and the number of true mask elements into an unsigned scalar; a DELTANELEMENTS VectorList of
// bool masks for the counting vertex.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> class SelectByMask : public Vertex {
public:
  Input<Vector<bool>> mask;
  Input<Vector<T, VectorLayout::ONE_PTR>> a, b;
  Output<Vector<T, VectorLayout::ONE_PTR>> out;

  void compute() {
    for (unsigned i = 0; i < mask.size(); ++i)
      out[i] = mask[i] ? a[i] : b[i];
  }
};

template class SelectByMask<float>;
template class SelectByMask<half>;
template class SelectByMask<int>;

class CountTrue : public Vertex {
public:
  Input<VectorList<bool, VectorListLayout::DELTANELEMENTS>> masks;
  Output<unsigned> count;

  void compute() {
    unsigned n = 0;
    for (unsigned l = 0; l < masks.size(); ++l)
      for (bool m : masks[l])
        n += m;
    *count = n;
  }
};
