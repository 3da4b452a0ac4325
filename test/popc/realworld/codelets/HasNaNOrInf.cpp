// popops HasNaNOrInf1D<T, nanOrInf>: std::isnan / std::isinf over float and half, a bool result.
#include <cmath>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <typename T, bool nanOrInf> class HasNaNOrInf1D : public Vertex {
public:
  Input<Vector<T, VectorLayout::SPAN, 8>> in;
  Output<bool> out;

  bool compute() {
    bool found = false;
    for (T x : in)
      found |= nanOrInf ? !std::isfinite(x) : std::isnan(x);
    *out = found;
    return true;
  }
};

template class HasNaNOrInf1D<float, true>;
template class HasNaNOrInf1D<float, false>;
template class HasNaNOrInf1D<half, true>;
template class HasNaNOrInf1D<half, false>;
