// Engine options: the OptionFlags given in code, merged under POPLAR_ENGINE_OPTIONS, validated.
#pragma once

#include <poplar/OptionFlags.hpp>

#include <string>

namespace poplar::detail {

struct EngineOptions {
  bool autoReportAll = false;       // autoReport.all: both profiles unless a key below says
  bool autoReportGraph = false;     // autoReport.outputGraphProfile (or autoReport.all)
  bool autoReportExecution = false; // autoReport.outputExecutionProfile (or autoReport.all)
  std::string reportDirectory = ".";
  bool instrument = false;
  bool retainDebugInformation = false;
  bool allowOutOfMemory = true;
  OptionFlags all; // everything given, after merging

  bool writesProfile() const { return autoReportGraph || autoReportExecution; }
  std::string profilePath() const { return reportDirectory + "/profile.pop"; }
};

/// Merges POPLAR_ENGINE_OPTIONS (a JSON object) over `given` and checks every key and value.
/// Throws invalid_option naming the key and value, or parse_error for bad JSON.
EngineOptions parseEngineOptions(const OptionFlags &given);

} // namespace poplar::detail
