// Bernoulli and Dropout: one tile's part of an output set to 1 with a probability (bernoulli),
// or to the scaled input with a keep probability and 0 otherwise (dropout).
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

#include "Generator.hpp"

using namespace poplar;

namespace poprand {

template <class T> class Bernoulli : public MultiVertex {
public:
  Output<Vector<T, VectorLayout::SPAN, 8>> out;
  InOut<Vector<unsigned, VectorLayout::ONE_PTR, 8>> state;
  /// The probability in units of 2^-24: an element is 1 when 24 random bits are below it.
  unsigned threshold;
  unsigned tile;

  void compute(unsigned wid) {
    auto r = popops::device::workerRange(wid, out.size(), sizeof(T));
    device::Worker g(&state[0], tile, wid);
    T *o = &out[0];
    for (unsigned i = r.begin; i < r.end; ++i)
      o[i] = (g.next32() >> 8) < threshold ? T(1) : T(0);
    g.save();
  }
};

template <class T> class Dropout : public MultiVertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in;
  Output<Vector<T, VectorLayout::SPAN, 8>> out;
  InOut<Vector<unsigned, VectorLayout::ONE_PTR, 8>> state;
  float scale;
  /// The keep probability in units of 2^-24, as Bernoulli's threshold.
  unsigned threshold;
  unsigned tile;

  void compute(unsigned wid) {
    auto r = popops::device::workerRange(wid, out.size(), sizeof(T));
    device::Worker g(&state[0], tile, wid);
    const T *x = &in[0];
    T *o = &out[0];
    for (unsigned i = r.begin; i < r.end; ++i)
      o[i] = (g.next32() >> 8) < threshold ? T(scale * float(x[i])) : T(0);
    g.save();
  }
};

} // namespace poprand

#define POPRAND_FAMILY_Bernoulli
#include "Instantiate.hpp"
