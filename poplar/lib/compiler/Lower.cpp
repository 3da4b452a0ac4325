// Lowers program trees to steps: control flow becomes jumps, copies become exchange plans.
#include "compiler/Lower.hpp"

#include "compiler/CycleConstants.hpp"
#include "compiler/ExchangePlan.hpp"
#include "compiler/Layout.hpp"
#include "core/Errors.hpp"
#include "program/ProgramNode.hpp"

#include <map>
#include <set>

namespace poplar::detail {

namespace {

class Lowerer {
public:
  Lowerer(const GraphState &graph, CompiledGraph &out) : graph_(graph), out_(out) {}

  void run(const std::vector<program::Program> &programs) {
    for (std::size_t p = 0; p < programs.size(); ++p) {
      out_.programEntries.push_back(here());
      out_.programNames.push_back(programs[p].getImpl().name);
      lower(programs[p].getImpl());
      emit(StepKind::End);
    }
    for (std::size_t f = 0; f < graph_.functions.size(); ++f) {
      functionEntries_.push_back(here());
      lower(graph_.functions[f].getImpl());
      emit(StepKind::Return);
    }
    for (auto &[step, function] : calls_)
      out_.steps[step].target = functionEntries_.at(function);
    collectStreams();
  }

private:
  std::uint32_t here() const { return std::uint32_t(out_.steps.size()); }
  std::uint32_t emit(StepKind kind, std::uint32_t arg = 0, std::uint32_t target = 0) {
    out_.steps.push_back({kind, arg, target});
    return here() - 1;
  }

  void lower(const ProgramNode &n) {
    switch (n.kind) {
    case ProgramKind::Sequence:
    case ProgramKind::Block:
      for (const auto &c : n.children)
        lower(c.getImpl());
      break;
    case ProgramKind::Execute:
      if (n.computeSet >= graph_.computeSets.size())
        raise<graph_program_compilation_error>("Engine: program::Execute names compute set ",
                                               n.computeSet, " which this graph does not have");
      emit(StepKind::Compute, n.computeSet);
      break;
    case ProgramKind::Copy:
      emit(StepKind::Exchange, exchangeFor(n));
      break;
    case ProgramKind::StreamToTensor:
    case ProgramKind::TensorToStream:
      emit(StepKind::StreamCopy, streamCopyFor(n));
      break;
    case ProgramKind::Repeat:
      if (n.count == 0)
        break;
      {
        auto begin = emit(StepKind::LoopBegin, n.count);
        lower(n.children[0].getImpl());
        emit(StepKind::LoopNext, 0, begin + 1);
        out_.steps[begin].target = here();
      }
      break;
    case ProgramKind::RepeatWhileTrue:
    case ProgramKind::RepeatWhileFalse: {
      auto top = here();
      lower(n.children[0].getImpl());
      auto exitKind = n.kind == ProgramKind::RepeatWhileTrue ? StepKind::BranchIfZero
                                                             : StepKind::BranchIfNonZero;
      auto branch = emit(exitKind, scalarFor(n.src, "RepeatWhile predicate"));
      lower(n.children[1].getImpl());
      emit(StepKind::Jump, 0, top);
      out_.steps[branch].target = here();
      break;
    }
    case ProgramKind::If: {
      auto branch = emit(StepKind::BranchIfZero, scalarFor(n.src, "If predicate"));
      lower(n.children[0].getImpl());
      auto skipElse = emit(StepKind::Jump);
      out_.steps[branch].target = here();
      lower(n.children[1].getImpl());
      out_.steps[skipElse].target = here();
      break;
    }
    case ProgramKind::Switch:
      lowerSwitch(n);
      break;
    case ProgramKind::Call:
      if (n.function >= graph_.functions.size())
        raise<graph_program_compilation_error>("Engine: program::Call names function ", n.function,
                                               " which this graph does not have");
      calls_.emplace_back(emit(StepKind::Call), n.function);
      break;
    case ProgramKind::PrintTensor:
      out_.prints.push_back({n.message, locate(out_, n.src)});
      emit(StepKind::Print, std::uint32_t(out_.prints.size() - 1));
      break;
    case ProgramKind::WriteUndef:
      break; // only tells liveness the data is dead; nothing runs
    case ProgramKind::Sync:
      emit(StepKind::Sync, n.syncType == SyncType::INTERNAL ? 0 : 1);
      break;
    case ProgramKind::Error: {
      CompiledError e;
      e.message = n.message;
      if (n.src.valid())
        e.debugTensor = {"", locate(out_, n.src)};
      out_.errors.push_back(std::move(e));
      emit(StepKind::Error, std::uint32_t(out_.errors.size() - 1));
      break;
    }
    }
  }

  void lowerSwitch(const ProgramNode &n) {
    CompiledSwitch sw;
    sw.control = out_.scalars.at(scalarFor(n.src, "Switch control"));
    auto index = std::uint32_t(out_.switches.size());
    out_.switches.push_back(sw);
    emit(StepKind::Switch, index);
    std::vector<std::uint32_t> exits;
    for (std::size_t c = 0; c < n.caseValues.size(); ++c) {
      out_.switches[index].cases.emplace_back(n.caseValues[c], here());
      lower(n.children[c].getImpl());
      exits.push_back(emit(StepKind::Jump));
    }
    out_.switches[index].defaultTarget = here();
    lower(n.children.back().getImpl());
    for (auto e : exits)
      out_.steps[e].target = here();
  }

  std::uint32_t exchangeFor(const ProgramNode &n) {
    auto found = exchangeCache_.find(&n);
    if (found != exchangeCache_.end())
      return found->second;
    CompiledExchange ex;
    ex.name = n.name.empty() ? "Copy" : n.name;
    ex.runs = planCopy(locate(out_, n.src), locate(out_, n.dst));
    auto cost = costOfExchange(out_.target, ex.runs);
    ex.exchangeCycles = cost.exchangeCycles;
    ex.syncCycles = cost.syncCycles;
    ex.firstTile = cost.firstTile;
    ex.lastTile = cost.lastTile;
    ex.staged = copiesOverlap(ex.runs);
    out_.exchanges.push_back(std::move(ex));
    return exchangeCache_[&n] = std::uint32_t(out_.exchanges.size() - 1);
  }

  std::uint32_t streamCopyFor(const ProgramNode &n) {
    CompiledStreamCopy sc;
    sc.toDevice = n.kind == ProgramKind::StreamToTensor;
    sc.name = n.name.empty() ? n.stream->handle : n.name;
    sc.stream = streamIndex(*n.stream);
    sc.runs = locate(out_, sc.toDevice ? n.dst : n.src).runs;
    std::uint64_t bytes = 0;
    for (const auto &r : sc.runs)
      bytes += r.bytes;
    sc.hostCycles = std::uint64_t(double(bytes) / out_.target.hostBytesPerCycle() + 0.999999);
    sc.syncCycles = out_.target.globalSyncCycles;
    out_.streamCopies.push_back(std::move(sc));
    return std::uint32_t(out_.streamCopies.size() - 1);
  }

  std::uint32_t streamIndex(const StreamDesc &s) {
    for (std::size_t i = 0; i < out_.streams.size(); ++i)
      if (out_.streams[i].handle == s.handle)
        return std::uint32_t(i);
    out_.streams.push_back({s.handle, s.type.id(), s.numElements, s.hostToDevice});
    return std::uint32_t(out_.streams.size() - 1);
  }

  std::uint32_t scalarFor(const Tensor &t, const char *what) {
    auto loc = locate(out_, t);
    if (loc.runs.size() != 1)
      raise<graph_program_compilation_error>("Engine: the ", what, " must be one element");
    out_.scalars.push_back({loc.type, loc.runs[0].tile, loc.runs[0].offset});
    return std::uint32_t(out_.scalars.size() - 1);
  }

  /// Each program's steps run from its entry to its End, so its streams are those of the
  /// StreamCopy steps in that range plus those of the functions it calls.
  void collectStreams() {
    auto streamsIn = [&](std::uint32_t from, StepKind last, auto &&self,
                         std::set<std::uint32_t> &acc, std::set<std::uint32_t> &seen) -> void {
      for (auto s = from; s < out_.steps.size(); ++s) {
        const auto &step = out_.steps[s];
        if (step.kind == StepKind::StreamCopy)
          acc.insert(out_.streamCopies[step.arg].stream);
        if (step.kind == StepKind::Call && seen.insert(step.target).second)
          self(step.target, StepKind::Return, self, acc, seen);
        if (step.kind == last)
          break;
      }
    };
    for (auto entry : out_.programEntries) {
      std::set<std::uint32_t> acc, seen;
      streamsIn(entry, StepKind::End, streamsIn, acc, seen);
      out_.programStreams.emplace_back(acc.begin(), acc.end());
    }
  }

  const GraphState &graph_;
  CompiledGraph &out_;
  std::map<const ProgramNode *, std::uint32_t> exchangeCache_;
  std::vector<std::uint32_t> functionEntries_;
  std::vector<std::pair<std::uint32_t, unsigned>> calls_;
};

} // namespace

void lowerPrograms(const GraphState &graph, const std::vector<program::Program> &programs,
                   CompiledGraph &out) {
  Lowerer(graph, out).run(programs);
}

const char *toString(StepKind k) {
  switch (k) {
#define X(name)                                                                                    \
  case StepKind::name:                                                                             \
    return #name;
    POPLAR_STEP_KINDS(X)
#undef X
  }
  return "?";
}

} // namespace poplar::detail
