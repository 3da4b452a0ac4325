// Engine options: the OptionFlags given in code, merged under POPLAR_ENGINE_OPTIONS, validated.
#pragma once

#include <poplar/OptionFlags.hpp>

#include <string>

namespace poplar::detail {

/// Where vertex code runs (executor.vertexTier, POPLAR_VERTEX_TIER): the interpreter, the
/// native tier (ISA compiled to host code; docs/native-tier.md), or the native tier for the
/// vertex types that have issued enough instructions when its library loads.
enum class VertexTier { Interpreter, Native, Auto };

struct EngineOptions {
  bool autoReportAll = false;       // autoReport.all: both profiles unless a key below says
  bool autoReportGraph = false;     // autoReport.outputGraphProfile (or autoReport.all)
  bool autoReportExecution = false; // autoReport.outputExecutionProfile (or autoReport.all)
  std::string reportDirectory = ".";
  bool instrument = false;
  bool retainDebugInformation = false;
  bool allowOutOfMemory = true;
  unsigned hostThreads = 0; // executor.hostThreads, resolved by parseEngineOptions (>= 1)
  VertexTier vertexTier = VertexTier::Auto;
  bool checkMemoryAccess = false; // debug.checkMemoryAccess: every vertex runs memory-checked
  OptionFlags all;                // everything given, after merging

  bool writesProfile() const { return autoReportGraph || autoReportExecution; }
  std::string profilePath() const { return reportDirectory + "/profile.pop"; }
};

/// Merges POPLAR_ENGINE_OPTIONS (a JSON object) over `given` and checks every key and value.
/// Throws invalid_option naming the key and value, or parse_error for bad JSON. An unset
/// executor.hostThreads becomes POPLAR_NUM_THREADS, else the hardware's thread count; a
/// POPLAR_NUM_THREADS that is not a positive integer is an invalid_option. An unset
/// executor.vertexTier becomes POPLAR_VERTEX_TIER (checked the same way), else auto.
EngineOptions parseEngineOptions(const OptionFlags &given);

} // namespace poplar::detail
