// Autodiff: walks the forward graph's ops backwards from the provided gradients, applying each
// op's gradient rule (the op table) in a new graph and summing the gradients a tensor receives
// from several uses. Forward values a rule needs become inputs of the gradient graph and, when
// they were intermediates, outputs of the forward graph (PopXL's stitching).
#include <popxl/Autodiff.hpp>

#include "OpTable.hpp"

#include <poplar/HalfFloat.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <vector>

namespace popxl {

namespace {

class Builder : public internal::GradContext {
public:
  Builder(Ir &ir, GraphId forward) : ir_(ir), forward_(forward) {
    info_.forward = forward;
    info_.graph = ir.createGraph(ir.graph(forward).name + "_grad");
  }

  Ir &ir() override { return ir_; }

  std::optional<TensorId> outputGrad(const OpInfo &op, std::size_t i) override {
    auto it = grads_.find(op.outputs.at(i));
    if (it == grads_.end())
      return std::nullopt;
    return it->second;
  }

  TensorId fwd(TensorId t) override {
    auto it = values_.find(t);
    if (it != values_.end())
      return it->second;
    const TensorInfo &info = ir_.tensor(t);
    TensorId value;
    if (info.kind == TensorKind::Constant) {
      value = ir_.addConstant(info_.graph, info.name, info.spec, info.data);
    } else {
      const auto &outs = ir_.graph(forward_).outputs;
      if (info.kind == TensorKind::Intermediate &&
          std::find(outs.begin(), outs.end(), t) == outs.end())
        ir_.addGraphOutput(forward_, t); // stitch: expose the intermediate
      value = ir_.addGraphInput(info_.graph, info.name, info.spec);
      info_.expectedInputs.push_back({t, false});
    }
    values_[t] = value;
    return value;
  }

  bool wantsGrad(const OpInfo &op, std::size_t i) override {
    return wanted_.count(op.inputs.at(i)) != 0;
  }

  void addInputGrad(const OpInfo &op, std::size_t i, TensorId grad) override {
    if (!wantsGrad(op, i))
      return;
    const TensorId t = op.inputs.at(i);
    auto it = grads_.find(t);
    grads_[t] = it == grads_.end() ? grad : this->op("add", {it->second, grad});
  }

  TensorId op(const std::string &type, const std::vector<TensorId> &inputs,
              const Attributes &attrs = {}) override {
    return opOutputs(type, inputs, attrs).at(0);
  }

  std::vector<TensorId> opOutputs(const std::string &type, const std::vector<TensorId> &inputs,
                                  const Attributes &attrs = {}) override {
    return ir_.createOp(info_.graph, type, inputs, attrs, type + "_grad");
  }

  TensorId scalar(double value, DType dtype) override {
    std::vector<std::uint8_t> bytes(dtypeSize(dtype));
    const float f = float(value);
    if (dtype == DType::Float32) {
      std::memcpy(bytes.data(), &f, 4);
    } else if (dtype == DType::Float16) {
      const std::uint16_t h = poplar::floatToHalf(f);
      std::memcpy(bytes.data(), &h, 2);
    } else {
      throw error("popxl.autodiff: scalar constants of " + std::string(dtypeName(dtype)) +
                  " are not supported yet");
    }
    return ir_.addConstant(info_.graph, "scalar", {{}, dtype}, bytes);
  }

  GradGraphInfo build(std::vector<TensorId> provided, std::vector<TensorId> required) {
    const GraphInfo &fwdGraph = ir_.graph(forward_);
    if (provided.empty())
      provided = fwdGraph.outputs;
    if (required.empty())
      required = fwdGraph.inputs;
    for (TensorId t : provided) {
      const auto &info = ir_.tensor(t);
      if (info.graph != forward_)
        throw error("popxl.autodiff: grads_provided '" + info.name + "' is not in graph '" +
                    fwdGraph.name + "'");
      grads_[t] = ir_.addGraphInput(info_.graph, info.name + "_grad", info.spec);
      info_.expectedInputs.push_back({t, true});
    }
    // A tensor's gradient is needed when it is required or made by an op with an input whose
    // gradient is needed; ops with no such input are not differentiated.
    const std::vector<OpId> ops = fwdGraph.ops;
    auto anyInputWanted = [&](const OpInfo &op) {
      return std::any_of(op.inputs.begin(), op.inputs.end(),
                         [&](TensorId t) { return wanted_.count(t) != 0; });
    };
    wanted_.insert(required.begin(), required.end());
    for (OpId o : ops)
      if (anyInputWanted(ir_.op(o)))
        wanted_.insert(ir_.op(o).outputs.begin(), ir_.op(o).outputs.end());
    // Reverse creation order is a reverse topological order.
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      const OpInfo op = ir_.op(*it); // a copy: the rules add ops, which may move the table
      if (anyInputWanted(op))
        internal::opRow(op.type).grad(*this, op);
    }
    for (TensorId t : required) {
      const auto &info = ir_.tensor(t);
      if (info.graph != forward_)
        throw error("popxl.autodiff: grads_required '" + info.name + "' is not in graph '" +
                    fwdGraph.name + "'");
      auto g = grads_.find(t);
      TensorId grad;
      if (g != grads_.end()) {
        grad = g->second;
      } else { // nothing depends on it: a zero gradient
        std::vector<std::uint8_t> zeros(info.spec.numElements() * dtypeSize(info.spec.dtype));
        grad = ir_.addConstant(info_.graph, info.name + "_zero_grad", info.spec, zeros);
      }
      ir_.addGraphOutput(info_.graph, grad);
      info_.expectedOutputs.push_back({t, true});
    }
    return info_;
  }

private:
  Ir &ir_;
  GraphId forward_;
  GradGraphInfo info_;
  std::map<TensorId, TensorId> grads_;  // forward tensor -> its gradient (gradient graph)
  std::map<TensorId, TensorId> values_; // forward tensor -> its value (gradient graph)
  std::set<TensorId> wanted_;           // forward tensors whose gradient is needed
};

} // namespace

GradGraphInfo autodiff(Ir &ir, GraphId forward, std::vector<TensorId> gradsProvided,
                       std::vector<TensorId> gradsRequired) {
  if (forward == ir.mainGraph())
    throw error("popxl.autodiff: differentiate a graph made with create_graph, not the main "
                "graph");
  ir.graph(forward);
  return Builder(ir, forward).build(std::move(gradsProvided), std::move(gradsRequired));
}

} // namespace popxl
