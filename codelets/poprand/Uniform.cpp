// Uniform and LogUniform: one tile's part of an output filled with uniform values on
// [min, max] (float, half, int) or values whose logarithm is uniform (logUniform).
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

#include "Generator.hpp"

using namespace poplar;

namespace poprand {

template <class T> constexpr bool isInt() { return __is_same(T, int); }
/// Uniform's parameters: float for float and half; for int the offset is an int and the scale an
/// unsigned count of values.
template <class T>
using UniformOffset = typename popops::device::Conditional<isInt<T>(), int, float>::type;
template <class T>
using UniformScale = typename popops::device::Conditional<isInt<T>(), unsigned, float>::type;

template <class T> class Uniform : public MultiVertex {
public:
  Output<Vector<T, VectorLayout::SPAN, 8>> out;
  InOut<Vector<unsigned, VectorLayout::ONE_PTR, 8>> state;
  /// float, half: out = offset + scale * u, u uniform on [0, 1). int: out = offset + bits % scale,
  /// where scale = max - min + 1 (0 for the whole 2^32 range: the bits themselves).
  UniformOffset<T> offset;
  UniformScale<T> scale;
  unsigned tile;

  void compute(unsigned wid) {
    auto r = popops::device::workerRange(wid, out.size(), sizeof(T));
    device::Worker g(&state[0], tile, wid);
    T *o = &out[0];
    for (unsigned i = r.begin; i < r.end; ++i) {
      if constexpr (isInt<T>()) {
        unsigned bits = g.next32();
        o[i] = offset + int(scale ? bits % scale : bits);
      } else {
        o[i] = offset + scale * g.unit();
      }
    }
    g.save();
  }
};

template <class T> class LogUniform : public MultiVertex {
public:
  Output<Vector<T, VectorLayout::SPAN, 8>> out;
  InOut<Vector<unsigned, VectorLayout::ONE_PTR, 8>> state;
  /// out = exp(logMin + logRange * u), rounded to the nearest integer for int, then clamped to
  /// [minVal, maxVal]: the range squeezed inward to values T represents.
  float logMin, logRange;
  float minVal, maxVal;
  unsigned tile;

  void compute(unsigned wid) {
    auto r = popops::device::workerRange(wid, out.size(), sizeof(T));
    device::Worker g(&state[0], tile, wid);
    T *o = &out[0];
    for (unsigned i = r.begin; i < r.end; ++i) {
      float x = __builtin_expf(logMin + logRange * g.unit());
      if constexpr (isInt<T>())
        x = __builtin_floorf(x + 0.5f);
      o[i] = __builtin_fminf(__builtin_fmaxf(x, minVal), maxVal);
    }
    g.save();
  }
};

} // namespace poprand

#define POPRAND_FAMILY_Uniform
#include "Instantiate.hpp"
