// A profile that fails to open leaks nothing: neither SQLite's connection (returned even when the
// open fails, and once lost when Reader's constructor threw) nor the file when a check throws
// halfway through a query (the statement was left open, so closing the connection failed).
#include "profile/ProfileData.hpp"
#include "profile/ProfileStore.hpp"

#include <pva/pva.hpp>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

using namespace poplar::detail;
namespace fs = std::filesystem;

namespace {

std::size_t openFileDescriptors() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto &e : fs::directory_iterator("/proc/self/fd"))
    ++n;
  return n;
}

/// Opens `path` `times` times, each expected to fail.
void failToOpen(const std::string &path, int times) {
  for (int i = 0; i < times; ++i)
    EXPECT_THROW(pva::openReport(path), pva::exception);
}

} // namespace

TEST(PvaLeaks, Regression_MissingFileLeaksNoConnection) {
  // SQLite's own count of the memory it holds; first check that it counts at all here.
  sqlite3_int64 before = sqlite3_memory_used();
  sqlite3 *probe = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &probe), SQLITE_OK);
  ASSERT_GT(sqlite3_memory_used(), before) << "SQLite was built without memory statistics";
  sqlite3_close(probe);
  failToOpen("/nonexistent-dir/profile.pop", 1); // SQLite's one-time set-up, if any
  before = sqlite3_memory_used();
  failToOpen("/nonexistent-dir/profile.pop", 50);
  EXPECT_EQ(sqlite3_memory_used(), before);
}

TEST(PvaLeaks, Regression_CheckFailingInsideAQueryClosesTheFile) {
  fs::path dir = fs::temp_directory_path() / ("pva-leak-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string path = (dir / "profile.pop").string();
  ProfileData d;
  d.numIPUs = 1;
  d.tilesPerIPU = 2;
  d.numTiles = 2;
  d.tileMemory.resize(2);
  d.tileMemory[0].bytes[0] = 1;
  writeProfile(d, path);
  // tile_memory names a tile the tile table does not have: the loader's row check throws.
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE tile_memory SET tile=99", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  try {
    pva::openReport(path);
    FAIL() << "opened";
  } catch (const pva::exception &e) {
    EXPECT_NE(std::string(e.what()).find("tile_memory names tile 99"), std::string::npos)
        << e.what();
  }
  std::size_t fds = openFileDescriptors();
  failToOpen(path, 20);
  EXPECT_EQ(openFileDescriptors(), fds);
  fs::remove_all(dir);
}
