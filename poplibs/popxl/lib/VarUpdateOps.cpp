// Variable updates: ops that update their first input in place (its output is that input,
// updated) with a popops expression over it, the update X and scalar hyperparameters; plus
// adam_updater, which computes Adam's update term. A hyperparameter is a number attribute or,
// when the attribute is absent, a one-element tensor: the op's next input after its tensors, in
// the order of the op's row below. X and tensor hyperparameters of another float dtype are cast
// to the updated tensor's.
#include "OpTable.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>

#include <algorithm>

namespace popxl::internal {

namespace {
namespace pe = popops::expr;

/// The operands of an update's expression: tensors become placeholders (cast to `type`) in the
/// order they are added, numbers constants. An in-place update's tensor (input 0) is _1.
class Operands {
public:
  Operands(const LowerContext &c, const OpInfo &op, std::size_t firstHyper, poplar::Type type,
           bool inPlace)
      : c_(c), op_(op), next_(firstHyper), type_(type) {
    if (inPlace)
      updated_ = input(0);
  }

  pe::Any tensor(const poplar::Tensor &t) {
    tensors_.push_back(t);
    pe::Any p = pe::PlaceHolder(unsigned(tensors_.size()));
    return t.elementType() == type_ ? p : pe::Any(pe::Cast(p, type_));
  }
  pe::Any input(std::size_t i) { return tensor(c_.in(op_, i)); }
  pe::Any updated() const { return updated_; }
  /// The hyperparameter `key`: its attribute, else the next hyperparameter input.
  pe::Any hyper(const std::string &key) {
    if (hasAttr(op_, key))
      return constant(floatAttr(op_, key));
    return input(next_++);
  }
  pe::Any constant(double v) const { return pe::Const(v, type_); }
  const std::vector<poplar::Tensor> &tensors() const { return tensors_; }

private:
  const LowerContext &c_;
  const OpInfo &op_;
  std::size_t next_;
  poplar::Type type_;
  std::vector<poplar::Tensor> tensors_;
  pe::Any updated_ = pe::_1;
};

/// One in-place update: its tensor inputs (the updated tensor first), its hyperparameters and
/// the new value of the tensor as an expression. Each operand is taken in a statement of its
/// own, so that tensor hyperparameters take their placeholders in the row's order.
struct UpdateRow {
  const char *type;
  std::size_t tensors;
  std::vector<std::string> hypers;
  pe::Any (*value)(Operands &);
};

const std::vector<UpdateRow> &updateRows() {
  static const std::vector<UpdateRow> rows = {
      {"accumulate_",
       2,
       {"f"},
       [](Operands &o) -> pe::Any {
         const pe::Any x = o.input(1), f = o.hyper("f");
         return pe::Add(o.updated(), pe::Mul(f, x));
       }},
      {"scaled_add_",
       2,
       {"a", "b"},
       [](Operands &o) -> pe::Any {
         const pe::Any x = o.input(1), a = o.hyper("a"), b = o.hyper("b");
         return pe::Add(pe::Mul(a, o.updated()), pe::Mul(b, x));
       }},
      {"accumulate_square_",
       2,
       {"f"},
       [](Operands &o) -> pe::Any {
         const pe::Any x = o.input(1), f = o.hyper("f");
         return pe::Add(o.updated(), pe::Mul(f, pe::Square(x)));
       }},
      {"accumulate_moving_average_",
       2,
       {"f"},
       [](Operands &o) -> pe::Any {
         const pe::Any x = o.input(1), f = o.hyper("f");
         return pe::Add(pe::Mul(f, o.updated()), pe::Mul(pe::Sub(o.constant(1.0), f), x));
       }},
      {"accumulate_moving_average_square_",
       2,
       {"f"},
       [](Operands &o) -> pe::Any {
         const pe::Any x = o.input(1), f = o.hyper("f");
         return pe::Add(pe::Mul(f, o.updated()),
                        pe::Mul(pe::Sub(o.constant(1.0), f), pe::Square(x)));
       }},
      // t + (X - t) / (step + 1): the mean of step + 1 values, t the mean of the first step.
      {"accumulate_mean_",
       2,
       {"step"},
       [](Operands &o) -> pe::Any {
         const pe::Any t = o.updated(), x = o.input(1), step = o.hyper("step");
         return pe::Add(t, pe::Divide(pe::Sub(x, t), pe::Add(step, o.constant(1.0))));
       }},
      {"accumulator_scale_",
       1,
       {"f"},
       [](Operands &o) -> pe::Any { return pe::Mul(o.updated(), o.hyper("f")); }},
      // Lamb's trust ratio min(sqrt(r1), max_weight_norm) / sqrt(r2) scales the step, 1 when r1,
      // r2 or the norm is 0 (r1, r2: the squared norms of the weight and of the update term).
      {"adam_var_update",
       4,
       {"learning_rate", "max_weight_norm"},
       [](Operands &o) -> pe::Any {
         const pe::Any x = o.input(1), r1 = o.input(2), r2 = o.input(3);
         const pe::Any lr = o.hyper("learning_rate"), norm = o.hyper("max_weight_norm");
         const pe::Any zero = o.constant(0.0);
         const pe::Any ratio = pe::Divide(pe::Min(pe::Sqrt(r1), norm), pe::Sqrt(r2));
         const pe::Any trivial =
             pe::Or(pe::Or(pe::Equal(r1, zero), pe::Equal(r2, zero)), pe::Equal(norm, zero));
         return pe::Sub(o.updated(),
                        pe::Mul(pe::Mul(lr, pe::Select(o.constant(1.0), ratio, trivial)), x));
       }},
  };
  return rows;
}

const UpdateRow &updateRow(const OpInfo &op) {
  for (const auto &row : updateRows())
    if (op.type == row.type)
      return row;
  opError(op, "is not an in-place variable update");
}

std::size_t missingAttrs(const OpInfo &op, const std::vector<std::string> &keys) {
  return std::size_t(
      std::count_if(keys.begin(), keys.end(), [&](const auto &k) { return !hasAttr(op, k); }));
}

/// Checks that inputs from `first` on are one float element each, as many as `hypers` lacks
/// attributes for.
void checkHyperInputs(const Ir &ir, const OpInfo &op, std::size_t first,
                      const std::vector<std::string> &hypers) {
  const std::size_t want = first + missingAttrs(op, hypers);
  if (op.inputs.size() != want)
    opError(op, "expects " + std::to_string(want) + " inputs (" + std::to_string(first) +
                    " tensors and one per hyperparameter given as a tensor), got " +
                    std::to_string(op.inputs.size()));
  for (std::size_t i = first; i < want; ++i) {
    const TensorSpec &s = inputSpec(ir, op, i);
    if (s.numElements() != 1 || (s.dtype != DType::Float32 && s.dtype != DType::Float16))
      opError(op, "a hyperparameter tensor must be one float element, got " + toString(s));
  }
}

/// Checks that input i, for i in inputs, is a float tensor of `like`'s shape.
void checkSameShape(const Ir &ir, const OpInfo &op, const TensorSpec &like,
                    const std::vector<std::size_t> &inputs, const char *what) {
  for (auto i : inputs) {
    const TensorSpec &s = inputSpec(ir, op, i);
    if (s.shape != like.shape || (s.dtype != DType::Float32 && s.dtype != DType::Float16))
      opError(op, std::string(what) + " " + toString(s) + " should be float of shape " +
                      shapeText(like.shape));
  }
}

} // namespace

std::vector<TensorSpec> inferInPlace(const Ir &ir, const OpInfo &op) {
  if (op.type == "copy_var_update_") {
    if (op.inputs.size() != 2)
      opError(op, "expects 2 inputs (the tensor to update and the value), got " +
                      std::to_string(op.inputs.size()));
    const TensorSpec &t = inputSpec(ir, op, 0), &x = inputSpec(ir, op, 1);
    if (!(t == x))
      opError(op, "the update " + toString(x) + " does not match the tensor " + toString(t));
    return {t};
  }
  const UpdateRow &row = updateRow(op);
  checkHyperInputs(ir, op, row.tensors, row.hypers);
  const TensorSpec &t = inputSpec(ir, op, 0);
  if (t.dtype != DType::Float32 && t.dtype != DType::Float16)
    opError(op, std::string("the updated tensor must be float32 or float16, got ") + toString(t));
  if (row.tensors > 1)
    checkSameShape(ir, op, t, {1}, "the update");
  for (std::size_t i = 2; i < row.tensors; ++i) // adam_var_update's squared norms
    if (inputSpec(ir, op, i).numElements() != 1)
      opError(op, "input " + std::to_string(i) + " " + toString(inputSpec(ir, op, i)) +
                      " should have one element");
  return {t};
}

void lowerCopyVarUpdate(const LowerContext &c, const OpInfo &op) {
  c.prog.add(poplar::program::Copy(c.in(op, 1), c.in(op, 0), false, op.name));
  c.setOut(op, 0, c.in(op, 0));
}

void lowerVarUpdate(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &t = c.in(op, 0);
  const UpdateRow &row = updateRow(op);
  if (op.type == "accumulator_scale_" && hasAttr(op, "f") && floatAttr(op, "f") == 0.0)
    popops::zero(c.graph, t, c.prog, op.name); // a true zero, even of inf and NaN
  else {
    Operands operands(c, op, row.tensors, t.elementType(), true);
    const pe::Any value = row.value(operands);
    popops::mapInPlace(c.graph, value, operands.tensors(), c.prog, op.name);
  }
  c.setOut(op, 0, t);
}

// sparse_accumulate_(t, X, indices, [f]): t += f * X scattered along "axis", X shaped as a gather
// of t at indices; repeated indices add up (a gather's gradient accumulated without making it).
std::vector<TensorSpec> inferSparseAccumulate(const Ir &ir, const OpInfo &op) {
  checkHyperInputs(ir, op, 3, {"f"});
  const TensorSpec &t = inputSpec(ir, op, 0);
  if (t.dtype != DType::Float32 && t.dtype != DType::Float16)
    opError(op, std::string("the updated tensor must be float32 or float16, got ") + toString(t));
  checkSameShape(ir, op, {gatheredShape(op, t, inputSpec(ir, op, 2)), t.dtype}, {1},
                 "the update (a gather of t at the indices)");
  return {t};
}

void lowerSparseAccumulate(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &t = c.in(op, 0);
  poplar::Tensor x = c.in(op, 1), f;
  if (x.elementType() != t.elementType())
    x = popops::cast(c.graph, x, t.elementType(), c.prog, op.name + "/cast");
  if (hasAttr(op, "f")) {
    f = c.graph.addConstant(t.elementType(), {}, floatAttr(op, "f"), op.name + "/f");
    c.graph.setTileMapping(f, 0);
  } else {
    f = c.in(op, 3).reshape({});
    if (f.elementType() != t.elementType())
      f = popops::cast(c.graph, f, t.elementType(), c.prog, op.name + "/f");
  }
  addGatheredRows(c, t, x, c.in(op, 2), normaliseAxis(op, intAttr(op, "axis"), t.rank()), f,
                  op.name);
  c.setOut(op, 0, t);
}

// adam_updater(m, v, [weight], [time_step], hyperparameters...): with attribute "weight" 1 the
// weight decay term wd.weight is added; with "time_step" 1 time_step is incremented in place and
// m and v are bias-corrected by it: m / (1 - beta1^t) / (sqrt(v / (1 - beta2^t)) + epsilon).
namespace {
const std::vector<std::string> kAdamHypers = {"weight_decay", "beta1", "beta2", "epsilon"};

std::size_t adamTensors(const OpInfo &op) {
  return 2 + std::size_t(intAttr(op, "weight") != 0) + std::size_t(intAttr(op, "time_step") != 0);
}
} // namespace

std::vector<TensorSpec> inferAdamUpdater(const Ir &ir, const OpInfo &op) {
  const std::size_t tensors = adamTensors(op);
  checkHyperInputs(ir, op, tensors, kAdamHypers);
  const TensorSpec &m = inputSpec(ir, op, 0);
  checkSameShape(ir, op, m, {0, 1}, "the moment");
  const bool weight = intAttr(op, "weight") != 0, step = intAttr(op, "time_step") != 0;
  if (weight)
    checkSameShape(ir, op, m, {2}, "the weight");
  if (step && inputSpec(ir, op, tensors - 1).numElements() != 1)
    opError(op,
            "time_step " + toString(inputSpec(ir, op, tensors - 1)) + " should have one element");
  return {weight ? inputSpec(ir, op, 2) : m};
}

Effects effectsAdamUpdater(const Ir &, const OpInfo &op) {
  Effects e;
  if (intAttr(op, "time_step") != 0) // incremented in place
    e.modifiedInputs.push_back(adamTensors(op) - 1);
  return e;
}

void lowerAdamUpdater(const LowerContext &c, const OpInfo &op) {
  const bool weight = intAttr(op, "weight") != 0, step = intAttr(op, "time_step") != 0;
  const poplar::Type outType = poplarType(c.ir.tensor(op.outputs[0]).spec.dtype);
  // In float32 when a moment is: in float16 the bias corrections 1 - beta^t lose their digits
  // (beta2 = 0.999 is held as 0.99902, so 1 - beta2 is 2% off).
  const bool anyFloat =
      c.in(op, 0).elementType() == poplar::FLOAT || c.in(op, 1).elementType() == poplar::FLOAT;
  const poplar::Type type = anyFloat ? poplar::FLOAT : outType;
  Operands o(c, op, adamTensors(op), type, false);
  pe::Any m = o.input(0);
  pe::Any v = o.input(1);
  const pe::Any wd = o.hyper("weight_decay"), beta1 = o.hyper("beta1"), beta2 = o.hyper("beta2"),
                eps = o.hyper("epsilon");
  if (step) {
    const poplar::Tensor &t = c.in(op, adamTensors(op) - 1);
    popops::mapInPlace(c.graph, pe::Add(pe::_1, pe::Const(1.0, t.elementType())), {t}, c.prog,
                       op.name + "/step");
    const pe::Any s = o.tensor(t);
    m = pe::Divide(m, pe::Sub(o.constant(1.0), pe::Pow(beta1, s)));
    v = pe::Divide(v, pe::Sub(o.constant(1.0), pe::Pow(beta2, s)));
  }
  pe::Any update = pe::Divide(m, pe::Add(pe::Sqrt(v), eps));
  if (weight)
    update = pe::Add(update, pe::Mul(wd, o.input(2)));
  if (type != outType)
    update = pe::Cast(update, outType);
  c.setOut(op, 0, popops::map(c.graph, update, o.tensors(), c.prog, op.name));
}

} // namespace popxl::internal
