// The layout pass (Layout.hpp) and the layout hooks of ops that pass their input through.
#include "Layout.hpp"

#include <poputil/TileMapping.hpp>

#include <set>

namespace popxl::internal {

poplar::Tensor noLayout(const LayoutContext &, const OpInfo &, std::size_t) { return {}; }

/// print_tensor's output is its input: the input takes the output's preference.
poplar::Tensor layoutPassThrough(const LayoutContext &c, const OpInfo &op, std::size_t i) {
  return i == 0 ? c.preferred(op.outputs.at(0)) : poplar::Tensor();
}

namespace {

/// One use of a tensor: input `index` of op `op`.
struct Use {
  OpId op;
  std::size_t index;
};

class LayoutPass {
public:
  LayoutPass(const Ir &ir, poplar::Graph &graph, poplin::PlanningCache &planCache,
             std::vector<poplar::Tensor> &tensors)
      : ir_(ir), graph_(graph), tensors_(tensors), uses_(ir.numTensors()),
        isPreferred_(ir.numTensors(), false), context_{ir, graph, planCache, [this](TensorId t) {
                                                         return preferred(t);
                                                       }} {
    for (GraphId g = 0; g < ir.numGraphs(); ++g)
      inlined_.push_back(isInlined(ir, g));
  }

  void run() {
    std::set<GraphId> reached;
    collectUses(ir_.mainGraph(), reached);
    for (TensorId t = 0; t < ir_.numTensors(); ++t) {
      const TensorInfo &info = ir_.tensor(t);
      if (isSource(t) && (info.kind != TensorKind::GraphInput || reached.count(info.graph)))
        preferred(t);
    }
  }

private:
  /// The uses of every tensor of `g` and of the graphs it calls, each tensor's in the order its
  /// graph's ops run.
  void collectUses(GraphId g, std::set<GraphId> &reached) {
    if (!reached.insert(g).second)
      return;
    for (OpId o : ir_.schedule(g)) {
      const OpInfo &op = ir_.op(o);
      for (std::size_t i = 0; i < op.inputs.size(); ++i)
        uses_.at(op.inputs[i]).push_back({o, i});
      if (op.calledGraphs.empty()) // a call's by-reference inputs take the graph's layout
        for (std::size_t i : opRow(op.type).effects(ir_, op).modifiedInputs)
          modifiedInPlace_.insert(op.inputs.at(i));
      for (GraphId called : op.calledGraphs)
        collectUses(called, reached);
    }
  }

  /// Whether `t` gets a Poplar tensor here: variables, constants and the inputs of graphs lowered
  /// as functions (an inlined graph's are the caller's tensors).
  bool isSource(TensorId t) const {
    const TensorInfo &info = ir_.tensor(t);
    return info.kind == TensorKind::Variable || info.kind == TensorKind::Constant ||
           (info.kind == TensorKind::GraphInput && !inlined_.at(info.graph));
  }

  /// The layout the uses of `t` prefer: the first use whose op has a preference for it. A source
  /// tensor is created here, once (in that layout, or linearly), and its tensor is what later
  /// questions about it get, so that a graph input and every call's clone of it agree.
  poplar::Tensor preferred(TensorId t) {
    if (isSource(t) && tensors_.at(t).valid())
      return isPreferred_[t] ? tensors_[t] : poplar::Tensor();
    // A graph whose input leads back to itself through calls: no preference (lowering reports
    // the recursion).
    if (!visiting_.insert(t).second)
      return {};
    poplar::Tensor result;
    for (const Use &use : uses_[t]) {
      const OpInfo &op = ir_.op(use.op);
      const LayoutFn layout = opRow(op.type).layout;
      // A tensor updated in place (an optimiser's variable) keeps a linear layout rather than
      // take a called graph's: an element-wise update over a matmul's blocks (few tiles, short
      // rows) costs more each step than the call's copy into the graph's layout.
      if (layout == &layoutCall && modifiedInPlace_.count(t))
        continue;
      result = layout(context_, op, use.index);
      if (!result.valid())
        continue;
      checkShape(t, op, result);
      // A layout on few tiles (a matmul's small left operand lives on the tiles of its first
      // output columns) would make every other op on the tensor run on those tiles; the op
      // gathers from a linear layout instead, which costs it little more.
      if (2 * tilesUsed(result) >= linearTiles(result))
        break;
      result = poplar::Tensor();
    }
    visiting_.erase(t);
    if (isSource(t)) {
      isPreferred_[t] = result.valid();
      tensors_[t] = result.valid() ? result : linear(t);
    }
    return result;
  }

  poplar::Tensor linear(TensorId t) {
    const TensorInfo &info = ir_.tensor(t);
    poplar::Tensor v =
        graph_.addVariable(poplarType(info.spec.dtype), poplarShape(info.spec.shape), info.name);
    poputil::mapTensorLinearly(graph_, v);
    return v;
  }

  std::size_t tilesUsed(const poplar::Tensor &t) const {
    std::size_t tiles = 0;
    for (const auto &intervals : graph_.getTileMapping(t))
      tiles += !intervals.empty();
    return tiles;
  }

  /// The tiles mapTensorLinearly would spread `like` over.
  std::size_t linearTiles(const poplar::Tensor &like) const {
    std::size_t tiles = 0;
    for (const auto &intervals : poputil::calcLinearTileMapping(graph_, like))
      tiles += !intervals.empty();
    return tiles;
  }

  /// A hook's tensor must stand for `t` exactly; a mismatch is a bug in the hook.
  void checkShape(TensorId t, const OpInfo &op, const poplar::Tensor &laid) const {
    const TensorSpec &spec = ir_.tensor(t).spec;
    if (laid.shape() == poplarShape(spec.shape) && laid.elementType() == poplarType(spec.dtype))
      return;
    const std::vector<std::int64_t> shape(laid.shape().begin(), laid.shape().end());
    opError(op, "internal error: the layout made for '" + ir_.tensor(t).name + "' " +
                    toString(spec) + " is " + shapeText(shape) + " of " +
                    laid.elementType().toString());
  }

  const Ir &ir_;
  poplar::Graph &graph_;
  std::vector<poplar::Tensor> &tensors_;
  std::vector<std::vector<Use>> uses_;
  std::vector<bool> isPreferred_;
  std::set<TensorId> visiting_;
  std::set<TensorId> modifiedInPlace_; // by an op of its graph other than a call
  std::vector<bool> inlined_;          // by GraphId: isInlined
  LayoutContext context_;
};

} // namespace

void createSourceTensors(const Ir &ir, poplar::Graph &graph, poplin::PlanningCache &planCache,
                         std::vector<poplar::Tensor> &tensors) {
  LayoutPass(ir, graph, planCache, tensors).run();
}

} // namespace popxl::internal
