// debug.checkMemoryAccess at the Engine: the memory map of each vertex run (its field regions,
// state, codelet data; the interpreter adds the live stack) and the words that name what a
// stray access missed.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "engine/VertexRunner.hpp"
#include "interp/Interpreter.hpp"
#include "interp/MemCheck.hpp"

#include <string>
#include <vector>

namespace poplar::detail {

class MemoryChecker {
public:
  /// Throws poplar_error if a field region names a field its codelet's vertex does not have
  /// (only a corrupt executable can).
  MemoryChecker(const CompiledGraph &cg, const std::vector<LoadedCodelet> &codelets);

  /// Fills `map` with what `v` (of `cs`) may access: loads from its Input fields and list
  /// descriptors; loads and stores to its Output, InOut and vertex-owned fields, its state and
  /// its codelet's data.
  void mapFor(const CompiledComputeSet &cs, const VertexInstance &v, interp::AccessMap &map) const;

  /// What `r`'s stray access missed, by the nearest range the vertex has: "4 bytes past the end
  /// of field 'out' (tensor 'y', 16 bytes)". `launch` is the worker's.
  std::string describe(const CompiledComputeSet &cs, const VertexInstance &v,
                       const interp::Launch &launch, const interp::WorkerState &state,
                       const interp::RunResult &r) const;

private:
  const CompiledGraph &cg_;
  const std::vector<LoadedCodelet> &codelets_;
  std::vector<const gp::Vertex *> gpVertex_; // by vertex type, for field names; may be null
};

} // namespace poplar::detail
