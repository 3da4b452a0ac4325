// Softmax, its gradient and log-softmax over the innermost dimension: popops reductions (max in
// the input's type, sums in float so that long rows keep their precision) and fused maps.
#include "Softmax.hpp"

#include "Checks.hpp"

#include <popnn/LogSoftmax.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/Util.hpp>

namespace popnn {
namespace internal {

using namespace poplar;
using namespace poplar::program;
namespace pe = popops::expr;

Tensor reduceInnermost(Graph &graph, const Tensor &t, const Type &type, popops::Operation op,
                       Sequence &prog, const DebugContext &dc) {
  Tensor r = popops::reduce(graph, t, type, {t.rank() - 1}, popops::ReduceParams(op), prog, dc);
  return r.expand({r.rank()});
}

void softmaxInPlace(Graph &graph, const Tensor &t, bool stable, float scale, Sequence &prog,
                    const DebugContext &dc) {
  if (stable) {
    Tensor max =
        reduceInnermost(graph, t, t.elementType(), popops::Operation::MAX, prog, {dc, "max"});
    popops::mapInPlace(graph, pe::Exp(pe::Sub(pe::_1, pe::_2)), {t, max}, prog, {dc, "exp"});
  } else {
    popops::mapInPlace(graph, pe::UnaryOpType::EXPONENT, t, prog, {dc, "exp"});
  }
  Tensor sum = reduceInnermost(graph, t, FLOAT, popops::Operation::ADD, prog, {dc, "sum"});
  // One divide per row, then a multiply per element.
  Tensor factor =
      popops::map(graph, pe::Cast(pe::Divide(pe::Const(scale), pe::_1), t.elementType()), {sum},
                  prog, {dc, "factor"});
  popops::mapInPlace(graph, pe::Mul(pe::_1, pe::_2), {t, factor}, prog, {dc, "normalise"});
}

Tensor softmaxInputGradient(Graph &graph, const Tensor &out, const Tensor &outGrad, float scale,
                            Sequence &prog, const DebugContext &dc) {
  Tensor weighted = popops::map(graph, pe::Mul(pe::_1, pe::_2), {out, outGrad}, prog, {dc, "gy"});
  Tensor sum = reduceInnermost(graph, weighted, FLOAT, popops::Operation::ADD, prog, {dc, "sum"});
  auto grad = pe::Mul(pe::Cast(pe::_1, FLOAT),
                      pe::Sub(pe::Cast(pe::_2, FLOAT), pe::Mul(pe::_3, pe::Const(1.0f / scale))));
  return popops::map(graph, pe::Cast(grad, out.elementType()), {out, outGrad, sum}, prog,
                     {dc, "grad"});
}

} // namespace internal

using namespace poplar;
using namespace poplar::program;
namespace pe = popops::expr;

void logSoftmaxInPlace(Graph &graph, Tensor t, Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t));
  const std::string api = "popnn::logSoftmaxInPlace";
  internal::checkFloatingPoint(api, "t", t);
  internal::checkMinRank(api, "t", t, 1);
  Tensor max = internal::reduceInnermost(graph, t, t.elementType(), popops::Operation::MAX, prog,
                                         {di, "max"});
  popops::mapInPlace(graph, pe::Sub(pe::_1, pe::_2), {t, max}, prog, {di, "shift"});
  Tensor exps = popops::map(graph, pe::Exp(pe::_1), {t}, prog, {di, "exp"});
  Tensor sum =
      internal::reduceInnermost(graph, exps, FLOAT, popops::Operation::ADD, prog, {di, "sum"});
  popops::mapInPlace(graph, pe::Sub(pe::_1, pe::Cast(pe::Log(pe::_2), t.elementType())), {t, sum},
                     prog, {di, "log"});
}

Tensor logSoftmax(Graph &graph, Tensor t, Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t));
  internal::checkFloatingPoint("popnn::logSoftmax", "t", t);
  Tensor out = poputil::duplicate(graph, t, prog, {di, "out"});
  logSoftmaxInPlace(graph, out, prog, {di});
  di.addOutput(out);
  return out;
}

} // namespace popnn
