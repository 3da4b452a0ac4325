// libpva against profiles written by the Engine's writer: every accessor, and the error paths.
#include "profile/ProfileData.hpp"
#include "profile/ProfileStore.hpp"

#include <pva/pva.hpp>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace poplar::detail;

namespace {

class TempDir {
public:
  TempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "pva-test-XXXXXX").string();
    path_ = ::mkdtemp(templ.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string operator/(const std::string &name) const { return (path_ / name).string(); }

private:
  std::filesystem::path path_;
};

/// Two tiles; tile 0 holds 100 * (c + 1) bytes of category c, tile 1 only variables.
/// One run of a stream copy on both tiles and a compute set on tile 1 only.
ProfileData twoTileProfile() {
  ProfileData d;
  d.targetType = "IPU_MODEL";
  d.arch = "ipu2";
  d.numIPUs = 1;
  d.tilesPerIPU = 2;
  d.numTiles = 2;
  d.numWorkerContexts = 6;
  d.bytesPerTile = 638976;
  d.clockHz = 1.33e9;
  d.poplarVersion = "3.4.0 (d9e4130346)";
  d.numVertices = 12;
  d.numEdges = 34;
  d.numVariables = 5;
  d.numComputeSets = 3;
  d.tileMemory.resize(2);
  for (unsigned c = 0; c < kNumMemoryCategories; ++c)
    d.tileMemory[0].bytes[c] = 100 * (c + 1);
  d.tileMemory[0].gaps = 7;
  d.tileMemory[1].bytes[unsigned(MemoryCategory::variables)] = 4096;
  d.vertexTypes.push_back({"DotProductVertex", 12, 480, 9000, 96});
  d.steps.push_back({"StreamCopy", "inputVector", 0, 1});
  d.steps.push_back({"OnTileExecute", "mulCS", 1, 1});
  d.runs.push_back({2, "main", 0, 1500});
  d.executions.push_back({0, 0, 0, 1000});
  d.executions.push_back({0, 1, 1000, 1500});
  d.tileCycles.resize(2);
  d.totalCycles = 1500;
  return d;
}

void expectOpenFails(const std::string &path, const std::string &because) {
  try {
    pva::openReport(path);
    FAIL() << "expected pva::exception for " << path;
  } catch (const pva::exception &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("'" + path + "'"), std::string::npos) << what;
    EXPECT_NE(what.find(because), std::string::npos) << what;
  }
}

} // namespace

TEST(Pva, TargetGraphAndVersion) {
  TempDir dir;
  writeProfile(twoTileProfile(), dir / "profile.pop");
  pva::Report report = pva::openReport(dir / "profile.pop");

  EXPECT_EQ(report.formatVersion(), unsigned(kProfileFormatVersion));
  pva::Version v = report.poplarVersion();
  EXPECT_EQ(v.string(), "3.4.0 (d9e4130346)");
  EXPECT_EQ(v.majorVer(), 3u);
  EXPECT_EQ(v.minorVer(), 4u);
  EXPECT_EQ(v.pointVer(), 0u);
  EXPECT_EQ(v.packageHash(), "d9e4130346");

  pva::Target t = report.compilation().target();
  EXPECT_EQ(t.type(), pva::Target::Type::IPUModel);
  EXPECT_EQ(t.arch(), "ipu2");
  EXPECT_EQ(t.numIPUs(), 1u);
  EXPECT_EQ(t.numReplicas(), 1u);
  EXPECT_EQ(t.tilesPerIpu(), 2u);
  EXPECT_EQ(t.numTiles(), 2u);
  EXPECT_EQ(t.numWorkerContexts(), 6u);
  EXPECT_EQ(t.bytesPerTile(), 638976u);
  EXPECT_EQ(t.bytesPerIPU(), 2u * 638976u);
  EXPECT_DOUBLE_EQ(t.clockFrequency(), 1.33e9);

  pva::Graph g = report.compilation().graph();
  EXPECT_EQ(g.numVertices(), 12u);
  EXPECT_EQ(g.numEdges(), 34u);
  EXPECT_EQ(g.numVariables(), 5u);
  EXPECT_EQ(g.numComputeSets(), 3u);
}

TEST(Pva, TileMemoryEveryCategory) {
  TempDir dir;
  writeProfile(twoTileProfile(), dir / "profile.pop");
  std::vector<pva::Tile> tiles = pva::openReport(dir / "profile.pop").compilation().tiles();
  ASSERT_EQ(tiles.size(), 2u);
  EXPECT_EQ(tiles[0].index(), 0u);
  EXPECT_EQ(tiles[1].index(), 1u);

  // Generated from the .def: a category added there but not to pva.hpp fails to compile here.
  const pva::MemoryCategories &c0 = tiles[0].memory().category();
  std::uint64_t expected = 0, sum = 0;
#define MEMORY_CATEGORY(id, label)                                                                 \
  expected += 100;                                                                                 \
  sum += expected;                                                                                 \
  EXPECT_EQ(c0.id.total(), expected) << #id;
#include "profile/MemoryCategories.def"
  EXPECT_EQ(tiles[0].memory().total().excludingGaps(), sum);
  EXPECT_EQ(tiles[0].memory().total().includingGaps(), sum + 7);

  EXPECT_EQ(tiles[1].memory().category().variables.total(), 4096u);
  EXPECT_EQ(tiles[1].memory().category().vertexCode.total(), 0u);
  EXPECT_EQ(tiles[1].memory().total().includingGaps(), 4096u);
}

TEST(Pva, RunsStepsAndPrograms) {
  TempDir dir;
  writeProfile(twoTileProfile(), dir / "profile.pop");
  pva::Report report = pva::openReport(dir / "profile.pop");

  auto programs = report.compilation().programs();
  ASSERT_EQ(programs.size(), 2u);
  EXPECT_EQ(programs[0]->name(), "inputVector");
  EXPECT_EQ(programs[0]->kind(), "StreamCopy");
  EXPECT_EQ(programs[0]->type(), pva::Program::Type::StreamCopyMid);
  EXPECT_EQ(programs[1]->type(), pva::Program::Type::OnTileExecute);
  EXPECT_EQ(programs[1]->firstTile(), 1u);
  EXPECT_EQ(programs[1]->lastTile(), 1u);

  pva::Execution ex = report.execution();
  EXPECT_EQ(ex.totalCycles(), 1500u);
  auto runs = ex.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].program(), 2u);
  EXPECT_EQ(runs[0].name(), "main");
  EXPECT_EQ(runs[0].cyclesFrom(), 0u);
  EXPECT_EQ(runs[0].cyclesTo(), 1500u);
  EXPECT_EQ(runs[0].steps().size(), 2u);

  auto steps = ex.steps();
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[1].program()->name(), "mulCS");
  EXPECT_EQ(steps[1].run(), 0u);
  EXPECT_EQ(steps[1].cyclesFrom(), 1000u);
  EXPECT_EQ(steps[1].cyclesTo(), 1500u);
  EXPECT_EQ(steps[1].cycles(), 500u);
}

TEST(Pva, BlocksListTheStepsATileTakesPartIn) {
  TempDir dir;
  writeProfile(twoTileProfile(), dir / "profile.pop");
  pva::Execution ex = pva::openReport(dir / "profile.pop").execution();

  std::vector<pva::Block> tile0 = ex.blocks(0);
  ASSERT_EQ(tile0.size(), 1u);
  EXPECT_TRUE(tile0[0].isStreamCopy());
  EXPECT_FALSE(tile0[0].isCommon());
  EXPECT_EQ(tile0[0].program()->type(), pva::Program::Type::StreamCopyMid);
  EXPECT_EQ(tile0[0].tile(), 0u);
  EXPECT_EQ(tile0[0].cyclesFrom(), 0u);
  EXPECT_EQ(tile0[0].cyclesTo(), 1000u);

  std::vector<pva::Block> tile1 = ex.blocks(1);
  ASSERT_EQ(tile1.size(), 2u);
  EXPECT_EQ(tile1[1].program()->name(), "mulCS");
  EXPECT_TRUE(tile1[1].isCommon());
  EXPECT_FALSE(tile1[1].isStreamCopy());
  EXPECT_FALSE(tile1[1].isOverflow());
  EXPECT_FALSE(tile1[1].isBlockFlush());
  EXPECT_EQ(tile1[1].tile(), 1u);
  EXPECT_EQ(tile1[1].cyclesFrom(), 1000u);

  EXPECT_TRUE(ex.blocks(2).empty());
}

TEST(Pva, VertexTypesWithInstancesStateAndCycles) {
  TempDir dir;
  ProfileData d = twoTileProfile();
  d.vertexTypes.push_back({"popops::Fill<half>", 2, 40, 0, 16}); // name, instances, state, cycles
  writeProfile(d, dir / "profile.pop");
  auto types = pva::openReport(dir / "profile.pop").compilation().vertexTypes();
  ASSERT_EQ(types.size(), 2u);
  EXPECT_EQ(types[0].name(), "DotProductVertex");
  EXPECT_EQ(types[0].instances(), 12u);
  EXPECT_EQ(types[0].stateBytes(), 480u);
  EXPECT_EQ(types[0].edgePointerBytes(), 96u);
  EXPECT_EQ(types[0].cycles(), 9000u);
  EXPECT_EQ(types[1].name(), "popops::Fill<half>");
  EXPECT_EQ(types[1].edgePointerBytes(), 16u);
  EXPECT_EQ(types[1].cycles(), 0u) << "a type that has not run has no cycles";
}

TEST(Pva, TileCyclesPerPhase) {
  TempDir dir;
  ProfileData d = twoTileProfile();
  d.tileCycles[1] = {400, 300, 20, 0, 1000, 80}; // compute incl./excl. idle, exchanges, sync
  writeProfile(d, dir / "profile.pop");
  pva::Execution e = pva::openReport(dir / "profile.pop").execution();
  pva::TileCycles t = e.tileCycles(1);
  EXPECT_EQ(t.computeIncludingIdle, 400u);
  EXPECT_EQ(t.computeExcludingIdle, 300u);
  EXPECT_EQ(t.internalExchange, 20u);
  EXPECT_EQ(t.globalExchange, 0u);
  EXPECT_EQ(t.hostExchange, 1000u);
  EXPECT_EQ(t.sync, 80u);
  EXPECT_EQ(e.tileCycles(0).computeIncludingIdle, 0u);
  EXPECT_THROW(e.tileCycles(2), pva::exception);
}

TEST(Pva, ACompileOnlyProfileHasNoExecution) {
  TempDir dir;
  ProfileData d = twoTileProfile();
  d.runs.clear();
  d.executions.clear();
  d.tileCycles.clear();
  d.totalCycles = 0;
  writeProfile(d, dir / "profile.pop");
  pva::Report report = pva::openReport(dir / "profile.pop");
  EXPECT_TRUE(report.execution().runs().empty());
  EXPECT_TRUE(report.execution().blocks(0).empty());
  EXPECT_EQ(report.execution().tileCycles(1).computeIncludingIdle, 0u);
  EXPECT_EQ(report.compilation().programs().size(), 2u);
}

TEST(Pva, RewritingReplacesTheReport) {
  TempDir dir;
  writeProfile(twoTileProfile(), dir / "profile.pop");
  ProfileData d = twoTileProfile();
  d.numComputeSets = 9;
  writeProfile(d, dir / "profile.pop");
  EXPECT_EQ(pva::openReport(dir / "profile.pop").compilation().graph().numComputeSets(), 9u);
}

TEST(Pva, MissingFileNamesIt) { expectOpenFails("/nonexistent-dir/profile.pop", "unable to open"); }

TEST(Pva, CorruptFileNamesIt) {
  TempDir dir;
  std::string path = dir / "profile.pop";
  {
    std::ofstream out(path);
    for (int i = 0; i < 100; ++i)
      out << "this is not an SQLite database\n";
  }
  expectOpenFails(path, "not a database");
}

TEST(Pva, EmptyFileIsNotAProfile) {
  TempDir dir;
  std::string path = dir / "profile.pop";
  std::ofstream(path).close();
  expectOpenFails(path, "no such table: meta");
}

TEST(Pva, NewerFormatIsRefused) {
  TempDir dir;
  std::string path = dir / "profile.pop";
  writeProfile(twoTileProfile(), path);
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE meta SET value='99' WHERE key='format_version'", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  expectOpenFails(path, "format version 99 is not supported");
}

TEST(Pva, DebugInfoFileMustExistWhenGiven) {
  TempDir dir;
  writeProfile(twoTileProfile(), dir / "profile.pop");
  EXPECT_EQ(pva::openReport(dir / "profile.pop", "").compilation().target().numTiles(), 2u);
  EXPECT_THROW(pva::openReport(dir / "profile.pop", dir / "debug.cbor"), pva::exception);
}
