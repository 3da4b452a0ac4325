// A CSR sparse matrix times a dense vector (popsparse-style): row pointers and unsigned short
// column indices, float or half values, accumulated in float per row.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> class CsrMatVec : public Vertex {
public:
  Input<Vector<unsigned>> rowPtr; // numRows + 1 entries
  Input<Vector<unsigned short, VectorLayout::ONE_PTR>> columns;
  Input<Vector<T, VectorLayout::ONE_PTR>> values;
  Input<Vector<T, VectorLayout::ONE_PTR>> x;
  Output<Vector<float, VectorLayout::ONE_PTR>> y;

  void compute() {
    for (unsigned r = 0; r + 1 < rowPtr.size(); ++r) {
      float acc = 0;
      for (unsigned k = rowPtr[r]; k < rowPtr[r + 1]; ++k)
        acc += float(values[k]) * float(x[columns[k]]);
      y[r] = acc;
    }
  }
};

template class CsrMatVec<float>;
template class CsrMatVec<half>;
