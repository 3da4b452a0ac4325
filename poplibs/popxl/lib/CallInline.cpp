// A call of a graph that nothing else calls, lowered inline: the graph's ops go into the caller's
// program on the caller's tensors, with no Poplar function and no copies in or out (an outlined
// graph's code is shared by its calls; one called once has nothing to share, and each step would
// pay for copying every weight into it and every result out of it). Its inputs have no Poplar
// tensors of their own (the layout pass makes none: Layout.cpp): the caller's are bound to them.
// Copies remain only where sharing the caller's memory would change what the program computes.
#include "AliasClasses.hpp"
#include "OpTable.hpp"

#include <set>

namespace popxl::internal {

/// Nothing else shares the graph: exactly one op calls it, a `call` (a `repeat` runs it in a loop
/// of its own, a `conditional` in an arm of its own).
bool isInlined(const Ir &ir, GraphId g) {
  std::size_t calls = 0;
  for (GraphId h = 0; h < ir.numGraphs(); ++h)
    for (OpId o : ir.graph(h).ops) {
      const OpInfo &op = ir.op(o);
      for (GraphId called : op.calledGraphs)
        if (called == g) {
          if (op.type != "call")
            return false;
          ++calls;
        }
    }
  return calls == 1;
}

namespace {

/// For each input of `g`: whether an op of `g` writes it in place, directly or through a view.
std::vector<bool> inputsWritten(const Ir &ir, GraphId g) {
  // An op's output 0 shares its input 0 when the op is a view or writes that input in place.
  AliasClasses aliases;
  std::vector<TensorId> written;
  for (OpId o : ir.graph(g).ops) {
    const OpInfo &op = ir.op(o);
    const Effects e = opRow(op.type).effects(ir, op);
    for (std::size_t i : e.modifiedInputs)
      written.push_back(op.inputs.at(i));
    const bool writesInput0 = !e.modifiedInputs.empty() && e.modifiedInputs[0] == 0;
    if ((e.outputAliasesInput || writesInput0) && !op.outputs.empty() && !op.inputs.empty())
      aliases.join(op.outputs[0], op.inputs[0]);
  }
  std::set<TensorId> writtenRoots;
  for (TensorId t : written)
    writtenRoots.insert(aliases.root(t));
  std::vector<bool> result;
  for (TensorId t : ir.graph(g).inputs)
    result.push_back(writtenRoots.count(aliases.root(t)) != 0);
  return result;
}

bool intersectsAny(const poplar::Tensor &t, const std::vector<poplar::Tensor> &others) {
  for (const poplar::Tensor &other : others)
    if (t.intersectsWith(other))
      return true;
  return false;
}

} // namespace

bool lowerCallInline(const LowerContext &c, const OpInfo &op) {
  const GraphId g = op.calledGraphs.at(0);
  if (!isInlined(c.ir, g))
    return false;
  const GraphInfo &called = c.ir.graph(g);
  const std::vector<bool> written = inputsWritten(c.ir, g);
  // An input passed by reference is written through to the caller's tensor, which is what
  // passing by reference does, unless the same memory is also passed at another input: that one
  // would see the writes. Decided before anything is added to the program.
  for (std::size_t i = 0; i < op.inputs.size(); ++i)
    if (called.inputByRef[i] && written[i])
      for (std::size_t j = 0; j < op.inputs.size(); ++j)
        if (j != i && c.in(op, i).intersectsWith(c.in(op, j)))
          return false;
  std::vector<poplar::Tensor> bound;
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const poplar::Tensor arg = c.in(op, i);
    if (written[i] && !called.inputByRef[i]) {
      // By value: the graph's writes must not reach the caller's tensor.
      poplar::Tensor copy = c.graph.clone(arg, op.name + "/in");
      c.prog.add(poplar::program::Copy(arg, copy, false, op.name));
      bound.push_back(copy);
    } else {
      bound.push_back(arg);
    }
  }
  for (std::size_t i = 0; i < called.inputs.size(); ++i)
    c.tensors.at(called.inputs[i]) = bound[i];
  c.lowerOps(g, c.prog);
  // An output that shares memory with an input, a constant or another output gets its own
  // copy, as a call's output has: a later in-place write to one must not show in the other.
  std::vector<poplar::Tensor> shared = bound;
  for (TensorId t = 0; t < c.ir.numTensors(); ++t)
    if (c.ir.tensor(t).graph == g && c.ir.tensor(t).kind == TensorKind::Constant &&
        c.tensors.at(t).valid())
      shared.push_back(c.tensors[t]);
  for (std::size_t i = 0; i < called.outputs.size(); ++i) {
    poplar::Tensor out = c.tensors.at(called.outputs[i]);
    if (intersectsAny(out, shared)) {
      poplar::Tensor copy = c.graph.clone(out, op.name + "/out");
      c.prog.add(poplar::program::Copy(out, copy, false, op.name));
      out = copy;
    }
    shared.push_back(out);
    c.setOut(op, i, out);
  }
  return true;
}

} // namespace popxl::internal
