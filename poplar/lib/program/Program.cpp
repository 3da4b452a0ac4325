// The program classes: each builds one ProgramNode, validating its operands.
#include "program/ProgramNode.hpp"

#include "core/Errors.hpp"

namespace poplar {

using namespace detail;

const char *detail::toString(ProgramKind k) {
  switch (k) {
#define X(name)                                                                                    \
  case ProgramKind::name:                                                                          \
    return #name;
    POPLAR_PROGRAM_KINDS(X)
#undef X
  }
  return "?";
}

namespace program {

namespace {

std::shared_ptr<ProgramNode> node(ProgramKind kind, const DebugContext &dc) {
  auto n = std::make_shared<ProgramNode>();
  n->kind = kind;
  n->name = dc.getPathName();
  return n;
}

std::string describe(const Tensor &t) {
  std::ostringstream os;
  os << t.shapeToString() << " (" << t.elementType() << ")";
  return os.str();
}

void requireValid(const Tensor &t, const char *api, const char *what) {
  if (!t.valid())
    raise<poplar_error>(api, ": the ", what, " tensor is not valid");
}

/// Control-flow scalars: one element of an integer or bool type.
void requireScalarPredicate(const Tensor &t, const char *api, const char *what) {
  requireValid(t, api, what);
  if (t.numElements() != 1)
    raise<poplar_error>(api, ": the ", what, " must have exactly one element, not ", describe(t));
  if (t.elementType().isFloatingPoint())
    raise<type_error>(api, ": the ", what, " must be an integer or bool, not ", t.elementType());
}

} // namespace

Program::Program() : impl_(std::make_shared<ProgramNode>()) {}
Program::Program(std::shared_ptr<ProgramNode> impl) : impl_(std::move(impl)) {}
Program::Program(const Program &) = default;
Program::Program(Program &&) noexcept = default;
Program &Program::operator=(const Program &) = default;
Program &Program::operator=(Program &&) noexcept = default;
Program::~Program() = default;

bool Program::isEmpty() const {
  return impl_->kind == ProgramKind::Sequence && impl_->children.empty();
}

ProgramNode &Program::mutableImpl() {
  // Copy on write keeps value semantics: a copy taken earlier does not see later additions.
  if (impl_.use_count() > 1)
    impl_ = std::make_shared<ProgramNode>(*impl_);
  return *impl_;
}

Sequence::Sequence(const DebugContext &dc) : Program(node(ProgramKind::Sequence, dc)) {}

Sequence::Sequence(std::initializer_list<Program> programs, const DebugContext &dc) : Sequence(dc) {
  for (const auto &p : programs)
    add(p);
}

void Sequence::add(const Program &p) {
  // Take the copy first: if `p` is this sequence, the copy keeps its current contents and
  // mutableImpl() then detaches, so the sequence never contains itself.
  Program copy = p;
  mutableImpl().children.push_back(std::move(copy));
}

Execute::Execute(ComputeSet cs, const DebugContext &dc) : Program(node(ProgramKind::Execute, dc)) {
  if (cs.getId() == ~0u)
    raise<poplar_error>("program::Execute: the compute set is not valid (default-constructed)");
  impl_->computeSet = cs.getId();
}

Copy::Copy(const Tensor &src, const Tensor &dst, bool, const DebugContext &dc)
    : Program(node(ProgramKind::Copy, dc)) {
  requireValid(src, "program::Copy", "source");
  requireValid(dst, "program::Copy", "destination");
  if (src.elementType() != dst.elementType())
    raise<type_error>("program::Copy: source ", describe(src), " and destination ", describe(dst),
                      " have different element types");
  if (src.numElements() != dst.numElements())
    raise<poplar_error>("program::Copy: source ", describe(src), " and destination ", describe(dst),
                        " have different numbers of elements (", src.numElements(), " and ",
                        dst.numElements(), ")");
  impl_->src = src;
  impl_->dst = dst;
}

static void checkStreamCopy(const DataStream &stream, const Tensor &t, bool toDevice) {
  const auto &s = stream.getImpl();
  const char *api = "program::Copy";
  requireValid(t, api, toDevice ? "destination" : "source");
  if (s.hostToDevice != toDevice)
    raise<poplar_error>(api, ": stream '", s.handle, "' is a ",
                        s.hostToDevice ? "host-to-device" : "device-to-host",
                        " FIFO and cannot be copied ", toDevice ? "from" : "to");
  if (s.type != t.elementType())
    raise<type_error>(api, ": stream '", s.handle, "' has type ", s.type, " but the tensor is ",
                      describe(t));
  if (s.numElements != t.numElements())
    raise<poplar_error>(api, ": stream '", s.handle, "' carries ", s.numElements,
                        " elements but the tensor ", describe(t), " has ", t.numElements());
}

Copy::Copy(const DataStream &stream, const Tensor &dst, bool, const DebugContext &dc)
    : Program(node(ProgramKind::StreamToTensor, dc)) {
  checkStreamCopy(stream, dst, true);
  impl_->stream = std::make_shared<StreamDesc>(stream.getImpl());
  impl_->dst = dst;
}

Copy::Copy(const Tensor &src, const DataStream &stream, bool, const DebugContext &dc)
    : Program(node(ProgramKind::TensorToStream, dc)) {
  checkStreamCopy(stream, src, false);
  impl_->stream = std::make_shared<StreamDesc>(stream.getImpl());
  impl_->src = src;
}

Repeat::Repeat(unsigned count, const Program &body, const DebugContext &dc)
    : Program(node(ProgramKind::Repeat, dc)) {
  impl_->count = count;
  impl_->children = {body};
}

RepeatWhileTrue::RepeatWhileTrue(const Program &cond, const Tensor &predicate, const Program &body,
                                 const DebugContext &dc)
    : Program(node(ProgramKind::RepeatWhileTrue, dc)) {
  requireScalarPredicate(predicate, "program::RepeatWhileTrue", "predicate");
  impl_->src = predicate;
  impl_->children = {cond, body};
}

RepeatWhileFalse::RepeatWhileFalse(const Program &cond, const Tensor &predicate,
                                   const Program &body, const DebugContext &dc)
    : Program(node(ProgramKind::RepeatWhileFalse, dc)) {
  requireScalarPredicate(predicate, "program::RepeatWhileFalse", "predicate");
  impl_->src = predicate;
  impl_->children = {cond, body};
}

If::If(const Tensor &predicate, const Program &trueBody, const Program &falseBody,
       const DebugContext &dc)
    : Program(node(ProgramKind::If, dc)) {
  requireScalarPredicate(predicate, "program::If", "predicate");
  impl_->src = predicate;
  impl_->children = {trueBody, falseBody};
}

Switch::Switch(const Tensor &control, const DebugContext &dc)
    : Switch(control, std::vector<std::pair<std::int32_t, Program>>(), Program(), dc) {}

Switch::Switch(const Tensor &control, const Program &defaultCaseBody, const DebugContext &dc)
    : Switch(control, std::vector<std::pair<std::int32_t, Program>>(), defaultCaseBody, dc) {}

Switch::Switch(const Tensor &control, const std::vector<std::pair<std::int32_t, Program>> &cases,
               const DebugContext &dc)
    : Switch(control, cases, Program(), dc) {}

Switch::Switch(const Tensor &control, const std::vector<std::pair<std::int32_t, Program>> &cases,
               const Program &defaultCaseBody, const DebugContext &dc)
    : Program(node(ProgramKind::Switch, dc)) {
  requireScalarPredicate(control, "program::Switch", "control");
  if (control.elementType() != INT && control.elementType() != UNSIGNED_INT)
    raise<type_error>("program::Switch: the control must be int or unsigned int, not ",
                      control.elementType());
  impl_->src = control;
  impl_->children = {defaultCaseBody};
  for (const auto &c : cases)
    add(c.first, c.second);
}

Switch &Switch::add(std::int32_t value, const Program &body) {
  Program copy = body; // as in Sequence::add: `body` may be this switch
  auto &n = mutableImpl();
  for (auto v : n.caseValues)
    if (v == value)
      raise<poplar_error>("program::Switch::add: case ", value, " is already present");
  // The default body stays last.
  n.children.insert(n.children.end() - 1, std::move(copy));
  n.caseValues.push_back(value);
  return *this;
}

Switch &Switch::setDefault(const Program &body) {
  Program copy = body;
  mutableImpl().children.back() = std::move(copy);
  return *this;
}

Call::Call(Function f, const DebugContext &dc) : Program(node(ProgramKind::Call, dc)) {
  if (f.getId() == ~0u)
    raise<poplar_error>("program::Call: the function is not valid (default-constructed)");
  impl_->function = f.getId();
}

PrintTensor::PrintTensor(StringRef title, const Tensor &t, const DebugContext &dc)
    : Program(node(ProgramKind::PrintTensor, dc)) {
  requireValid(t, "program::PrintTensor", "printed");
  impl_->message = title;
  impl_->src = t;
}

PrintTensor::PrintTensor(const Tensor &t, const DebugContext &dc) : PrintTensor("", t, dc) {}

WriteUndef::WriteUndef(const Tensor &t, const DebugContext &dc)
    : Program(node(ProgramKind::WriteUndef, dc)) {
  requireValid(t, "program::WriteUndef", "");
  impl_->src = t;
}

Sync::Sync(SyncType type, const DebugContext &dc) : Program(node(ProgramKind::Sync, dc)) {
  impl_->syncType = type;
}

ErrorProgram::ErrorProgram(StringRef message, const Tensor &debugTensor, const DebugContext &dc)
    : Program(node(ProgramKind::Error, dc)) {
  impl_->message = message;
  impl_->src = debugTensor;
}

Block::Block(const Program &p, const DebugContext &dc) : Program(node(ProgramKind::Block, dc)) {
  impl_->children = {p};
}

} // namespace program
} // namespace poplar
