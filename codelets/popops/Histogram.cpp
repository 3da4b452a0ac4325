// Histogram counts (Histogram): how many elements of a tile's regions fall in each interval
// between consecutive levels.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

using namespace poplar;

namespace popops {

using device::Compute;

/// out[k] = the number of elements x (|x| with absoluteOfInput) of the regions of `data` with
/// levels[k-1] <= x < levels[k], levels[-1] = -inf and levels[N] = +inf (out has N + 1 entries);
/// levels are in ascending order. A NaN is below no level, so it counts in out[N].
template <class T, class OutT> class Histogram : public Vertex {
public:
  Vector<Input<Vector<T>>> data;
  Input<Vector<T>> levels;
  Output<Vector<OutT, VectorLayout::ONE_PTR>> out;
  const bool absoluteOfInput;

  bool compute() {
    const unsigned n = levels.size();
    for (unsigned k = 0; k <= n; ++k)
      out[k] = OutT(0);
    for (unsigned r = 0; r < data.size(); ++r)
      for (unsigned i = 0; i < data[r].size(); ++i) {
        Compute<T> x = data[r][i];
        if (absoluteOfInput && x < 0)
          x = -x;
        // The first level above x, by bisection.
        unsigned lo = 0, hi = n;
        while (lo < hi) {
          unsigned mid = (lo + hi) / 2;
          if (x < Compute<T>(levels[mid]))
            hi = mid;
          else
            lo = mid + 1;
        }
        out[lo] = out[lo] + OutT(1);
      }
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Histogram
#include "Instantiate.hpp"
