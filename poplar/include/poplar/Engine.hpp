// Engine: compiles a graph and its programs, loads them onto a device and runs them.
#ifndef poplar_Engine_hpp
#define poplar_Engine_hpp

// Real programs rely on Engine.hpp alone for the whole graph API and common std headers.
#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Device.hpp>
#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/StreamCallback.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poplar/exceptions.hpp>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace poplar {

typedef std::function<void(int, int)> ProgressFunc;

namespace detail {
class EngineImpl;
}

class Engine {
public:
  Engine(const Graph &graph, const program::Program &prog, const OptionFlags &options = {},
         ProgressFunc progressCallBack = ProgressFunc(), const DebugContext &dc = {});
  Engine(const Graph &graph, ArrayRef<program::Program> progs, const OptionFlags &options = {},
         ProgressFunc progressCallBack = ProgressFunc(), const DebugContext &dc = {});
  Engine(Executable &&exe, const OptionFlags &options = {});
  Engine(Engine &&) noexcept;
  Engine &operator=(Engine &&) noexcept;
  ~Engine();

  void load(const Device &device);
  void run(unsigned prog = 0, const std::string &debugName = "");

  void writeTensor(StringRef handle, const void *buf, const void *bufEnd);
  void readTensor(StringRef handle, void *buf, void *bufEnd);
  /// Older single-pointer forms: the buffer must hold the whole tensor.
  void writeTensor(StringRef handle, const void *buf);
  void readTensor(StringRef handle, void *buf);

  /// Every copy on the stream reads or writes at `p`.
  void connectStream(StringRef handle, void *p);
  /// A circular buffer: each copy takes the next block, wrapping from `end` to `begin`.
  void connectStream(StringRef handle, void *begin, void *end);
  void connectStream(const DataStream &stream, void *p);
  void connectStream(const DataStream &stream, void *begin, void *end);
  void connectStreamToCallback(StringRef handle, std::unique_ptr<StreamCallback> f);
  void connectStreamToCallback(StringRef handle, unsigned index,
                               std::unique_ptr<StreamCallback> f);
  void connectStreamToCallback(StringRef handle, StreamCallbackHandle f);
  void connectStreamToCallback(StringRef handle, unsigned index, StreamCallbackHandle f);
  void disconnectStream(StringRef handle);

  double getTileClockFrequency() const;
  /// Simulated cycles of the last run(), and of all runs so far.
  std::uint64_t getLastRunCycles() const;
  std::uint64_t getTotalCycles() const;

  /// Prints Target, Graph, Memory Usage and Execution sections as Poplar does.
  void printProfileSummary(std::ostream &out, const OptionFlags &opt = {}) const;
  /// Where PrintTensor programs write (std::cout unless changed).
  void setPrintStream(std::ostream &stream);
  void setPrintTensorStream(std::ostream &stream) { setPrintStream(stream); }
  void resetExecutionProfile();

private:
  std::unique_ptr<detail::EngineImpl> impl_;
};

Executable compileGraph(const Graph &graph, ArrayRef<program::Program> progs,
                        const OptionFlags &opt = {}, ProgressFunc progressCallBack = ProgressFunc(),
                        const DebugContext &dc = {});

} // namespace poplar

#endif
