// The op table's row type and the functions its rows name (Ops.def).
#pragma once

#include <popxl/Ir.hpp>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include <string>
#include <vector>

namespace popxl::internal {

/// What lowering an op needs: the Poplar graph and the program being built, the Poplar tensor
/// of every IR tensor lowered so far, and the host streams.
struct LowerContext {
  const Ir &ir;
  poplar::Graph &graph;
  poplar::program::Sequence &prog;
  std::vector<poplar::Tensor> &tensors;     // by TensorId
  std::vector<poplar::DataStream> &streams; // by StreamId
  const poplar::Tensor &in(const OpInfo &op, std::size_t i) const {
    return tensors.at(op.inputs.at(i));
  }
  void setOut(const OpInfo &op, std::size_t i, const poplar::Tensor &t) const {
    tensors.at(op.outputs.at(i)) = t;
  }
};

using InferFn = std::vector<TensorSpec> (*)(const Ir &, const OpInfo &);
using LowerFn = void (*)(const LowerContext &, const OpInfo &);

struct OpRow {
  const char *type;
  InferFn infer;
  LowerFn lower;
};

/// The row of `type`; throws popxl::error naming the op for a type the table does not hold.
const OpRow &opRow(const std::string &type);

// Helpers for infer functions.
const TensorSpec &inputSpec(const Ir &ir, const OpInfo &op, std::size_t i);
/// Throws popxl::error: "<type> (<name>): <message>".
[[noreturn]] void opError(const OpInfo &op, const std::string &message);
std::vector<std::int64_t> intsAttr(const OpInfo &op, const std::string &key);
std::int64_t intAttr(const OpInfo &op, const std::string &key);
double floatAttr(const OpInfo &op, const std::string &key);
std::string stringAttr(const OpInfo &op, const std::string &key);
bool hasAttr(const OpInfo &op, const std::string &key);
/// "(2, 3)"
std::string shapeText(const std::vector<std::int64_t> &shape);

poplar::Type poplarType(DType t);
std::vector<std::size_t> poplarShape(const std::vector<std::int64_t> &shape);

#define POPXL_OP(type, infer, lower)                                                               \
  std::vector<TensorSpec> infer(const Ir &, const OpInfo &);                                       \
  void lower(const LowerContext &, const OpInfo &);
#include "Ops.def"

} // namespace popxl::internal
