// poplin's matmul API: argument checks, the grouped view of every form, and the plan lookup;
// MatMulLowering builds the graph.
#include <poplin/MatMul.hpp>

#include "MatMulLowering.hpp"
#include "PlanningCache.hpp"

#include "support/Raise.hpp"

#include <popops/ScaledAdd.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

#include <ostream>

namespace poplin {

using namespace poplar;
using namespace poplar::program;
using internal::MatMulOperand;
using internal::MatMulProblem;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

void checkType(const std::string &api, const char *what, const Type &type) {
  if (type != FLOAT && type != HALF)
    raise<poputil::poplibs_error>(api, ": ", what, " type is ", type,
                                  "; matmuls take float or half");
}

/// The grouped problem of an [M,K] x [K,N] (grouped: [G,M,K] x [G,K,N]) product.
MatMulProblem problemOf(const std::string &api, bool grouped, const std::vector<size_t> &a,
                        const std::vector<size_t> &b, const Type &inputType,
                        const Type &outputType) {
  const size_t rank = grouped ? 3 : 2;
  if (a.size() != rank || b.size() != rank)
    raise<poputil::poplibs_error>(api, ": operands must have rank ", rank, " (",
                                  grouped ? "[G,M,K] and [G,K,N]" : "[M,K] and [K,N]", "), got A ",
                                  shapeText(a), " and B ", shapeText(b));
  const size_t off = grouped ? 1 : 0;
  if (a[off + 1] != b[off])
    raise<poputil::poplibs_error>(api, ": A ", shapeText(a), " has ", a[off + 1], " columns but B ",
                                  shapeText(b), " has ", b[off], " rows");
  if (grouped && a[0] != b[0])
    raise<poputil::poplibs_error>(api, ": A ", shapeText(a), " has ", a[0], " groups but B ",
                                  shapeText(b), " has ", b[0]);
  checkType(api, "input", inputType);
  checkType(api, "output", outputType);
  MatMulProblem p;
  p.groups = grouped ? unsigned(a[0]) : 1;
  p.m = unsigned(a[off]);
  p.k = unsigned(a[off + 1]);
  p.n = unsigned(b[off + 1]);
  p.inputType = inputType;
  p.outputType = outputType;
  if (p.groups == 0 || p.m == 0 || p.k == 0 || p.n == 0)
    raise<poputil::poplibs_error>(api, ": empty product of A ", shapeText(a), " and B ",
                                  shapeText(b));
  return p;
}

const internal::MatMulPlan &planFor(const Graph &graph, const std::string &api,
                                    const MatMulProblem &problem, const OptionFlags &options,
                                    PlanningCache *cache) {
  return internal::getMatMulPlan(graph.getTarget(), problem,
                                 internal::parseMatMulOptions(options, api), cache);
}

Tensor asGrouped(const Tensor &t, bool grouped) { return grouped ? t : t.expand({0}); }

/// out = A.B in grouped form (out created when null).
Tensor product(Graph &graph, const std::string &api, bool grouped, const Tensor &A, const Tensor &B,
               const Type &outputType, const Tensor *out, Sequence &prog,
               const DebugContext &debugContext, const OptionFlags &options, PlanningCache *cache) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(A, B, outputType), api);
  if (A.elementType() != B.elementType())
    raise<poputil::poplibs_error>(api, ": A is ", A.elementType(), " but B is ", B.elementType());
  const MatMulProblem problem =
      problemOf(api, grouped, A.shape(), B.shape(), A.elementType(), outputType);
  const auto &plan = planFor(graph, api, problem, options, cache);
  Tensor result;
  if (out) {
    const std::vector<size_t> want = grouped
                                         ? std::vector<size_t>{problem.groups, problem.m, problem.n}
                                         : std::vector<size_t>{problem.m, problem.n};
    if (out->shape() != want)
      raise<poputil::poplibs_error>(api, ": output shape ", shapeText(out->shape()), " should be ",
                                    shapeText(want));
    result = *out;
  } else {
    result = internal::createOperand(graph, plan, MatMulOperand::Output, outputType, {di});
    if (!grouped)
      result = result.squeeze({0});
  }
  internal::addMatMul(graph, plan, asGrouped(A, grouped), asGrouped(B, grouped),
                      asGrouped(result, grouped), prog, {di});
  di.addOutput(result);
  return result;
}

Tensor create(Graph &graph, const std::string &api, bool grouped, MatMulOperand which,
              const Type &inputType, const Type &outputType, const std::vector<size_t> &aShape,
              const std::vector<size_t> &bShape, const DebugContext &debugContext,
              const OptionFlags &options, PlanningCache *cache) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(inputType, outputType, aShape, bShape), api);
  const MatMulProblem problem = problemOf(api, grouped, aShape, bShape, inputType, outputType);
  const auto &plan = planFor(graph, api, problem, options, cache);
  Tensor t = internal::createOperand(graph, plan, which,
                                     which == MatMulOperand::Output ? outputType : inputType, {di});
  return grouped ? t : t.squeeze({0});
}

/// C += k.A.B, k a float or a one-element tensor (popops::scaledAddTo takes either).
template <class Scale>
void accumulate(Graph &graph, const std::string &api, bool grouped, const Tensor &C, const Scale &k,
                const Tensor &A, const Tensor &B, Sequence &prog, const DebugContext &debugContext,
                const OptionFlags &options, PlanningCache *cache) {
  Tensor p = product(graph, api, grouped, A, B, C.elementType(), nullptr, prog, debugContext,
                     options, cache);
  if (p.shape() != C.shape())
    raise<poputil::poplibs_error>(api, ": C ", shapeText(C.shape()), " should be ",
                                  shapeText(p.shape()));
  popops::scaledAddTo(graph, C, p, k, prog, debugContext);
}

} // namespace

Tensor matMul(Graph &graph, const Tensor &A, const Tensor &B, Sequence &prog,
              const Type &outputType, const DebugContext &debugContext, const OptionFlags &options,
              PlanningCache *cache) {
  return product(graph, "poplin::matMul", false, A, B, outputType, nullptr, prog, debugContext,
                 options, cache);
}

Tensor matMul(Graph &graph, const Tensor &A, const Tensor &B, Sequence &prog,
              const DebugContext &debugContext, const OptionFlags &options, PlanningCache *cache) {
  return matMul(graph, A, B, prog, A.elementType(), debugContext, options, cache);
}

void matMulWithOutput(Graph &graph, const Tensor &A, const Tensor &B, Tensor &out, Sequence &prog,
                      const DebugContext &debugContext, const OptionFlags &options,
                      PlanningCache *cache) {
  product(graph, "poplin::matMulWithOutput", false, A, B, out.elementType(), &out, prog,
          debugContext, options, cache);
}

Tensor matMulGrouped(Graph &graph, const Tensor &A, const Tensor &B, Sequence &prog,
                     const Type &outputType, const DebugContext &debugContext,
                     const OptionFlags &options, PlanningCache *cache) {
  return product(graph, "poplin::matMulGrouped", true, A, B, outputType, nullptr, prog,
                 debugContext, options, cache);
}

void matMulGroupedWithOutput(Graph &graph, const Tensor &A, const Tensor &B, Tensor &out,
                             Sequence &prog, const DebugContext &debugContext,
                             const OptionFlags &options, PlanningCache *cache) {
  product(graph, "poplin::matMulGroupedWithOutput", true, A, B, out.elementType(), &out, prog,
          debugContext, options, cache);
}

void matMulAcc(Graph &graph, const Tensor &C, float k, const Tensor &A, const Tensor &B,
               Sequence &prog, const DebugContext &debugContext, const OptionFlags &options,
               PlanningCache *cache) {
  accumulate(graph, "poplin::matMulAcc", false, C, k, A, B, prog, debugContext, options, cache);
}

void matMulAcc(Graph &graph, const Tensor &C, const Tensor &k, const Tensor &A, const Tensor &B,
               Sequence &prog, const DebugContext &debugContext, const OptionFlags &options,
               PlanningCache *cache) {
  accumulate(graph, "poplin::matMulAcc", false, C, k, A, B, prog, debugContext, options, cache);
}

void matMulGroupedAcc(Graph &graph, const Tensor &C, float k, const Tensor &A, const Tensor &B,
                      Sequence &prog, const DebugContext &debugContext, const OptionFlags &options,
                      PlanningCache *cache) {
  accumulate(graph, "poplin::matMulGroupedAcc", true, C, k, A, B, prog, debugContext, options,
             cache);
}

void matMulGroupedAcc(Graph &graph, const Tensor &C, const Tensor &k, const Tensor &A,
                      const Tensor &B, Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options, PlanningCache *cache) {
  accumulate(graph, "poplin::matMulGroupedAcc", true, C, k, A, B, prog, debugContext, options,
             cache);
}

#define POPLIN_CREATE(fn, grouped, which)                                                          \
  Tensor fn(Graph &graph, const Type &inputType, const Type &outputType,                           \
            const std::vector<size_t> &aShape, const std::vector<size_t> &bShape,                  \
            const DebugContext &debugContext, const OptionFlags &options, PlanningCache *cache) {  \
    return create(graph, "poplin::" #fn, grouped, MatMulOperand::which, inputType, outputType,     \
                  aShape, bShape, debugContext, options, cache);                                   \
  }
#define POPLIN_CREATE_ONE_TYPE(fn)                                                                 \
  Tensor fn(Graph &graph, const Type &dataType, const std::vector<size_t> &aShape,                 \
            const std::vector<size_t> &bShape, const DebugContext &debugContext,                   \
            const OptionFlags &options, PlanningCache *cache) {                                    \
    return fn(graph, dataType, dataType, aShape, bShape, debugContext, options, cache);            \
  }
POPLIN_CREATE(createMatMulInputLHS, false, LHS)
POPLIN_CREATE(createMatMulInputRHS, false, RHS)
POPLIN_CREATE(createMatMulOutput, false, Output)
POPLIN_CREATE(createMatMulGroupedInputLHS, true, LHS)
POPLIN_CREATE(createMatMulGroupedInputRHS, true, RHS)
POPLIN_CREATE(createMatMulGroupedOutput, true, Output)
POPLIN_CREATE_ONE_TYPE(createMatMulInputLHS)
POPLIN_CREATE_ONE_TYPE(createMatMulInputRHS)
POPLIN_CREATE_ONE_TYPE(createMatMulOutput)
#undef POPLIN_CREATE
#undef POPLIN_CREATE_ONE_TYPE

Tensor preArrangeMatMulInputRHS(Graph &graph, const std::vector<size_t> &aShape, const Tensor &B,
                                Sequence &, const Type &outputType, const DebugContext &,
                                const OptionFlags &options, PlanningCache *) {
  // The matmul reads B in any layout, so there is nothing to arrange; the checks still apply.
  problemOf("poplin::preArrangeMatMulInputRHS", aShape.size() == 3, aShape, B.shape(),
            B.elementType(), outputType);
  internal::parseMatMulOptions(options, "poplin::preArrangeMatMulInputRHS");
  (void)graph;
  return B;
}

Tensor preArrangeMatMulInputRHS(Graph &graph, const std::vector<size_t> &aShape, const Tensor &B,
                                Sequence &prog, const DebugContext &debugContext,
                                const OptionFlags &options, PlanningCache *cache) {
  return preArrangeMatMulInputRHS(graph, aShape, B, prog, B.elementType(), debugContext, options,
                                  cache);
}

Tensor transposeGroupedMatrix(const Tensor &A) {
  if (A.rank() != 3)
    raise<poputil::poplibs_error>("poplin::transposeGroupedMatrix: expected a [G,M,N] tensor, got ",
                                  shapeText(A.shape()));
  return A.dimShuffle({0, 2, 1});
}

static void reportPlan(std::ostream &out, const Graph &graph, bool grouped, const char *api,
                       const Type &inputType, const Type &outputType,
                       const std::vector<size_t> &aShape, const std::vector<size_t> &bShape,
                       const OptionFlags &options, PlanningCache *cache) {
  const auto problem = problemOf(api, grouped, aShape, bShape, inputType, outputType);
  internal::printPlan(out, planFor(graph, api, problem, options, cache),
                      graph.getTarget().getNumTiles());
}

void matMulReportPlan(std::ostream &out, const Graph &graph, const Type &inputType,
                      const Type &outputType, const std::vector<size_t> &aShape,
                      const std::vector<size_t> &bShape, const OptionFlags &options,
                      PlanningCache *cache) {
  reportPlan(out, graph, false, "poplin::matMulReportPlan", inputType, outputType, aShape, bShape,
             options, cache);
}

void matMulGroupedReportPlan(std::ostream &out, const Graph &graph, const Type &inputType,
                             const Type &outputType, const std::vector<size_t> &aShape,
                             const std::vector<size_t> &bShape, const OptionFlags &options,
                             PlanningCache *cache) {
  reportPlan(out, graph, true, "poplin::matMulGroupedReportPlan", inputType, outputType, aShape,
             bShape, options, cache);
}

bool operator<(const MatMulParams &a, const MatMulParams &b) {
  return std::tie(a.inputType, a.outputType, a.aShape, a.bShape) <
         std::tie(b.inputType, b.outputType, b.aShape, b.bShape);
}

void preplanMatMuls(const std::set<MatMulPlanParams> &matmuls, PlanningCache &cache) {
  for (const auto &[target, params, options] : matmuls) {
    const bool grouped = params.aShape.size() == 3;
    const auto problem = problemOf("poplin::preplanMatMuls", grouped, params.aShape, params.bShape,
                                   params.inputType, params.outputType);
    internal::getMatMulPlan(
        *target, problem,
        internal::parseMatMulOptions(options ? *options : OptionFlags{}, "poplin::preplanMatMuls"),
        &cache);
  }
}

void matmulValidateOptions(const OptionFlags &options) {
  internal::parseMatMulOptions(options, "poplin::matmulValidateOptions");
}

} // namespace poplin
