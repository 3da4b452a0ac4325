// libFuzzer target: libpva's reader. The input is written to a file and opened with
// pva::openReport as a profile.pop (SQLite); every accessor is then walked. Any bytes give a
// pva::exception or a report whose accessors stay inside what was read.
#include "FuzzSupport.hpp"

#include <pva/pva.hpp>

#include <algorithm>

namespace {

/// Evaluates its arguments: each accessor must answer without touching memory it does not own.
template <typename... T> void use(const T &...) {}

/// Tiles walked per report: enough for the seeds' targets, bounded for a claimed 2^32.
constexpr unsigned kMaxTilesWalked = 16;

void walk(const pva::Report &report) {
  report.poplarVersion().string();
  report.formatVersion();
  auto compilation = report.compilation();
  auto target = compilation.target();
  target.type();
  target.arch();
  target.bytesPerIPU();
  target.clockFrequency();
  auto graph = compilation.graph();
  graph.numVertices();
  graph.numEdges();
  for (const auto &tile : compilation.tiles()) {
    tile.memory().total().includingGaps();
    tile.memory().category().vertexCode.total();
  }
  for (const auto &type : compilation.vertexTypes())
    use(type.name(), type.instances(), type.cycles());
  for (const auto &program : compilation.programs())
    use(program->name(), program->type(), program->firstTile(), program->lastTile());
  auto execution = report.execution();
  execution.totalCycles();
  for (const auto &run : execution.runs())
    for (const auto &step : run.steps())
      use(step.program()->name(), step.cycles());
  for (const auto &step : execution.steps())
    use(step.program()->type(), step.run());
  unsigned tiles = std::min(target.numTiles(), kMaxTilesWalked);
  for (unsigned t = 0; t < tiles; ++t) {
    execution.tileCycles(t);
    for (const auto &block : execution.blocks(t))
      use(block.isStreamCopy(), block.program()->kind());
  }
  try {
    execution.tileCycles(target.numTiles()); // one past the end: an exception, not a read
    popsdk::fuzz::ScratchFile::fail("fuzz_profile", "tileCycles(numTiles) did not throw");
  } catch (const pva::exception &) {
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static popsdk::fuzz::ScratchFile profile(".pop");
  profile.write(data, size);
  try {
    walk(pva::openReport(profile.path()));
  } catch (const pva::exception &) {
  } catch (const std::exception &e) {
    popsdk::fuzz::ScratchFile::fail("fuzz_profile",
                                    std::string("not a pva::exception: ") + e.what());
  }
  return 0;
}
