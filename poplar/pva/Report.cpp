// The pva accessors: thin views over the ReportData loaded by openReport.
#include "ReportData.hpp"

#include <sys/stat.h>

namespace pva {

Version::Version(const std::string &text) : text_(text) {
  // "3.4.0 (d9e4130346)": numbers up to the space, hash inside the parentheses.
  std::size_t pos = 0;
  unsigned *parts[] = {&major_, &minor_, &point_};
  for (unsigned *part : parts) {
    std::size_t end = pos;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9')
      ++end;
    if (end == pos)
      break;
    *part = unsigned(std::strtoul(text.substr(pos, end - pos).c_str(), nullptr, 10));
    pos = end + 1;
    if (end >= text.size() || text[end] != '.')
      break;
  }
  std::size_t open = text.find('('), close = text.rfind(')');
  if (open != std::string::npos && close != std::string::npos && close > open)
    hash_ = text.substr(open + 1, close - open - 1);
}

Target::Type Target::type() const {
  const std::string &t = data_->target.type;
  return t == "IPU"         ? Type::IPU
         : t == "IPU_MODEL" ? Type::IPUModel
         : t == "CPU"       ? Type::CPU
                            : Type::Unknown;
}
std::string Target::arch() const { return data_->target.arch; }
unsigned Target::numIPUs() const { return data_->target.numIPUs; }
unsigned Target::numReplicas() const { return data_->target.numReplicas; }
unsigned Target::tilesPerIpu() const { return data_->target.tilesPerIpu; }
unsigned Target::numTiles() const { return data_->target.numTiles; }
unsigned Target::numWorkerContexts() const { return data_->target.numWorkerContexts; }
std::uint64_t Target::bytesPerTile() const { return data_->target.bytesPerTile; }
std::uint64_t Target::bytesPerIPU() const {
  return data_->target.bytesPerTile * data_->target.tilesPerIpu;
}
double Target::clockFrequency() const { return data_->target.clockHz; }

std::uint64_t Graph::numComputeSets() const { return data_->graph.numComputeSets; }
std::uint64_t Graph::numVertices() const { return data_->graph.numVertices; }
std::uint64_t Graph::numEdges() const { return data_->graph.numEdges; }
std::uint64_t Graph::numVariables() const { return data_->graph.numVariables; }

const std::string &Program::name() const { return data_->programs[index_].name; }
const std::string &Program::kind() const { return data_->programs[index_].kind; }
unsigned Program::firstTile() const { return data_->programs[index_].firstTile; }
unsigned Program::lastTile() const { return data_->programs[index_].lastTile; }
Program::Type Program::type() const {
  const std::string &k = kind();
  if (k == "OnTileExecute")
    return Type::OnTileExecute;
  if (k == "DoExchange")
    return Type::DoExchange;
  if (k == "StreamCopyBegin")
    return Type::StreamCopyBegin;
  // The engine records a host copy as one step; its data movement is the Mid phase.
  if (k == "StreamCopyMid" || k == "StreamCopy")
    return Type::StreamCopyMid;
  if (k == "StreamCopyEnd")
    return Type::StreamCopyEnd;
  if (k == "Sync")
    return Type::Sync;
  return Type::Other;
}

std::shared_ptr<Program> Step::program() const {
  return std::make_shared<Program>(data_, data_->steps[index_].program);
}
unsigned Step::run() const { return data_->steps[index_].run; }
std::uint64_t Step::cyclesFrom() const { return data_->steps[index_].cyclesFrom; }
std::uint64_t Step::cyclesTo() const { return data_->steps[index_].cyclesTo; }

unsigned Run::program() const { return data_->runs[index_].program; }
const std::string &Run::name() const { return data_->runs[index_].name; }
std::uint64_t Run::cyclesFrom() const { return data_->runs[index_].cyclesFrom; }
std::uint64_t Run::cyclesTo() const { return data_->runs[index_].cyclesTo; }
std::vector<Step> Run::steps() const {
  std::vector<Step> out;
  for (unsigned i = 0; i < data_->steps.size(); ++i)
    if (data_->steps[i].run == index_)
      out.emplace_back(data_, i);
  return out;
}

bool Block::isStreamCopy() const {
  Program::Type t = program()->type();
  return t == Program::Type::StreamCopyBegin || t == Program::Type::StreamCopyMid ||
         t == Program::Type::StreamCopyEnd;
}

std::vector<Tile> Compilation::tiles() const {
  std::vector<Tile> out;
  for (unsigned t = 0; t < data_->tiles.size(); ++t)
    out.emplace_back(t, TileMemory(data_->tiles[t].categories, data_->tiles[t].alwaysLive,
                                   data_->tiles[t].notAlwaysLive, data_->tiles[t].gaps));
  return out;
}

const std::string &VertexType::name() const { return data_->vertexTypes[index_].name; }
std::uint64_t VertexType::instances() const { return data_->vertexTypes[index_].instances; }
std::uint64_t VertexType::stateBytes() const { return data_->vertexTypes[index_].stateBytes; }
std::uint64_t VertexType::edgePointerBytes() const {
  return data_->vertexTypes[index_].edgePointerBytes;
}
std::uint64_t VertexType::cycles() const { return data_->vertexTypes[index_].cycles; }

std::vector<VertexType> Compilation::vertexTypes() const {
  std::vector<VertexType> out;
  for (unsigned i = 0; i < data_->vertexTypes.size(); ++i)
    out.emplace_back(data_, i);
  return out;
}

std::vector<std::shared_ptr<Program>> Compilation::programs() const {
  std::vector<std::shared_ptr<Program>> out;
  for (unsigned i = 0; i < data_->programs.size(); ++i)
    out.push_back(std::make_shared<Program>(data_, i));
  return out;
}

std::vector<Run> Execution::runs() const {
  std::vector<Run> out;
  for (unsigned i = 0; i < data_->runs.size(); ++i)
    out.emplace_back(data_, i);
  return out;
}

std::vector<Step> Execution::steps() const {
  std::vector<Step> out;
  for (unsigned i = 0; i < data_->steps.size(); ++i)
    out.emplace_back(data_, i);
  return out;
}

std::vector<Block> Execution::blocks(unsigned tile) const {
  std::vector<Block> out;
  for (unsigned i = 0; i < data_->steps.size(); ++i) {
    const auto &program = data_->programs[data_->steps[i].program];
    if (tile >= program.firstTile && tile <= program.lastTile)
      out.emplace_back(Step(data_, i), tile);
  }
  return out;
}

TileCycles Execution::tileCycles(unsigned tile) const {
  if (tile >= data_->target.numTiles)
    throw exception("pva::Execution::tileCycles: tile " + std::to_string(tile) + " of a " +
                    std::to_string(data_->target.numTiles) + "-tile target ('" + data_->path +
                    "')");
  return tile < data_->tileCycles.size() ? data_->tileCycles[tile] : TileCycles{};
}

std::uint64_t Execution::totalCycles() const { return data_->totalCycles; }

Version Report::poplarVersion() const { return Version(data_->poplarVersion); }
unsigned Report::formatVersion() const { return data_->formatVersion; }

Report openReport(const std::string &profileFilename) {
  return Report(detail::loadReport(profileFilename));
}

Report openReport(const std::string &profileFilename, const std::string &debugFilename) {
  struct stat st;
  if (!debugFilename.empty() && ::stat(debugFilename.c_str(), &st) != 0)
    throw exception("pva::openReport: debug information file '" + debugFilename +
                    "' does not exist");
  return openReport(profileFilename);
}

} // namespace pva
