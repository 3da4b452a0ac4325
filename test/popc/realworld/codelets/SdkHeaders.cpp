// A codelet written against the SDK's device headers, as PopLibs' are: TileConstants (the worker
// count and the worker id CSR), AvailableVTypes (layout aliases), StackSizeDefs, Loops
// (rptsize_t), ipu_builtins.h, <ipu_memory_intrinsics>, <ipu_vector_math>, half literals,
// SupervisorVertexIf, VectorList with every argument and [[poplar::constraint]].
#include <cstddef>
#include <ipu_builtins.h>
#include <ipu_memory_intrinsics>
#include <ipu_vector_math>
#include <poplar/AvailableVTypes.h>
#include <poplar/HalfFloat.hpp>
#include <poplar/Loops.hpp>
#include <poplar/StackSizeDefs.hpp>
#include <poplar/TileConstants.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

#if defined(VECTOR_AVAIL_SCALED_PTR32)
static constexpr auto PTR_ALIGN32 = VectorLayout::SCALED_PTR32;
#else
static constexpr auto PTR_ALIGN32 = VectorLayout::ONE_PTR;
#endif
#if defined(VECTORLIST_AVAIL_DELTAN)
static constexpr auto DELTAN_TYPE = VectorListLayout::DELTAN;
#else
static constexpr auto DELTAN_TYPE = VectorListLayout::COMPACT_DELTAN;
#endif

#define IS_EXTERNAL_CODELET(pred) static const bool isExternalCodelet = pred

static unsigned workerId() {
  return __builtin_ipu_get(CSR_W_WSR__INDEX) & CSR_W_WSR__CTXTID_M1__MASK;
}

// out[i] = sigmoid(in[i]) * scale, worker w taking the elements w, w + CTXT_WORKERS, ...
template <typename T>
class [[poplar::constraint("elem(*in) != elem(*out)")]] Sigmoid : public MultiVertex {
public:
  Input<Vector<T, PTR_ALIGN32, 4>> in;
  Output<Vector<T, VectorLayout::SPAN, 4>> out;
  const float scale;
  IS_EXTERNAL_CODELET(false);

  void compute(unsigned wid) {
    if (wid != workerId()) // both name the same worker
      return;
    const T *p = &in[wid];
    for (unsigned i = wid; i < out.size(); i += CTXT_WORKERS)
      out[i] = T(ipu::sigmoid(ipu::load_postinc(&p, CTXT_WORKERS)) * scale);
  }
};
template class Sigmoid<float>;
template class Sigmoid<half>;

// Sums each list of a VectorList with every template argument; a plain Vertex on this target.
template <typename T, bool useAsm> class ListSums : public SupervisorVertexIf<useAsm> {
public:
  Input<VectorList<T, DELTAN_TYPE, 8, false>> lists;
  Output<Vector<T>> sums;

  void compute() {
    for (rptsize_t l = 0; l < lists.size(); ++l) {
      T s = 0.0_h;
      for (std::size_t i = 0; i < lists[l].size(); ++i)
        s += lists[l][i];
      sums[l] = s + T(1.5_h) - T(1.5_h);
    }
  }
};
template class ListSums<float, false>;
template class ListSums<half, false>;
template class ListSums<float, true>;
