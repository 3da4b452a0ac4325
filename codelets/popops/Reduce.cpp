// Reduction vertices: fold lists of partial regions into output regions with a ReduceOp (one
// type per popops::Operation), optionally scaling the result (Scaled*) and adding it to the
// output (isUpdate). Single-worker vertices: the host gives each of a tile's six workers its own.
#include <poplar/Vertex.hpp>
#include <popops/ElementwiseDevice.hpp>

#include "ReduceLanes.hpp"

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
  return hi + ::log1pf(__builtin_expf(lo - hi));
}

// The ReduceOps: init() is the identity, update() folds one more value in. A is the compute type
// of the partials (float for half). The ops with `lanes` also fold two float lanes at once
// (updateLanes: f32v2add / f32v2 fmuladd for ADD and SQUARE_ADD, lane by lane for MAX and MIN)
// and combine() merges two accumulators.
struct ReduceAdd {
  static constexpr bool lanes = true;
  template <class A> static POPOPS_INLINE A init() { return A(0); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return acc + x; }
  template <class A> static POPOPS_INLINE A combine(A a, A b) { return a + b; }
  static POPOPS_INLINE float2 updateLanes(float2 acc, float2 x) { return acc + x; }
};
struct ReduceSquareAdd {
  static constexpr bool lanes = true;
  template <class A> static POPOPS_INLINE A init() { return A(0); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return acc + x * x; }
  template <class A> static POPOPS_INLINE A combine(A a, A b) { return a + b; }
  static POPOPS_INLINE float2 updateLanes(float2 acc, float2 x) { return acc + x * x; }
};
struct ReduceMul {
  static constexpr bool lanes = false;
  template <class A> static POPOPS_INLINE A init() { return A(1); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return acc * x; }
};
struct ReduceMax {
  static constexpr bool lanes = true;
  template <class A> static POPOPS_INLINE A init() { return Limits<A>::lowest(); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return x > acc ? x : acc; }
  template <class A> static POPOPS_INLINE A combine(A a, A b) { return update(a, b); }
  static POPOPS_INLINE float2 updateLanes(float2 acc, float2 x) {
    return float2{update(acc.x, x.x), update(acc.y, x.y)};
  }
};
struct ReduceMin {
  static constexpr bool lanes = true;
  template <class A> static POPOPS_INLINE A init() { return Limits<A>::highest(); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return x < acc ? x : acc; }
  template <class A> static POPOPS_INLINE A combine(A a, A b) { return update(a, b); }
  static POPOPS_INLINE float2 updateLanes(float2 acc, float2 x) {
    return float2{update(acc.x, x.x), update(acc.y, x.y)};
  }
};
struct ReduceAnd {
  static constexpr bool lanes = false;
  template <class A> static POPOPS_INLINE A init() { return true; }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return acc && x; }
};
struct ReduceOr {
  static constexpr bool lanes = false;
  template <class A> static POPOPS_INLINE A init() { return false; }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return acc || x; }
};
struct ReduceLogAdd {
  static constexpr bool lanes = false;
  template <class A> static POPOPS_INLINE A init() { return -__builtin_inff(); }
  template <class A> static POPOPS_INLINE A update(A acc, A x) { return logAdd(acc, x); }
};

template <class T, bool isUpdate>
using ReduceOutput = typename device::Conditional<isUpdate, InOut<T>, Output<T>>::type;

// The vertices are thin: their loops are functions shared by every vertex of an (op, partials
// type) or (op, partials type, output type), with update and scale as run-time flags, so that
// the code each tile holds stays small.
#define POPOPS_SHARED __attribute__((noinline))

/// A vector field as the vertex state holds it (docs/gp-format.md): address and element count.
template <class T> struct Span {
  T *data;
  unsigned size;
};
template <class T, class Field> POPOPS_INLINE const Span<T> *spans(const Field *f) {
  static_assert(sizeof(Field) == sizeof(Span<T>), "a SPAN vector is an address and a count");
  return reinterpret_cast<const Span<T> *>(f);
}

enum StoreFlags : unsigned { kUpdate = 1, kScaled = 2 };

/// Outputs of a region folded at once, in registers: 8, or 1 for LOG_ADD, whose fold is a call
/// of its own.
template <class ReduceOp> constexpr unsigned blockOf() {
  return device::IsSame<ReduceOp, ReduceLogAdd>::value ? 1 : 8;
}

/// acc[0, N) = the fold of outputs [c, c + N) of a region `width` wide from partial regions
/// [first, end), each whole rows of `width` elements. The accumulators stay in registers.
template <class ReduceOp, class PartialsType, unsigned N>
POPOPS_SHARED void foldBlock(Compute<PartialsType> *acc, const Span<const PartialsType> *partials,
                             unsigned first, unsigned end, unsigned c, unsigned width) {
  using A = Compute<PartialsType>;
  A a[N];
  for (unsigned i = 0; i < N; ++i)
    a[i] = ReduceOp::template init<A>();
  for (unsigned p = first; p < end; ++p) {
    const PartialsType *row = partials[p].data + c;
    const PartialsType *last = partials[p].data + partials[p].size;
    for (; row < last; row += width)
      for (unsigned i = 0; i < N; ++i)
        a[i] = ReduceOp::update(a[i], A(row[i]));
  }
  for (unsigned i = 0; i < N; ++i)
    acc[i] = a[i];
}

/// acc folded with the n contiguous partials at src (in float lanes where the op has them).
template <class ReduceOp, class PartialsType>
POPOPS_SHARED Compute<PartialsType> foldRun(Compute<PartialsType> acc, const PartialsType *src,
                                            unsigned n) {
  using A = Compute<PartialsType>;
  // A short run costs the lanes' set-up and final combine more than they save.
  if constexpr (lanes::inLanes<ReduceOp, PartialsType>())
    if (n >= 8)
      return lanes::foldRun<ReduceOp>(acc, src, n);
  for (unsigned i = 0; i < n; ++i)
    acc = ReduceOp::update(acc, A(src[i]));
  return acc;
}

/// Stores n folded values to dst: scaled by k (LOG_ADD: k added, values being logarithms), then
/// added to what dst holds when updating (LOG_ADD: log-added).
template <class ReduceOp, class A, class OutType>
POPOPS_SHARED void storeResults(OutType *dst, const A *acc, unsigned n, unsigned flags, float k) {
  constexpr bool isLog = device::IsSame<ReduceOp, ReduceLogAdd>::value;
  if (flags == 0) {
    for (unsigned i = 0; i < n; ++i)
      dst[i] = Compute<OutType>(acc[i]);
    return;
  }
  for (unsigned i = 0; i < n; ++i) {
    Compute<OutType> r = Compute<OutType>(acc[i]);
    if constexpr (!device::IsSame<A, bool>::value) {
      if (flags & kScaled)
        r = Compute<OutType>(isLog ? float(acc[i]) + k : float(acc[i]) * k);
      if (flags & kUpdate) {
        Compute<OutType> old = Compute<OutType>(dst[i]);
        if constexpr (isLog)
          r = logAdd(old, r);
        else
          r = old + r;
      }
    }
    dst[i] = r;
  }
}

/// The whole blocks of outputs of a region `width` wide, in float lanes (ReduceLanes.hpp), stored
/// straight from the lanes unless scaled or updated; returns the outputs done. A function of its
/// own so that the loop over regions keeps few registers, and one per lanes::Rows case so that no
/// case's loop spills another's registers.
template <class ReduceOp, class PartialsType, class OutType, lanes::Rows rows, bool direct>
POPOPS_SHARED unsigned foldLaneBlocks(OutType *dst, const Span<const PartialsType> *partials,
                                      unsigned first, unsigned end, unsigned width, unsigned flags,
                                      float k) {
  constexpr unsigned block = blockOf<ReduceOp>();
  auto store = [&](unsigned at, const float2 *a) {
    if constexpr (direct) {
      lanes::storeAlignedBlock(dst + at, a);
    } else {
      if (flags == 0) {
        lanes::storeBlock(dst + at, a);
        return;
      }
      Compute<PartialsType> acc[block];
      for (unsigned i = 0; i < block / 2; ++i) {
        acc[2 * i] = a[i].x;
        acc[2 * i + 1] = a[i].y;
      }
      storeResults<ReduceOp>(dst + at, acc, block, flags, k);
    }
  };
  const unsigned blocks = width / block;
  if constexpr (rows == lanes::Rows::General)
    lanes::foldBlocks<ReduceOp, PartialsType>(partials, first, end, width, blocks, store);
  else
    lanes::foldSingleRowBlocks<ReduceOp, PartialsType, rows == lanes::Rows::SingleAligned>(
        partials, first, end, blocks, store);
  return blocks * block;
}

/// foldLaneBlocks for the lanes::Rows of the partial regions of a region of a block or more. A
/// function of its own so that reduceRegions keeps the registers (and the cycles) it had before
/// the cases.
template <class ReduceOp, class PartialsType, class OutType>
POPOPS_SHARED unsigned foldLanes(OutType *dst, const Span<const PartialsType> *partials,
                                 unsigned first, unsigned end, unsigned width, unsigned flags,
                                 float k) {
  using lanes::Rows;
  // Blocks start every 8 outputs: all are aligned when the first is. Deciding that once lets
  // each block store straight from the accumulators' registers, in a function whose loop needs
  // few registers, so saves few.
  const bool direct = flags == 0 && lanes::pairAligned(dst);
  switch (lanes::rowsOf<PartialsType>(partials, first, end, width)) {
  case Rows::SingleAligned:
    return direct ? foldLaneBlocks<ReduceOp, PartialsType, OutType, Rows::SingleAligned, true>(
                        dst, partials, first, end, width, flags, k)
                  : foldLaneBlocks<ReduceOp, PartialsType, OutType, Rows::SingleAligned, false>(
                        dst, partials, first, end, width, flags, k);
  case Rows::Single:
    return direct ? foldLaneBlocks<ReduceOp, PartialsType, OutType, Rows::Single, true>(
                        dst, partials, first, end, width, flags, k)
                  : foldLaneBlocks<ReduceOp, PartialsType, OutType, Rows::Single, false>(
                        dst, partials, first, end, width, flags, k);
  case Rows::General:
    break;
  }
  return direct ? foldLaneBlocks<ReduceOp, PartialsType, OutType, Rows::General, true>(
                      dst, partials, first, end, width, flags, k)
                : foldLaneBlocks<ReduceOp, PartialsType, OutType, Rows::General, false>(
                      dst, partials, first, end, width, flags, k);
}

/// Output region r (out[r], w elements) folds numPartials[r] consecutive regions of `partials`;
/// element j of a partial region goes to out[r][j % w] (each partial region holds whole rows of
/// w elements). A region with no partials gets the identity. One output folds its contiguous
/// partials in one run; wider regions go a block of outputs at a time.
template <class ReduceOp, class PartialsType, class OutType>
POPOPS_SHARED void
reduceRegions(const Span<OutType> *out, unsigned numOut, const unsigned short *numPartials,
              const Span<const PartialsType> *partials, unsigned flags, float k) {
  using A = Compute<PartialsType>;
  constexpr unsigned block = blockOf<ReduceOp>();
  unsigned first = 0;
  for (unsigned r = 0; r < numOut; ++r) {
    OutType *dst = out[r].data;
    const unsigned width = out[r].size;
    const unsigned end = first + numPartials[r];
    A acc[block];
    if (width == 1) {
      // One output: each partial region is a contiguous run of its partials.
      acc[0] = ReduceOp::template init<A>();
      for (unsigned p = first; p < end; ++p)
        acc[0] = foldRun<ReduceOp>(acc[0], partials[p].data, partials[p].size);
      storeResults<ReduceOp>(dst, acc, 1, flags, k);
    } else {
      unsigned c = 0;
      if constexpr (lanes::inLanes<ReduceOp, PartialsType>())
        if (width >= block)
          c = foldLanes<ReduceOp, PartialsType>(dst, partials, first, end, width, flags, k);
      while (c < width) {
        const unsigned n = width - c < block ? 1 : block;
        if (n == block)
          foldBlock<ReduceOp, PartialsType, block>(acc, partials, first, end, c, width);
        else
          foldBlock<ReduceOp, PartialsType, 1>(acc, partials, first, end, c, width);
        storeResults<ReduceOp>(dst + c, acc, n, flags, k);
        c += n;
      }
    }
    first = end;
  }
}

/// Output o folds partials [o * numPartials, (o + 1) * numPartials): every output's partials
/// are contiguous, in output order.
template <class ReduceOp, class PartialsType, class OutType>
POPOPS_SHARED void reduceContinuous(OutType *out, const PartialsType *partials, unsigned numOutputs,
                                    unsigned numPartials, unsigned flags, float k) {
  using A = Compute<PartialsType>;
  for (unsigned o = 0; o < numOutputs; ++o) {
    A acc = foldRun<ReduceOp>(ReduceOp::template init<A>(), partials, numPartials);
    partials += numPartials;
    storeResults<ReduceOp>(out + o, &acc, 1, flags, k);
  }
}

template <class ReduceOp, class PartialsType, class OutType, bool isUpdate>
class Reduce : public Vertex {
public:
  Vector<ReduceOutput<Vector<OutType>, isUpdate>> out;
  Input<Vector<unsigned short>> numPartials;
  Input<VectorList<PartialsType, VectorListLayout::DELTAN>> partials;

  bool compute() {
    reduceRegions<ReduceOp, PartialsType, OutType>(
        spans<OutType>(out.data()), out.size(), &numPartials[0],
        spans<const PartialsType>(partials.begin()), isUpdate ? kUpdate : 0, 1.0f);
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
    reduceRegions<ReduceOp, PartialsType, OutType>(
        spans<OutType>(out.data()), out.size(), &numPartials[0],
        spans<const PartialsType>(partials.begin()), (isUpdate ? kUpdate : 0) | kScaled, k[0]);
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
    reduceContinuous<ReduceOp>(&out[0], &partials[0], numOutputsM1 + 1, numPartials,
                               isUpdate ? kUpdate : 0, 1.0f);
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
    reduceContinuous<ReduceOp>(&out[0], &partials[0], numOutputsM1 + 1, numPartials,
                               (isUpdate ? kUpdate : 0) | kScaled, k[0]);
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Reduce
#include "Instantiate.hpp"
