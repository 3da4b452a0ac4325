// printProfileSummary layout, memory category names and the profile.pop writer's file handling.
#include "profile/ProfileData.hpp"
#include "profile/ProfileStore.hpp"
#include "profile/ProfileSummary.hpp"
#include "profile/SummaryFormat.hpp"

#include <poplar/exceptions.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::detail;

namespace {

/// An ipu2 IPUModel target with memory on the first two tiles and one run of two steps.
ProfileData ipu2Profile() {
  ProfileData d;
  d.targetType = "IPU_MODEL";
  d.arch = "ipu2";
  d.numIPUs = 1;
  d.tilesPerIPU = 1472;
  d.numTiles = 1472;
  d.bytesPerTile = 638976;
  d.clockHz = 1.33e9;
  d.poplarVersion = "3.4.0 (0123456789)";
  d.numVertices = 5466;
  d.numEdges = 16256;
  d.numVariables = 41059;
  d.numComputeSets = 20;
  d.tileMemory.resize(1472);
  for (auto &t : d.tileMemory)
    t.bytes[unsigned(MemoryCategory::controlCode)] = 4200; // every tile: 4 - 5 kB bucket
  d.tileMemory[0].bytes[unsigned(MemoryCategory::variables)] = 1200000;
  d.tileMemory[0].bytes[unsigned(MemoryCategory::vertexInstanceState)] = 640;
  d.tileMemory[0].gaps = 16;
  d.tileMemory[1].bytes[unsigned(MemoryCategory::variables)] = 1500;
  d.vertexTypes.push_back({"DotProductVertex", 7, 560, 14000, 224});
  d.vertexTypes.push_back({"ReduceVertex", 1, 80, 3000, 32});
  d.steps.push_back({"StreamCopy", "inputVector", 0, 1471});
  d.steps.push_back({"OnTileExecute", "mulCS", 0, 1});
  d.runs.push_back({0, "", 0, 6681766});
  d.executions.push_back({0, 0, 0, 6000000});
  d.executions.push_back({0, 1, 6000000, 6681766});
  d.tileCycles.resize(1472);
  for (auto &t : d.tileCycles) {
    t.hostExchange = 6000000;
    t.sync = 1000;
  }
  d.tileCycles[0].computeIncludingIdle = 680766 * 1472ull; // tile average 680,766
  d.tileCycles[0].computeExcludingIdle = 1472 * 3;
  d.totalCycles = 6681766;
  return d;
}

std::string summary(const ProfileData &d, const OptionFlags &opts = {}) {
  std::ostringstream os;
  printProfileSummary(os, d, opts);
  return os.str();
}

/// The line of `text` that starts with `prefix`, or "" if there is none.
std::string lineStarting(const std::string &text, const std::string &prefix) {
  std::istringstream is(text);
  for (std::string line; std::getline(is, line);)
    if (line.compare(0, prefix.size(), prefix) == 0)
      return line;
  return "";
}

class TempDir {
public:
  TempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "profile-test-XXXXXX").string();
    path_ = ::mkdtemp(templ.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string operator/(const std::string &name) const { return (path_ / name).string(); }
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

} // namespace

TEST(MemoryCategories, NamesComeFromTheDefTable) {
  EXPECT_STREQ(memoryCategoryId(MemoryCategory::variables), "variables");
  EXPECT_STREQ(memoryCategoryLabel(MemoryCategory::variables), "Variables");
  EXPECT_STREQ(memoryCategoryId(MemoryCategory::vertexInstanceState), "vertexInstanceState");
  EXPECT_STREQ(memoryCategoryLabel(MemoryCategory::vertexInstanceState), "Vertex Instances");
  EXPECT_STREQ(memoryCategoryLabel(MemoryCategory::sharedDataStorage), "Shared Data Storage");
  EXPECT_EQ(kNumMemoryCategories, 18u);
}

TEST(SummaryFormat, ThousandsSeparatorsAndBinaryUnits) {
  EXPECT_EQ(withCommas(std::uint64_t(0)), "0");
  EXPECT_EQ(withCommas(std::uint64_t(999)), "999");
  EXPECT_EQ(withCommas(std::uint64_t(1000)), "1,000");
  EXPECT_EQ(withCommas(std::uint64_t(6681766)), "6,681,766");
  EXPECT_EQ(withCommas(6663550.75), "6,663,550.8");
  EXPECT_EQ(withCommas(9.96), "10.0");
  EXPECT_EQ(withCommas(0.04), "0.0");
  EXPECT_EQ(binarySize(638976), "624.0 kB");
  EXPECT_EQ(binarySize(638976ull * 1472), "897.0 MB");
  EXPECT_EQ(binarySize(262144ull * 1216), "304.0 MB");
  EXPECT_EQ(binarySize(1000), "1000 B");
  EXPECT_EQ(binarySize(638976ull * 1472 * 16), "14.0 GB");
}

TEST(ProfileSummary, TargetBlockMatchesPoplar) {
  std::string s = summary(ipu2Profile());
  EXPECT_EQ(s.rfind("Target:\n", 0), 0u) << s;
  EXPECT_EQ(lineStarting(s, "  Number of IPUs:"), "  Number of IPUs:         1");
  EXPECT_EQ(lineStarting(s, "  Tiles per IPU:"), "  Tiles per IPU:          1,472");
  EXPECT_EQ(lineStarting(s, "  Total Tiles:"), "  Total Tiles:            1,472");
  EXPECT_EQ(lineStarting(s, "  Memory Per-Tile:"), "  Memory Per-Tile:        624.0 kB");
  EXPECT_EQ(lineStarting(s, "  Total Memory:"), "  Total Memory:           897.0 MB");
  EXPECT_EQ(lineStarting(s, "  Clock Speed"), "  Clock Speed (approx):   1,330.0 MHz");
  EXPECT_EQ(lineStarting(s, "  Number of Replicas:"), "  Number of Replicas:     1");
  EXPECT_EQ(lineStarting(s, "  IPUs per Replica:"), "  IPUs per Replica:       1");
  EXPECT_EQ(lineStarting(s, "  Tiles per Replica:"), "  Tiles per Replica:      1,472");
  EXPECT_EQ(lineStarting(s, "  Memory per Replica:"), "  Memory per Replica:     897.0 MB");
}

TEST(ProfileSummary, ReplicasSplitTheTarget) {
  ProfileData d = ipu2Profile();
  d.numIPUs = 4;
  d.numReplicas = 2;
  d.numTiles = 4 * 1472;
  std::string s = summary(d);
  EXPECT_EQ(lineStarting(s, "  Total Memory:"), "  Total Memory:           3.5 GB");
  EXPECT_EQ(lineStarting(s, "  Number of Replicas:"), "  Number of Replicas:     2");
  EXPECT_EQ(lineStarting(s, "  IPUs per Replica:"), "  IPUs per Replica:       2");
  EXPECT_EQ(lineStarting(s, "  Tiles per Replica:"), "  Tiles per Replica:      2,944");
  EXPECT_EQ(lineStarting(s, "  Memory per Replica:"), "  Memory per Replica:     1.8 GB");
}

TEST(ProfileSummary, GraphBlockRightAligned) {
  std::string s = summary(ipu2Profile());
  EXPECT_NE(s.find("\n\nGraph:\n"
                   "  Number of vertices:            5,466\n"
                   "  Number of edges:              16,256\n"
                   "  Number of variables:          41,059\n"
                   "  Number of compute sets:           20\n\n"),
            std::string::npos)
      << s;
}

TEST(ProfileSummary, MemoryTotalsAndCategories) {
  std::string s = summary(ipu2Profile());
  // Excluding gaps: 1472 * 4200 + 1,200,000 + 640 + 1,500 = 7,384,540; plus 16 of gaps.
  EXPECT_EQ(lineStarting(s, "    Including Gaps:"), "    Including Gaps:          7,384,556 B");
  EXPECT_EQ(lineStarting(s, "        Non-interleaved:"),
            "        Non-interleaved:     7,384,540 B");
  EXPECT_EQ(lineStarting(s, "        Interleaved:"), "        Interleaved:                 0 B");
  EXPECT_EQ(lineStarting(s, "          Variables:"),
            "          Variables:                         1,201,500 B");
  EXPECT_EQ(lineStarting(s, "          Control Code:"),
            "          Control Code:                      6,182,400 B");
  EXPECT_EQ(lineStarting(s, "          Host Exchange Packet Headers:"),
            "          Host Exchange Packet Headers:              0 B");
  // Every category of the .def is listed, in its order.
  std::size_t at = s.find("      By Data Type:\n");
  for (unsigned c = 0; c < kNumMemoryCategories; ++c) {
    std::size_t next =
        s.find(std::string("          ") + memoryCategoryLabel(MemoryCategory(c)) + ":", at);
    ASSERT_NE(next, std::string::npos) << memoryCategoryLabel(MemoryCategory(c));
    at = next;
  }
}

TEST(ProfileSummary, VertexData) {
  std::string s = summary(ipu2Profile());
  EXPECT_NE(s.find("        Vertex Data (640B):\n"), std::string::npos) << s;
  EXPECT_EQ(lineStarting(s, "            Internal vertex state:"),
            "            Internal vertex state:            384 B");
  EXPECT_EQ(lineStarting(s, "            Edge pointers:"),
            "            Edge pointers:                    256 B");
  EXPECT_EQ(lineStarting(s, "            DotProductVertex"),
            "            DotProductVertex                                                560 B");
}

TEST(ProfileSummary, TileHistogramAndMaximum) {
  std::string s = summary(ipu2Profile());
  EXPECT_NE(s.find("  By Tile (Excluding Gaps):\n"
                   "    Range (KB) Histogram (Excluding Gaps)               Count (tiles)\n"),
            std::string::npos)
      << s;
  // Tiles hold 4,200 B, 5,700 B and one 1,204,840 B (1,176 kB): 1-2-5 buckets of 100 kB.
  EXPECT_EQ(lineStarting(s, "       0 - 100 "),
            "       0 - 100 ****************************************  1,471");
  EXPECT_EQ(lineStarting(s, "     100 - 200 "), "     100 - 200" + std::string(47, ' ') + "0");
  EXPECT_EQ(lineStarting(s, "   1100 - 1200 "),
            "   1100 - 1200 *                                             1");
  EXPECT_EQ(lineStarting(s, "    Maximum (Including Gaps):"),
            "    Maximum (Including Gaps): 1,204,856 (1,176.6 K) on tile 0");
  EXPECT_EQ(lineStarting(s, "    Maximum (Excluding Gaps):"),
            "    Maximum (Excluding Gaps): 1,204,840 (1,176.6 K) on tile 0");
  EXPECT_NE(s.find("    1 tile(s) out of memory\n"), std::string::npos) << s;
}

TEST(ProfileSummary, SmallTilesUseOneKilobyteBuckets) {
  ProfileData d = ipu2Profile();
  d.tileMemory[0].bytes[unsigned(MemoryCategory::variables)] = 1500;
  std::string s = summary(d);
  EXPECT_EQ(lineStarting(s, "         4 - 5 "),
            "         4 - 5 ****************************************  1,470");
  EXPECT_EQ(lineStarting(s, "         5 - 6 "),
            "         5 - 6 *                                             1");
  // Tile 0 also holds 640 B of vertex state.
  EXPECT_EQ(lineStarting(s, "         6 - 7 "),
            "         6 - 7 *                                             1");
  EXPECT_NE(s.find("    0 tile(s) out of memory\n"), std::string::npos);
}

TEST(ProfileSummary, ExecutionBlock) {
  std::string s = summary(ipu2Profile());
  EXPECT_NE(s.find("Execution:\n\nPrograms executed:\n\n<anonymous>.\n\n"
                   "  Total cycles:                                         6,681,766 "
                   "(approx 5,023.9 microseconds)\n"),
            std::string::npos)
      << s;
  EXPECT_EQ(lineStarting(s, "  Tile average compute cycles (including"),
            "  Tile average compute cycles (including idle threads): 680,766.0 (10.2% of total)");
  EXPECT_EQ(lineStarting(s, "  Tile average compute cycles (excluding"),
            "  Tile average compute cycles (excluding idle threads): 3.0 (0.0% of total)");
  EXPECT_EQ(lineStarting(s, "  Tile average IPU exchange cycles:"),
            "  Tile average IPU exchange cycles:                     0.0 (0.0% of total)");
  EXPECT_EQ(lineStarting(s, "  Tile average global exchange cycles:"),
            "  Tile average global exchange cycles:                  0.0 (0.0% of total)");
  EXPECT_EQ(lineStarting(s, "  Tile average host exchange cycles:"),
            "  Tile average host exchange cycles:                    6,000,000.0 (89.8% of total)");
  EXPECT_EQ(lineStarting(s, "  Tile average sync cycles:"),
            "  Tile average sync cycles:                             1,000.0 (0.0% of total)");
  EXPECT_NE(s.find("  Cycles by vertex type:\n"
                   "    DotProductVertex                   (7 instances):       14,000\n"
                   "    ReduceVertex                       (1 instances):        3,000\n"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("Execution steps"), std::string::npos);
}

TEST(ProfileSummary, ExecutionStepsOnRequest) {
  std::string s = summary(ipu2Profile(), {{"showExecutionSteps", "true"}});
  EXPECT_NE(s.find("  Execution steps (run 0, <anonymous>):\n"), std::string::npos) << s;
  EXPECT_NE(
      s.find("                  0      6,000,000  StreamCopy       0-1471         inputVector\n"),
      std::string::npos)
      << s;
  EXPECT_NE(s.find("          6,000,000        681,766  OnTileExecute    0-1            mulCS\n"),
            std::string::npos)
      << s;
}

TEST(ProfileSummary, NoRunSaysSo) {
  ProfileData d = ipu2Profile();
  d.runs.clear();
  d.executions.clear();
  d.tileCycles.clear();
  d.totalCycles = 0;
  std::string s = summary(d);
  EXPECT_NE(s.find("Memory Usage:\n"), std::string::npos);
  EXPECT_NE(s.find("Execution:\n\n  No programs have been executed.\n"), std::string::npos) << s;
  EXPECT_EQ(s.find("Total cycles"), std::string::npos);
}

TEST(ProfileSummary, OptionalSections) {
  std::string s = summary(ipu2Profile(), {{"showPerIpuMemoryUsage", "true"},
                                          {"showVarStorage", "true"},
                                          {"showOptimizations", "false"}});
  EXPECT_NE(s.find("  By IPU:\n    IPU 0:\n      Including Gaps:        7,384,556 B\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("    Variables:               1,201,500 B (maximum 1,200,000 B on tile 0)\n"),
            std::string::npos)
      << s;
  std::string coloured = summary(ipu2Profile(), {{"colours", "true"}});
  EXPECT_NE(coloured.find("\033[1mTarget:\033[0m\n"), std::string::npos);
}

TEST(ProfileSummary, BadOptionsThrowInvalidOption) {
  try {
    summary(ipu2Profile(), {{"showExecutionStep", "true"}});
    FAIL() << "expected invalid_option";
  } catch (const invalid_option &e) {
    EXPECT_NE(std::string(e.what()).find("'showExecutionStep'"), std::string::npos) << e.what();
  }
  try {
    summary(ipu2Profile(), {{"showExecutionSteps", "yes"}});
    FAIL() << "expected invalid_option";
  } catch (const invalid_option &e) {
    EXPECT_NE(std::string(e.what()).find("'yes'"), std::string::npos) << e.what();
  }
}

TEST(ProfileStore, ReplacesAnOlderFileAndLeavesNoTemporary) {
  TempDir dir;
  std::string path = dir / "profile.pop";
  { std::ofstream(path) << "an older, unrelated file"; }
  writeProfile(ipu2Profile(), path);
  std::ifstream in(path, std::ios::binary);
  std::string header(16, '\0');
  in.read(header.data(), 16);
  EXPECT_EQ(header, std::string("SQLite format 3\0", 16));
  std::vector<std::string> names;
  for (const auto &e : std::filesystem::directory_iterator(dir.path()))
    names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"profile.pop"});
}

TEST(ProfileStore, CreatesTheDirectory) {
  TempDir dir;
  std::string path = dir / "report/sub/profile.pop";
  writeProfile(ipu2Profile(), path);
  EXPECT_TRUE(std::filesystem::exists(path));
}

TEST(ProfileStore, UnwritablePathNamesIt) {
  TempDir dir;
  std::string blocker = dir / "file";
  { std::ofstream(blocker) << "x"; }
  std::string path = blocker + "/profile.pop"; // a directory under a regular file
  try {
    writeProfile(ipu2Profile(), path);
    FAIL() << "expected poplar_error";
  } catch (const poplar_error &e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("writeProfile"), std::string::npos) << e.what();
  }
}
