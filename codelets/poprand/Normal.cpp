// Normal and TruncatedNormal: one tile's part of an output filled with normal values (the IPU's
// twelve-field approximation, Generator.hpp), optionally redrawn until within alpha deviations.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

#include "Generator.hpp"

using namespace poplar;

namespace poprand {

template <class T> class Normal : public MultiVertex {
public:
  Output<Vector<T, VectorLayout::SPAN, 8>> out;
  InOut<Vector<unsigned, VectorLayout::ONE_PTR, 8>> state;
  float mean, stdDev;
  unsigned tile;

  void compute(unsigned wid) {
    auto r = popops::device::workerRange(wid, out.size(), sizeof(T));
    device::Worker g(&state[0], tile, wid);
    T *o = &out[0];
    for (unsigned i = r.begin; i < r.end; ++i)
      o[i] = mean + stdDev * g.normal();
    g.save();
  }
};

template <class T> class TruncatedNormal : public MultiVertex {
public:
  Output<Vector<T, VectorLayout::SPAN, 8>> out;
  InOut<Vector<unsigned, VectorLayout::ONE_PTR, 8>> state;
  float mean, stdDev, alpha;
  /// Redraws allowed for a value outside [-alpha, alpha]; one still outside after them becomes a
  /// uniform value on [-alpha, alpha] (the host picks the count so that this is rare).
  unsigned iterations;
  unsigned tile;

  void compute(unsigned wid) {
    auto r = popops::device::workerRange(wid, out.size(), sizeof(T));
    device::Worker g(&state[0], tile, wid);
    T *o = &out[0];
    for (unsigned i = r.begin; i < r.end; ++i) {
      float x = g.normal();
      for (unsigned k = 0; k < iterations && __builtin_fabsf(x) > alpha; ++k)
        x = g.normal();
      if (__builtin_fabsf(x) > alpha)
        x = alpha * (2.0f * g.unit() - 1.0f);
      o[i] = mean + stdDev * x;
    }
    g.save();
  }
};

} // namespace poprand

#define POPRAND_FAMILY_Normal
#include "Instantiate.hpp"
