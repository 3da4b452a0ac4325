// Engine option parsing: known keys from Poplar's documented option table.
#include "engine/EngineOptions.hpp"

#include "core/Errors.hpp"

#include <cstdlib>
#include <set>

namespace poplar::detail {

namespace {

// Keys Poplar documents and real programs pass (ecosystem survey, section 1.5). Keys we accept
// but do not act on change nothing in a simulation (for example exchange tuning).
const std::set<std::string> &knownKeys() {
  static const std::set<std::string> keys = {"autoReport.all",
                                             "autoReport.directory",
                                             "autoReport.outputGraphProfile",
                                             "autoReport.outputExecutionProfile",
                                             "autoReport.outputLoweredVars",
                                             "autoReport.outputDebugInfo",
                                             "autoReport.outputSerializedGraph",
                                             "autoReport.outputArchive",
                                             "autoReport.executionProfileProgramRunCount",
                                             "autoReport.streamAtEachRun",
                                             "debug.instrument",
                                             "debug.instrumentCompute",
                                             "debug.instrumentControlFlow",
                                             "debug.instrumentExternalExchange",
                                             "debug.computeInstrumentationLevel",
                                             "debug.allowOutOfMemory",
                                             "debug.retainDebugInformation",
                                             "debug.outputAllSymbols",
                                             "debug.floatPointOpException",
                                             "debug.nanOverflowMode",
                                             "debug.runtimeVerify",
                                             "debug.trace",
                                             "profiler.format",
                                             "profiler.includeCycleEstimates",
                                             "profiler.includeFlopEstimates",
                                             "profiler.replicaToProfile",
                                             "profiler.blocks.filter",
                                             "profiler.blocks.tile",
                                             "profiler.blocks.implicitFlush",
                                             "profiler.programs.filter",
                                             "target.saveArchive",
                                             "target.deterministicWorkers",
                                             "target.syncReplicasIndependently",
                                             "target.firstRuntimeReplica",
                                             "target.numberRuntimeReplica",
                                             "target.syncMethod",
                                             "target.syncPollPeriodUs",
                                             "target.exceptionPollPeriodUs",
                                             "target.hostSyncTimeout",
                                             "opt.maxCompilationThreads",
                                             "opt.internalExchangeOptimisationTarget",
                                             "opt.maxComputeSetsPerLoweredCopy",
                                             "opt.enableInlining",
                                             "opt.useAutoloader",
                                             "exchange.streamBufferOverlap",
                                             "exchange.enablePrefetch",
                                             "exchange.multicastPolicy",
                                             "streamCallbacks.multiThreadMode",
                                             "streamCallbacks.numaAware",
                                             "streamCallbacks.numWorkerThreads"};
  return keys;
}

bool parseBool(const std::string &key, const std::string &value) {
  if (value == "true")
    return true;
  if (value == "false")
    return false;
  raise<invalid_option>("Engine option '", key, "': value '", value,
                        "' is not a boolean (true or false)");
}

} // namespace

EngineOptions parseEngineOptions(const OptionFlags &given) {
  EngineOptions o;
  o.all = given;
  if (const char *env = std::getenv("POPLAR_ENGINE_OPTIONS")) {
    OptionFlags fromEnv;
    try {
      readJSON(env, fromEnv);
    } catch (const poplar_error &e) {
      raise<parse_error>("POPLAR_ENGINE_OPTIONS: ", e.what());
    }
    for (const auto &kv : fromEnv)
      o.all.set(kv.first, kv.second);
  }
  for (const auto &[key, value] : o.all) {
    if (!knownKeys().count(key))
      raise<invalid_option>("Engine: unknown option '", key, "' (value '", value, "')");
    if (key == "autoReport.all") {
      bool on = parseBool(key, value);
      o.autoReportGraph = o.autoReportExecution = on;
    }
  }
  // Specific keys override autoReport.all whatever their order.
  for (const auto &[key, value] : o.all) {
    if (key == "autoReport.outputGraphProfile")
      o.autoReportGraph = parseBool(key, value);
    else if (key == "autoReport.outputExecutionProfile")
      o.autoReportExecution = parseBool(key, value);
    else if (key == "autoReport.directory")
      o.reportDirectory = value.empty() ? "." : value;
    else if (key == "debug.instrument")
      o.instrument = parseBool(key, value);
    else if (key == "debug.retainDebugInformation")
      o.retainDebugInformation = parseBool(key, value);
    else if (key == "debug.allowOutOfMemory")
      o.allowOutOfMemory = parseBool(key, value);
  }
  return o;
}

} // namespace poplar::detail
