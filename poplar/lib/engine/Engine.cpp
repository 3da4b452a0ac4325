// The public Engine API: compiles at construction, then forwards to EngineImpl.
#include "compiler/Compile.hpp"
#include "core/Errors.hpp"
#include "core/Logging.hpp"
#include "engine/EngineImpl.hpp"
#include "profile/ProfileStore.hpp"
#include "profile/ProfileSummary.hpp"
#include "target/DeviceImpl.hpp"

#include <poplar/Engine.hpp>

#include <filesystem>

namespace poplar {

using namespace detail;

namespace {

std::unique_ptr<CompiledGraph> compileOrReport(const Graph &graph,
                                               const std::vector<program::Program> &progs,
                                               const EngineOptions &options) {
  // Poplar saves the out-of-memory profile when reporting is on, and says where.
  std::function<void(const ProfileData &)> saveProfile;
  if (options.writesProfile())
    saveProfile = [&options](const ProfileData &profile) {
      std::error_code ec;
      std::filesystem::create_directories(options.reportDirectory, ec);
      try {
        writeProfile(profile, options.profilePath());
      } catch (const poplar_error &e) {
        logger().warn("{}", e.what()); // the out-of-memory error matters more
      }
    };
  try {
    return compile(graph.getState(), progs, saveProfile);
  } catch (graph_memory_allocation_error &e) {
    if (!options.writesProfile())
      throw;
    graph_memory_allocation_error withPath(std::string(e.what()) +
                                           " Profile saved to: " + options.profilePath());
    withPath.profilePath = options.profilePath();
    throw withPath;
  }
}

std::unique_ptr<EngineImpl> makeEngine(const Graph &graph,
                                       const std::vector<program::Program> &progs,
                                       const OptionFlags &options, const ProgressFunc &progress) {
  auto parsed = parseEngineOptions(options);
  if (progress)
    progress(0, 1);
  auto cg = compileOrReport(graph, progs, parsed);
  if (progress)
    progress(1, 1);
  return std::make_unique<EngineImpl>(std::move(cg), std::move(parsed));
}

} // namespace

Engine::Engine(const Graph &graph, const program::Program &prog, const OptionFlags &options,
               ProgressFunc progress, const DebugContext &)
    : impl_(makeEngine(graph, {prog}, options, progress)) {}

Engine::Engine(const Graph &graph, ArrayRef<program::Program> progs, const OptionFlags &options,
               ProgressFunc progress, const DebugContext &)
    : impl_(makeEngine(graph, progs.vec(), options, progress)) {}

Engine::Engine(Executable &&exe, const OptionFlags &options)
    : impl_(std::make_unique<EngineImpl>(exe.release(), parseEngineOptions(options))) {}

Engine::Engine(Engine &&) noexcept = default;
Engine &Engine::operator=(Engine &&) noexcept = default;
Engine::~Engine() = default;

static EngineImpl &checked(const std::unique_ptr<EngineImpl> &impl, const char *api) {
  if (!impl)
    raise<poplar_error>("Engine::", api, ": the engine was moved from");
  return *impl;
}

void Engine::load(const Device &device) {
  auto &e = checked(impl_, "load");
  if (!device.getImpl())
    raise<poplar_error>("Engine::load: the device is empty (default-constructed or moved from)");
  e.load(device.getTarget().getImpl(), device.isAttached());
}

void Engine::run(unsigned prog, const std::string &) { checked(impl_, "run").run(prog); }

void Engine::writeTensor(StringRef handle, const void *buf, const void *bufEnd) {
  if (buf && !bufEnd)
    raise<poplar_error>("Engine::writeTensor: bufEnd is null for '", handle, "'");
  auto bytes = static_cast<const char *>(bufEnd) - static_cast<const char *>(buf);
  if (bytes < 0)
    raise<poplar_error>("Engine::writeTensor: buffer end is before its start for '", handle, "'");
  checked(impl_, "writeTensor").writeTensor(handle, buf, std::size_t(bytes), true);
}

void Engine::readTensor(StringRef handle, void *buf, void *bufEnd) {
  if (buf && !bufEnd)
    raise<poplar_error>("Engine::readTensor: bufEnd is null for '", handle, "'");
  auto bytes = static_cast<char *>(bufEnd) - static_cast<char *>(buf);
  if (bytes < 0)
    raise<poplar_error>("Engine::readTensor: buffer end is before its start for '", handle, "'");
  checked(impl_, "readTensor").readTensor(handle, buf, std::size_t(bytes), true);
}

void Engine::writeTensor(StringRef handle, const void *buf) {
  checked(impl_, "writeTensor").writeTensor(handle, buf, 0, false);
}

void Engine::readTensor(StringRef handle, void *buf) {
  checked(impl_, "readTensor").readTensor(handle, buf, 0, false);
}

void Engine::connectStream(StringRef handle, void *p) {
  if (!p)
    raise<stream_connection_error>("Engine::connectStream: p is null for stream '", handle, "'");
  checked(impl_, "connectStream").stream(handle, "connectStream").connectPointer(p);
}

void Engine::connectStream(StringRef handle, void *begin, void *end) {
  auto &e = checked(impl_, "connectStream");
  auto &s = e.stream(handle, "connectStream");
  if (!begin || !end)
    raise<stream_connection_error>("Engine::connectStream: ", begin ? "end" : "begin",
                                   " is null for stream '", handle, "'");
  if (static_cast<char *>(end) <= static_cast<char *>(begin))
    raise<stream_connection_error>("Engine::connectStream: empty buffer for stream '", handle,
                                   "' (end is not after begin)");
  for (const auto &cs : e.cg->streams)
    if (cs.handle == handle.str()) {
      std::size_t block = cs.numElements * Type(cs.type).size();
      std::size_t have = std::size_t(static_cast<char *>(end) - static_cast<char *>(begin));
      if (block && have % block != 0)
        raise<stream_connection_error>("Engine::connectStream: buffer for stream '", handle,
                                       "' has ", have, " bytes, not a multiple of the ", block,
                                       " bytes each copy moves");
    }
  s.connectCircular(begin, end);
}

void Engine::connectStream(const DataStream &stream, void *p) { connectStream(stream.handle(), p); }
void Engine::connectStream(const DataStream &stream, void *begin, void *end) {
  connectStream(stream.handle(), begin, end);
}

void Engine::connectStreamToCallback(StringRef handle, std::unique_ptr<StreamCallback> f) {
  if (!f)
    raise<stream_connection_error>("Engine::connectStreamToCallback: f is null for stream '",
                                   handle, "'");
  checked(impl_, "connectStreamToCallback")
      .stream(handle, "connectStreamToCallback")
      .connectCallback(std::move(f));
}

void Engine::connectStreamToCallback(StringRef handle, unsigned index,
                                     std::unique_ptr<StreamCallback> f) {
  if (index != 0)
    raise<stream_connection_error>("Engine::connectStreamToCallback: replica index ", index,
                                   " for stream '", handle, "' but the graph has 1 replica");
  connectStreamToCallback(handle, std::move(f));
}

namespace {
class FunctionCallback : public LegacyStreamCallback {
public:
  explicit FunctionCallback(StreamCallbackHandle f) : f_(std::move(f)) {}
  void fetch(void *p) override { f_(p); }

private:
  StreamCallbackHandle f_;
};
} // namespace

void Engine::connectStreamToCallback(StringRef handle, StreamCallbackHandle f) {
  // An empty std::function would throw bad_function_call mid-run; say so now.
  if (!f)
    raise<stream_connection_error>("Engine::connectStreamToCallback: f is an empty function for "
                                   "stream '",
                                   handle, "'");
  connectStreamToCallback(handle, std::unique_ptr<StreamCallback>(new FunctionCallback(f)));
}

void Engine::connectStreamToCallback(StringRef handle, unsigned index, StreamCallbackHandle f) {
  if (!f)
    raise<stream_connection_error>("Engine::connectStreamToCallback: f is an empty function for "
                                   "stream '",
                                   handle, "'");
  connectStreamToCallback(handle, index, std::unique_ptr<StreamCallback>(new FunctionCallback(f)));
}

void Engine::disconnectStream(StringRef handle) {
  checked(impl_, "disconnectStream").stream(handle, "disconnectStream").disconnect();
}

double Engine::getTileClockFrequency() const {
  return checked(impl_, "getTileClockFrequency").cg->target.clockHz;
}

std::uint64_t Engine::getLastRunCycles() const {
  return checked(impl_, "getLastRunCycles").lastRunCycles;
}

std::uint64_t Engine::getTotalCycles() const {
  return checked(impl_, "getTotalCycles").device.clock;
}

void Engine::printProfileSummary(std::ostream &out, const OptionFlags &opt) const {
  detail::printProfileSummary(out, checked(impl_, "printProfileSummary").profile, opt);
}

void Engine::setPrintStream(std::ostream &stream) {
  checked(impl_, "setPrintStream").printStream = &stream;
}

void Engine::resetExecutionProfile() {
  auto &e = checked(impl_, "resetExecutionProfile");
  e.profile.runs.clear();
  e.profile.executions.clear();
  e.profile.tileCycles.clear();
  e.profile.everyTile = {};
  e.profile.totalCycles = 0;
}

Executable compileGraph(const Graph &graph, ArrayRef<program::Program> progs,
                        const OptionFlags &opt, ProgressFunc progress, const DebugContext &) {
  auto parsed = parseEngineOptions(opt);
  return Executable(compileOrReport(graph, progs.vec(), parsed));
}

} // namespace poplar
