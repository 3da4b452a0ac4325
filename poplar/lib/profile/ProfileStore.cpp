// profile.pop writer: one SQLite transaction into a temporary file, then an atomic rename.
#include "profile/ProfileStore.hpp"

#include <poplar/exceptions.hpp>

#include <sqlite3.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace poplar::detail {
namespace {

// Kept in step with docs/profile-format.md; libpva reads exactly these tables.
const char *const kSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE target(type TEXT NOT NULL, arch TEXT NOT NULL, num_ipus INTEGER NOT NULL,
  tiles_per_ipu INTEGER NOT NULL, num_tiles INTEGER NOT NULL, num_replicas INTEGER NOT NULL,
  num_worker_contexts INTEGER NOT NULL, bytes_per_tile INTEGER NOT NULL, clock_hz REAL NOT NULL);
CREATE TABLE graph(num_vertices INTEGER NOT NULL, num_edges INTEGER NOT NULL,
  num_variables INTEGER NOT NULL, num_compute_sets INTEGER NOT NULL);
CREATE TABLE memory_category(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
  label TEXT NOT NULL);
CREATE TABLE tile(tile INTEGER PRIMARY KEY, gap_bytes INTEGER NOT NULL,
  always_live_bytes INTEGER NOT NULL, not_always_live_bytes INTEGER NOT NULL);
CREATE TABLE tile_memory(tile INTEGER NOT NULL REFERENCES tile,
  category INTEGER NOT NULL REFERENCES memory_category, bytes INTEGER NOT NULL,
  PRIMARY KEY(tile, category)) WITHOUT ROWID;
CREATE TABLE vertex_type(id INTEGER PRIMARY KEY, name TEXT NOT NULL, instances INTEGER NOT NULL,
  state_bytes INTEGER NOT NULL, edge_pointer_bytes INTEGER NOT NULL, cycles INTEGER NOT NULL);
CREATE TABLE step(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL,
  first_tile INTEGER NOT NULL, last_tile INTEGER NOT NULL);
CREATE TABLE program_run(id INTEGER PRIMARY KEY, program_index INTEGER NOT NULL,
  name TEXT NOT NULL, cycles_from INTEGER NOT NULL, cycles_to INTEGER NOT NULL);
CREATE TABLE step_execution(id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES program_run,
  step INTEGER NOT NULL REFERENCES step, cycles_from INTEGER NOT NULL,
  cycles_to INTEGER NOT NULL);
CREATE TABLE tile_cycles(tile INTEGER PRIMARY KEY, compute_including_idle INTEGER NOT NULL,
  compute_excluding_idle INTEGER NOT NULL, internal_exchange INTEGER NOT NULL,
  global_exchange INTEGER NOT NULL, host_exchange INTEGER NOT NULL, sync INTEGER NOT NULL);
CREATE TABLE execution(total_cycles INTEGER NOT NULL);
)sql";

struct WriteError {
  std::string what;
};

class Database {
public:
  explicit Database(const std::string &path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK)
      fail();
  }
  ~Database() { sqlite3_close(db_); }
  Database(const Database &) = delete;
  Database &operator=(const Database &) = delete;

  void exec(const char *sql) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
      fail();
  }
  sqlite3 *handle() { return db_; }
  [[noreturn]] void fail() { throw WriteError{db_ ? sqlite3_errmsg(db_) : "out of memory"}; }

private:
  sqlite3 *db_ = nullptr;
};

/// One prepared INSERT, bound column by column and run once per row.
class Insert {
public:
  Insert(Database &db, const char *sql) : db_(db) {
    if (sqlite3_prepare_v2(db.handle(), sql, -1, &stmt_, nullptr) != SQLITE_OK)
      db.fail();
  }
  ~Insert() { sqlite3_finalize(stmt_); }
  Insert(const Insert &) = delete;
  Insert &operator=(const Insert &) = delete;

  template <typename... Values> void row(const Values &...values) {
    sqlite3_reset(stmt_);
    int column = 0;
    (bind(++column, values), ...);
    if (sqlite3_step(stmt_) != SQLITE_DONE)
      db_.fail();
  }

private:
  void bind(int column, const std::string &v) {
    check(sqlite3_bind_text(stmt_, column, v.c_str(), int(v.size()), SQLITE_TRANSIENT));
  }
  void bind(int column, const char *v) { bind(column, std::string(v)); }
  void bind(int column, double v) { check(sqlite3_bind_double(stmt_, column, v)); }
  template <typename Int> void bind(int column, Int v) {
    static_assert(std::is_integral_v<Int>);
    check(sqlite3_bind_int64(stmt_, column, sqlite3_int64(v)));
  }
  void check(int rc) {
    if (rc != SQLITE_OK)
      db_.fail();
  }

  Database &db_;
  sqlite3_stmt *stmt_ = nullptr;
};

void writeTables(Database &db, const ProfileData &d) {
  db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;");
  db.exec(kSchema);

  Insert meta(db, "INSERT INTO meta VALUES(?,?)");
  meta.row("format_version", std::to_string(kProfileFormatVersion));
  meta.row("poplar_version", d.poplarVersion);
  meta.row("generator", "poplar-sdk (open, simulated IPU)");

  Insert(db, "INSERT INTO target VALUES(?,?,?,?,?,?,?,?,?)")
      .row(d.targetType, d.arch, d.numIPUs, d.tilesPerIPU, d.numTiles, d.numReplicas,
           d.numWorkerContexts, d.bytesPerTile, d.clockHz);
  Insert(db, "INSERT INTO graph VALUES(?,?,?,?)")
      .row(d.numVertices, d.numEdges, d.numVariables, d.numComputeSets);

  Insert category(db, "INSERT INTO memory_category VALUES(?,?,?)");
  for (unsigned c = 0; c < kNumMemoryCategories; ++c)
    category.row(c, memoryCategoryId(MemoryCategory(c)), memoryCategoryLabel(MemoryCategory(c)));

  // Zero entries are left out: most tiles use a handful of the categories.
  Insert tile(db, "INSERT INTO tile VALUES(?,?,?,?)");
  Insert tileMemory(db, "INSERT INTO tile_memory VALUES(?,?,?)");
  for (std::size_t t = 0; t < d.tileMemory.size(); ++t) {
    tile.row(t, d.tileMemory[t].gaps, d.tileMemory[t].alwaysLive(), d.tileMemory[t].notAlwaysLive);
    for (unsigned c = 0; c < kNumMemoryCategories; ++c)
      if (d.tileMemory[t].bytes[c] != 0)
        tileMemory.row(t, c, d.tileMemory[t].bytes[c]);
  }

  Insert vertexType(db, "INSERT INTO vertex_type VALUES(?,?,?,?,?,?)");
  for (std::size_t i = 0; i < d.vertexTypes.size(); ++i) {
    const auto &v = d.vertexTypes[i];
    vertexType.row(i, v.name, v.instances, v.stateBytes, v.edgePointerBytes, v.cycles);
  }
  Insert step(db, "INSERT INTO step VALUES(?,?,?,?,?)");
  for (std::size_t i = 0; i < d.steps.size(); ++i) {
    const auto &s = d.steps[i];
    step.row(i, s.kind, s.name, s.firstTile, s.lastTile);
  }
  Insert run(db, "INSERT INTO program_run VALUES(?,?,?,?,?)");
  for (std::size_t i = 0; i < d.runs.size(); ++i) {
    const auto &r = d.runs[i];
    run.row(i, r.programIndex, r.name, r.cyclesFrom, r.cyclesTo);
  }
  Insert execution(db, "INSERT INTO step_execution VALUES(?,?,?,?,?)");
  for (std::size_t i = 0; i < d.executions.size(); ++i) {
    const auto &e = d.executions[i];
    execution.row(i, e.run, e.step, e.cyclesFrom, e.cyclesTo);
  }
  Insert tileCycles(db, "INSERT INTO tile_cycles VALUES(?,?,?,?,?,?,?)");
  for (std::size_t t = 0; t < d.tileCycles.size(); ++t) {
    const TileCycles c = d.cyclesOfTile(t);
    tileCycles.row(t, c.computeIncludingIdle, c.computeExcludingIdle, c.internalExchange,
                   c.globalExchange, c.hostExchange, c.sync);
  }
  Insert(db, "INSERT INTO execution VALUES(?)").row(d.totalCycles);
  db.exec("COMMIT;");
}

std::string errnoText() { return std::strerror(errno); }

// With synchronous=OFF SQLite never syncs; do it once so the rename cannot land before the data.
void syncFile(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0 || ::fsync(fd) != 0) {
    std::string why = errnoText();
    if (fd >= 0)
      ::close(fd);
    throw WriteError{"fsync failed: " + why};
  }
  ::close(fd);
}

} // namespace

void writeProfile(const ProfileData &data, const std::string &path) {
  namespace fs = std::filesystem;
  std::string tempPath;
  try {
    fs::path target(path);
    if (target.has_parent_path()) {
      std::error_code ec;
      fs::create_directories(target.parent_path(), ec);
      if (ec)
        throw WriteError{"cannot create directory '" + target.parent_path().string() +
                         "': " + ec.message()};
    }
    std::string templ = path + ".tmp-XXXXXX";
    std::vector<char> name(templ.begin(), templ.end());
    name.push_back('\0');
    int fd = ::mkstemp(name.data());
    if (fd < 0)
      throw WriteError{"cannot create a temporary file next to it: " + errnoText()};
    // mkstemp makes the file private (0600); a profile is meant to be shared like any output.
    ::fchmod(fd, 0644);
    ::close(fd);
    tempPath = name.data();
    {
      Database db(tempPath);
      writeTables(db, data);
    }
    syncFile(tempPath);
    if (std::rename(tempPath.c_str(), path.c_str()) != 0)
      throw WriteError{"cannot rename '" + tempPath + "' to it: " + errnoText()};
  } catch (const WriteError &e) {
    if (!tempPath.empty())
      std::remove(tempPath.c_str());
    throw poplar_error("writeProfile: cannot write profile '" + path + "': " + e.what);
  }
}

} // namespace poplar::detail
