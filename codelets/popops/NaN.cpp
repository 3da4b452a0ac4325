// NaN / Inf checks (HasNaNOrInf1D, HasNaNOrInf2D): whether any element of a tile's regions is a
// NaN (nanOrInf false) or a NaN or an infinity (nanOrInf true), as a float 0 or 1 that
// popops::hasNaN folds over the tiles with a MAX reduction.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

using namespace poplar;

namespace popops {

namespace {

/// The test is on the bits, so half needs no conversion: with the sign cleared, an exponent of
/// all ones and a non-zero mantissa is a NaN; an exponent of all ones is a NaN or an infinity.
template <class T> struct FloatBits;
template <> struct FloatBits<float> {
  using type = unsigned;
  static constexpr unsigned magnitude = 0x7fffffffu, infinity = 0x7f800000u;
};
template <> struct FloatBits<half> {
  using type = unsigned short;
  static constexpr unsigned magnitude = 0x7fffu, infinity = 0x7c00u;
};

template <class T, bool nanOrInf>
__attribute__((always_inline)) inline bool anyNaNOrInf(const T *p, unsigned begin, unsigned end) {
  using B = FloatBits<T>;
  const typename B::type *bits = reinterpret_cast<const typename B::type *>(p);
  for (unsigned i = begin; i < end; ++i) {
    unsigned m = bits[i] & B::magnitude;
    if (nanOrInf ? m >= B::infinity : m > B::infinity)
      return true;
  }
  return false;
}

} // namespace

/// out[w] = 1 if worker w's share of `in` holds a NaN (or, with nanOrInf, an infinity), else 0;
/// one entry per worker, so no two workers write one word.
template <class T, bool nanOrInf> class HasNaNOrInf1D : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::SPAN, 8>> in;
  Output<Vector<float, VectorLayout::ONE_PTR>> out;

  void compute(unsigned wid) {
    auto r = device::workerRange(wid, in.size(), sizeof(T));
    out[wid] = anyNaNOrInf<T, nanOrInf>(&in[0], r.begin, r.end) ? 1.0f : 0.0f;
  }
};

/// out = 1 if any region of `in` holds a NaN (or, with nanOrInf, an infinity), else 0.
template <class T, bool nanOrInf> class HasNaNOrInf2D : public Vertex {
public:
  Vector<Input<Vector<T, VectorLayout::SPAN, 8>>> in;
  Output<float> out;

  bool compute() {
    bool found = false;
    for (unsigned r = 0; r < in.size() && !found; ++r)
      found = anyNaNOrInf<T, nanOrInf>(&in[r][0], 0, in[r].size());
    *out = found ? 1.0f : 0.0f;
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_NaN
#include "Instantiate.hpp"
