// Liveness over the program trees: each program node that touches memory becomes one step; loops
// and conditional bodies are step ranges; a variable's live range runs from its first (complete,
// unconditional) write to its last read.
#include "compiler/Liveness.hpp"

#include "graph/TensorImpl.hpp"
#include "program/ProgramNode.hpp"

#include <algorithm>
#include <map>

namespace poplar::detail {

namespace {

constexpr int kNoProgram = -1, kSeveral = -2;
constexpr std::uint32_t kNever = ~0u;

struct VarState {
  std::uint32_t first = kNever, last = 0;
  bool firstIsCompleteWrite = false;
  int firstRegion = -1; // innermost conditional body around the first write
  int program = kNoProgram;
  bool pinned = false; // always-live whatever the steps say
};

struct Access {
  std::vector<std::pair<std::size_t, std::size_t>> reads, writes;
};

class Analyser {
public:
  explicit Analyser(const GraphState &graph) : graph_(graph), vars_(graph.vars.size()) {
    out_.computeSetSteps.resize(graph.computeSets.size());
    out_.computeSetAlwaysLive.assign(graph.computeSets.size(), false);
    for (std::size_t v = 0; v < graph.vars.size(); ++v)
      if (graph.vars[v].isConstant || !graph.vars[v].initialData.empty())
        vars_[v].pinned = true;
    // Anything the host reads or writes by name keeps its memory between runs.
    for (const auto &[handle, access] : graph.hostAccess)
      pin(access.tensor);
  }

  Liveness run(const std::vector<program::Program> &programs) {
    for (std::size_t p = 0; p < programs.size(); ++p) {
      program_ = int(p);
      flatten(programs[p].getImpl());
    }
    // Functions run at their call sites, which this numbering does not place them at: what they
    // touch stays always-live.
    inFunction_ = true;
    for (const auto &f : graph_.functions)
      flatten(f.getImpl());
    return finish();
  }

private:
  void pin(const Tensor &t) {
    if (!t.valid())
      return;
    for (const auto &r : t.getImpl().regions)
      if (r.var < vars_.size())
        vars_[r.var].pinned = true;
  }

  void read(const Tensor &t) { touch(t, false); }
  void write(const Tensor &t) { touch(t, true); }
  void touch(const Tensor &t, bool isWrite) {
    if (!t.valid())
      return;
    for (const auto &r : t.getImpl().regions) {
      if (r.var >= vars_.size() || r.begin == r.end)
        continue;
      auto &a = step_[r.var];
      (isWrite ? a.writes : a.reads).emplace_back(r.begin, r.end);
    }
  }

  /// Closes the current step: records the first and last touch of each variable in it.
  void endStep() {
    std::uint32_t s = next_++;
    int region = openRegions_.empty() ? -1 : openRegions_.back();
    for (auto &[var, a] : step_) {
      auto &st = vars_[var];
      if (inFunction_)
        st.pinned = true;
      else if (st.program == kNoProgram)
        st.program = program_;
      else if (st.program != program_)
        st.program = kSeveral;
      if (st.first == kNever) {
        st.first = s;
        st.firstRegion = region;
        st.firstIsCompleteWrite = a.reads.empty() && covers(a.writes, graph_.vars[var].numElements);
      }
      st.last = s;
    }
    step_.clear();
  }

  static bool covers(std::vector<std::pair<std::size_t, std::size_t>> &runs, std::size_t n) {
    std::sort(runs.begin(), runs.end());
    std::size_t pos = 0;
    for (const auto &[b, e] : runs) {
      if (b > pos)
        return false;
      pos = std::max(pos, e);
    }
    return pos >= n;
  }

  /// A body that may not run (If/Switch branch, RepeatWhile body): a first write inside it
  /// defines the variable only for reads inside it.
  template <typename F> void conditional(F &&body) {
    openRegions_.push_back(int(regions_.size()));
    regions_.push_back({next_, next_});
    body();
    regions_[std::size_t(openRegions_.back())].last = next_; // one past the body's last step
    openRegions_.pop_back();
  }

  template <typename F> void loop(F &&body) {
    StepRange r{next_, 0};
    body();
    r.last = next_ == 0 ? 0 : next_ - 1;
    if (next_ > r.first)
      loops_.push_back(r);
  }

  void flatten(const ProgramNode &n) {
    switch (n.kind) {
    case ProgramKind::Sequence:
    case ProgramKind::Block:
      for (const auto &c : n.children)
        flatten(c.getImpl());
      break;
    case ProgramKind::Execute:
      if (n.computeSet >= graph_.computeSets.size())
        break; // lowering reports it
      execute(n.computeSet);
      break;
    case ProgramKind::Copy:
      read(n.src);
      write(n.dst);
      endStep();
      break;
    case ProgramKind::StreamToTensor:
    case ProgramKind::TensorToStream:
      pin(n.src);
      pin(n.dst);
      break;
    case ProgramKind::Repeat:
      if (n.count > 0)
        loop([&] { flatten(n.children[0].getImpl()); });
      break;
    case ProgramKind::RepeatWhileTrue:
    case ProgramKind::RepeatWhileFalse:
      loop([&] {
        flatten(n.children[0].getImpl());
        read(n.src);
        endStep();
        conditional([&] { flatten(n.children[1].getImpl()); });
      });
      break;
    case ProgramKind::If:
    case ProgramKind::Switch:
      read(n.src);
      endStep();
      for (const auto &c : n.children)
        conditional([&] { flatten(c.getImpl()); });
      break;
    case ProgramKind::PrintTensor:
    case ProgramKind::Error:
      read(n.src);
      endStep();
      break;
    case ProgramKind::Call: // what functions touch is pinned
    case ProgramKind::WriteUndef:
    case ProgramKind::Sync:
      break;
    }
  }

  void execute(unsigned cs) {
    for (unsigned id : graph_.computeSets[cs].vertices) {
      const auto &v = graph_.vertices[id];
      auto type = graph_.vertexTypes.find(v.type);
      for (const auto &c : v.connections) {
        const FieldInfo *f =
            type == graph_.vertexTypes.end() ? nullptr : type->second.findField(c.field);
        auto dir = f ? f->direction : FieldDirection::InOut;
        if (dir != FieldDirection::Output)
          read(c.tensor);
        if (dir == FieldDirection::Output || dir == FieldDirection::InOut)
          write(c.tensor);
      }
    }
    if (inFunction_)
      out_.computeSetAlwaysLive[cs] = true;
    out_.computeSetSteps[cs].push_back({next_, next_});
    endStep();
  }

  Liveness finish() {
    std::size_t n = vars_.size();
    out_.alwaysLive.assign(n, true);
    out_.varRange.assign(n, StepRange());
    for (std::size_t v = 0; v < n; ++v) {
      const auto &st = vars_[v];
      // Untouched variables stay: nothing here says nobody looks at them.
      if (st.pinned || st.first == kNever || st.program == kSeveral || !st.firstIsCompleteWrite)
        continue;
      // A write in a body that may not run defines nothing outside that body (its range's
      // `last` is one past its end).
      if (st.firstRegion >= 0 && regions_[std::size_t(st.firstRegion)].last <= st.last)
        continue;
      out_.alwaysLive[v] = false;
      out_.varRange[v] = widenOverLoops({st.first, st.last});
    }
    return std::move(out_);
  }

  /// A value that enters or leaves a loop must survive every iteration: the range covers the
  /// whole loop. A range inside one iteration starts with a complete write, so it needs nothing.
  StepRange widenOverLoops(StepRange r) const {
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto &l : loops_) {
        bool meets = r.first <= l.last && l.first <= r.last;
        bool inside = l.first <= r.first && r.last <= l.last;
        if (meets && !inside && (l.first < r.first || l.last > r.last)) {
          r = {std::min(r.first, l.first), std::max(r.last, l.last)};
          changed = true;
        }
      }
    }
    return r;
  }

  const GraphState &graph_;
  std::vector<VarState> vars_;
  std::map<unsigned, Access> step_; // the step being built, by variable
  std::uint32_t next_ = 0;
  int program_ = kNoProgram;
  bool inFunction_ = false;
  std::vector<StepRange> regions_, loops_;
  std::vector<int> openRegions_;
  Liveness out_;
};

} // namespace

Liveness analyseLiveness(const GraphState &graph, const std::vector<program::Program> &programs) {
  return Analyser(graph).run(programs);
}

bool overlaps(const std::vector<StepRange> &a, const std::vector<StepRange> &b) {
  for (const auto &x : a)
    for (const auto &y : b)
      if (x.first <= y.last && y.first <= x.last)
        return true;
  return false;
}

} // namespace poplar::detail
