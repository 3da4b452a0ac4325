// Reduction vertices: fold lists of partial regions into output regions with a ReduceOp (one
// type per popops::Operation), optionally scaling the result (Scaled*) and adding it to the
// output (isUpdate). Single-worker vertices: the host gives each of a tile's six workers its own.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

using namespace poplar;

namespace popops {

using device::Compute;

#define POPOPS_INLINE __attribute__((always_inline)) inline

/// The identities of MIN and MAX, per compute type.
template <class T> struct Limits;
template <> struct Limits<float> {
  static POPOPS_INLINE float lowest() { return -__builtin_inff(); }
  static POPOPS_INLINE float highest() { return __builtin_inff(); }
};
template <> struct Limits<int> {
  static POPOPS_INLINE int lowest() { return -2147483647 - 1; }
  static POPOPS_INLINE int highest() { return 2147483647; }
};
template <> struct Limits<unsigned> {
  static POPOPS_INLINE unsigned lowest() { return 0u; }
  static POPOPS_INLINE unsigned highest() { return 0xffffffffu; }
};

/// log(exp(a) + exp(b)), exact when either is -inf (log 0).
POPOPS_INLINE float logAdd(float a, float b) {
  float hi = a > b ? a : b, lo = a > b ? b : a;
  if (lo == -__builtin_inff())
    return hi;
  return hi + device::log1pf(__builtin_expf(lo - hi));
}

// The ReduceOps: init() is the identity, update() folds one more value in. A is the compute
// type of the partials (float for half).
struct ReduceAdd {
  template <class A> static POPOPS_INLINE A init() { return A(0); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return acc + x; }
};
struct ReduceSquareAdd {
  template <class A> static POPOPS_INLINE A init() { return A(0); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return acc + x * x; }
};
struct ReduceMul {
  template <class A> static POPOPS_INLINE A init() { return A(1); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return acc * x; }
};
struct ReduceMax {
  template <class A> static POPOPS_INLINE A init() { return Limits<A>::lowest(); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return x > acc ? x : acc; }
};
struct ReduceMin {
  template <class A> static POPOPS_INLINE A init() { return Limits<A>::highest(); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return x < acc ? x : acc; }
};
struct ReduceAnd {
  template <class A> static POPOPS_INLINE A init() { return true; }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return acc && x; }
};
struct ReduceOr {
  template <class A> static POPOPS_INLINE A init() { return false; }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return acc || x; }
};
struct ReduceLogAdd {
  template <class A> static POPOPS_INLINE A init() { return -__builtin_inff(); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return logAdd(acc, x); }
};

template <class T, bool isUpdate>
using ReduceOutput = typename device::Conditional<isUpdate, InOut<T>, Output<T>>::type;

/// Stores the folded value `acc` into *dst: scaled by k (LOG_ADD: k added, values being
/// logarithms), then added to what *dst holds when updating (LOG_ADD: log-added).
template <class ReduceOp, class OutType, bool isUpdate, bool scaled, class A>
POPOPS_INLINE void store(OutType *dst, A acc, float k) {
  constexpr bool isLog = device::IsSame<ReduceOp, ReduceLogAdd>::value;
  Compute<OutType> r;
  if constexpr (scaled)
    r = Compute<OutType>(isLog ? float(acc) + k : float(acc) * k);
  else
    r = Compute<OutType>(acc);
  if constexpr (isUpdate) {
    Compute<OutType> old = Compute<OutType>(*dst);
    if constexpr (isLog)
      r = logAdd(old, r);
    else
      r = old + r;
  }
  *dst = r;
}

/// Output region r (out[r], w elements) folds numPartials[r] consecutive regions of `partials`;
/// element j of a partial region goes to out[r][j % w] (each partial region holds whole rows of
/// w elements). A region with no partials gets the identity. Rows are folded a chunk of columns
/// at a time into accumulators on the stack, so the inner loop walks contiguous elements.
template <class ReduceOp, class PartialsType, class OutType, bool isUpdate, bool scaled, class Out,
          class Counts, class Partials>
POPOPS_INLINE void reduceRegions(Out &out, const Counts &numPartials, const Partials &partials,
                                 float k) {
  using A = Compute<PartialsType>;
  constexpr unsigned chunk = 16;
  unsigned first = 0;
  for (unsigned r = 0; r < out.size(); ++r) {
    OutType *dst = &out[r][0];
    const unsigned width = out[r].size();
    const unsigned end = first + numPartials[r];
    if (width == 1) {
      A acc = ReduceOp::template init<A>();
      for (unsigned p = first; p < end; ++p) {
        const PartialsType *src = &partials[p][0];
        const unsigned len = partials[p].size();
        for (unsigned i = 0; i < len; ++i)
          acc = ReduceOp::update(acc, A(src[i]));
      }
      store<ReduceOp, OutType, isUpdate, scaled>(dst, acc, k);
    } else {
      for (unsigned c = 0; c < width; c += chunk) {
        const unsigned n = width - c < chunk ? width - c : chunk;
        A acc[chunk];
        for (unsigned i = 0; i < n; ++i)
          acc[i] = ReduceOp::template init<A>();
        for (unsigned p = first; p < end; ++p) {
          const PartialsType *row = &partials[p][0];
          const PartialsType *last = row + partials[p].size();
          for (row += c; row < last; row += width)
            for (unsigned i = 0; i < n; ++i)
              acc[i] = ReduceOp::update(acc[i], A(row[i]));
        }
        for (unsigned i = 0; i < n; ++i)
          store<ReduceOp, OutType, isUpdate, scaled>(dst + c + i, acc[i], k);
      }
    }
    first = end;
  }
}

/// Output o folds partials [o * numPartials, (o + 1) * numPartials): every output's partials
/// are contiguous, in output order.
template <class ReduceOp, class PartialsType, class OutType, bool isUpdate, bool scaled>
POPOPS_INLINE void reduceContinuous(OutType *out, const PartialsType *partials, unsigned numOutputs,
                                    unsigned numPartials, float k) {
  using A = Compute<PartialsType>;
  for (unsigned o = 0; o < numOutputs; ++o) {
    A acc = ReduceOp::template init<A>();
    for (unsigned p = 0; p < numPartials; ++p)
      acc = ReduceOp::update(acc, A(partials[p]));
    partials += numPartials;
    store<ReduceOp, OutType, isUpdate, scaled>(out + o, acc, k);
  }
}

template <class ReduceOp, class PartialsType, class OutType, bool isUpdate>
class Reduce : public Vertex {
public:
  Vector<ReduceOutput<Vector<OutType>, isUpdate>> out;
  Input<Vector<unsigned short>> numPartials;
  Input<VectorList<PartialsType, VectorListLayout::DELTAN>> partials;

  bool compute() {
    reduceRegions<ReduceOp, PartialsType, OutType, isUpdate, false>(out, numPartials, partials,
                                                                    1.0f);
    return true;
  }
};

template <class ReduceOp, class PartialsType, class OutType, bool isUpdate>
class ScaledReduce : public Vertex {
public:
  Vector<ReduceOutput<Vector<OutType>, isUpdate>> out;
  Input<Vector<unsigned short>> numPartials;
  Input<VectorList<PartialsType, VectorListLayout::DELTAN>> partials;
  Input<Vector<float, VectorLayout::ONE_PTR>> k;

  bool compute() {
    reduceRegions<ReduceOp, PartialsType, OutType, isUpdate, true>(out, numPartials, partials,
                                                                   k[0]);
    return true;
  }
};

template <class ReduceOp, class PartialsType, class OutType, bool isUpdate>
class ContinuousReduce : public Vertex {
public:
  Input<Vector<PartialsType, VectorLayout::ONE_PTR>> partials;
  ReduceOutput<Vector<OutType, VectorLayout::ONE_PTR>, isUpdate> out;
  unsigned numOutputsM1;
  unsigned numPartials;

  bool compute() {
    reduceContinuous<ReduceOp, PartialsType, OutType, isUpdate, false>(
        &out[0], &partials[0], numOutputsM1 + 1, numPartials, 1.0f);
    return true;
  }
};

template <class ReduceOp, class PartialsType, class OutType, bool isUpdate>
class ScaledContinuousReduce : public Vertex {
public:
  Input<Vector<PartialsType, VectorLayout::ONE_PTR>> partials;
  ReduceOutput<Vector<OutType, VectorLayout::ONE_PTR>, isUpdate> out;
  unsigned numOutputsM1;
  unsigned numPartials;
  Input<Vector<float, VectorLayout::ONE_PTR>> k;

  bool compute() {
    reduceContinuous<ReduceOp, PartialsType, OutType, isUpdate, true>(
        &out[0], &partials[0], numOutputsM1 + 1, numPartials, k[0]);
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Reduce
#include "Instantiate.hpp"
