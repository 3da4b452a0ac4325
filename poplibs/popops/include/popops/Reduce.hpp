// Reductions: fold a tensor over a set of its dimensions with an Operation, optionally scaling
// the result and adding it to an existing output.
#ifndef popops_Reduce_hpp
#define popops_Reduce_hpp

#include <popops/Operation.hpp>
#include <poputil/exceptions.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace popops {

/// What a reduction does besides folding: `update` makes it out += r instead of out = r, and a
/// `scale` (a one-element FLOAT tensor) multiplies r first (for LOG_ADD, where values are
/// logarithms, the scale is added instead). Scale and update are valid for ADD, SQUARE_ADD and
/// LOG_ADD only.
struct ReduceParams {
  ReduceParams() = default;
  // Implicit, so that an Operation can be passed where ReduceParams are expected.
  ReduceParams(popops::Operation op, bool update = false) : op(op), update(update) {
    useScale = false;
  }
  ReduceParams(popops::Operation op, bool update, poplar::Tensor scale)
      : op(op), update(update), scale(scale) {
    useScale = true;
  }
  // The constant-scale form of older SDKs is deleted so that a float cannot silently become
  // the `update` flag.
  ReduceParams(popops::Operation op, float constantScale, bool update = false) = delete;

  popops::Operation op;
  bool update;
  bool useScale;
  poplar::Tensor scale;
};

/// Reduces `in` over `dims` into a new tensor of type `outType` whose shape is in's shape without
/// `dims` (a scalar when every dimension is reduced). Reducing over no dimension copies (casts
/// and scales); an input with no elements gives the operation's identity.
///
/// Options: accumType.interTile and accumType.inVertex (float or half), the type of the partial
/// results exchanged between tiles and kept within a vertex. They default to float for half
/// outputs of ADD, SQUARE_ADD, MUL and LOG_ADD, and to the output type otherwise.
///
/// Types: ADD, SQUARE_ADD, MUL: float and half to float or half, int to int, unsigned to
/// unsigned; LOG_ADD: float and half to float or half; MAX, MIN: float, half, int, unsigned to the
/// same type; LOGICAL_AND, LOGICAL_OR: bool to bool.
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Type &outType,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});

/// reduce(graph, in, in.elementType(), dims, params, prog, debugContext, options).
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});

/// reduce() into `out`, whose shape must be the reduced shape. An incompletely mapped `out` is
/// mapped by the reduction; a mapped one keeps its mapping.
void reduceWithOutput(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});

/// The same three functions adding their vertices to `css` instead of a program: stage i of the
/// reduction uses css[i], appended when missing, so reductions made into one list run in
/// parallel. The caller executes each compute set of `css` in order.
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Type &outType,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      std::vector<poplar::ComputeSet> &css,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});

poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      std::vector<poplar::ComputeSet> &css,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});

void reduceWithOutput(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params,
                      std::vector<poplar::ComputeSet> &css,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {});

/// One reduction of a reduceMany() call. Without `useOutType` the output has in's element type;
/// `outType` is ignored when reduceMany is given its outputs.
struct SingleReduceOp {
  poplar::Tensor in;
  std::vector<std::size_t> dims;
  ReduceParams params;
  bool useOutType;
  poplar::Type outType;
  std::string debugName;

  SingleReduceOp(poplar::Tensor in, std::vector<std::size_t> dims, ReduceParams params,
                 poplar::Type outType, std::string debugName = "")
      : in(std::move(in)), dims(std::move(dims)), params(std::move(params)), useOutType(true),
        outType(outType), debugName(std::move(debugName)) {}

  SingleReduceOp(poplar::Tensor in, std::vector<std::size_t> dims, ReduceParams params,
                 std::string debugName = "")
      : in(std::move(in)), dims(std::move(dims)), params(std::move(params)), useOutType(false),
        outType(poplar::BOOL), debugName(std::move(debugName)) {}
};

/// Performs every reduction of `reductions` in the same compute sets. An empty `outputs` is
/// filled with new tensors (an update reduction then is an error); otherwise it must hold one
/// output per reduction.
void reduceMany(poplar::Graph &graph, const std::vector<SingleReduceOp> &reductions,
                std::vector<poplar::Tensor> &outputs, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = {});

} // namespace popops

#endif // popops_Reduce_hpp
