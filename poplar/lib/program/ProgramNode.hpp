// The node behind every program::Program; one struct covers all kinds.
#pragma once

#include "graph/GraphState.hpp"

#include <poplar/Program.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace poplar::detail {

#define POPLAR_PROGRAM_KINDS(X)                                                                    \
  X(Sequence)                                                                                      \
  X(Execute) X(Copy) X(StreamToTensor) X(TensorToStream) X(Repeat) X(RepeatWhileTrue)              \
      X(RepeatWhileFalse) X(If) X(Switch) X(Call) X(PrintTensor) X(WriteUndef) X(Sync) X(Error)    \
          X(Block)

enum class ProgramKind {
#define X(k) k,
  POPLAR_PROGRAM_KINDS(X)
#undef X
};
const char *toString(ProgramKind k);

struct ProgramNode {
  ProgramKind kind = ProgramKind::Sequence;
  std::string name;
  /// Sequence: the steps. Repeat: {body}. RepeatWhile*: {cond, body}. If: {then, else}.
  /// Switch: the case bodies, then the default body last. Block: {body}.
  std::vector<program::Program> children;
  Tensor src, dst; // Copy; src is also the predicate/control/printed/error tensor
  std::shared_ptr<const StreamDesc> stream;
  unsigned count = 0;                   // Repeat
  unsigned computeSet = 0;              // Execute
  unsigned function = 0;                // Call
  std::vector<std::int32_t> caseValues; // Switch, one per case body
  SyncType syncType = SyncType::INTERNAL;
  std::string message; // PrintTensor title, ErrorProgram message
};

} // namespace poplar::detail
