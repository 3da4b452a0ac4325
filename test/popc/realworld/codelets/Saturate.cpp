// Clamping arithmetic as codelets write it (offsets clipped at zero, sums pinned at the type's
// limits), which LLVM's optimiser folds into saturating intrinsics the tile has no instruction
// for: unsigned and signed, 32 and 16 bits.
#include <climits>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T> T clampToRange(long long x) {
  return x > std::numeric_limits<T>::max()   ? std::numeric_limits<T>::max()
         : x < std::numeric_limits<T>::min() ? std::numeric_limits<T>::min()
                                             : T(x);
}

// out[4i..4i+3] = a - b clipped at 0, a + b pinned at the maximum, and the signed sum and
// difference of the same bits pinned at the signed limits.
template <typename U, typename S> class Saturate : public Vertex {
public:
  Input<Vector<U>> a;
  Input<Vector<U, VectorLayout::ONE_PTR>> b;
  Output<Vector<U, VectorLayout::ONE_PTR>> out;

  void compute() {
    for (unsigned i = 0; i < a.size(); ++i) {
      U x = a[i], y = b[i];
      out[4 * i] = x > y ? U(x - y) : U(0);
      U sum = U(x + y);
      out[4 * i + 1] = sum < x ? std::numeric_limits<U>::max() : sum;
      out[4 * i + 2] = U(clampToRange<S>((long long)S(x) + S(y)));
      out[4 * i + 3] = U(clampToRange<S>((long long)S(x) - S(y)));
    }
  }
};

template class Saturate<unsigned, int>;
template class Saturate<unsigned short, short>;
