// Loads profile.pop (schema in docs/profile-format.md) into ReportData with SQLite's C API.
#include "ReportData.hpp"

#include <sqlite3.h>

#include <functional>
#include <memory>

namespace pva::detail {
namespace {

/// The newest profile.pop schema this reader understands.
constexpr unsigned kMaxFormatVersion = 2;

/// Closes a connection: a member, so that a constructor that throws still closes it (SQLite
/// returns a handle even when the open fails). close_v2 also copes with statements left open.
struct CloseDatabase {
  void operator()(sqlite3 *db) const { sqlite3_close_v2(db); }
};
struct FinalizeStatement {
  void operator()(sqlite3_stmt *stmt) const { sqlite3_finalize(stmt); }
};

class Reader {
public:
  explicit Reader(const std::string &path) : path_(path) {
    // Read-only and no create: a missing file must be an error, not a new empty database.
    sqlite3 *db = nullptr;
    int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    db_.reset(db);
    if (rc != SQLITE_OK)
      fail();
  }

  /// Runs `sql` and calls `row` with the statement positioned on each result row; the statement
  /// is finalised however `row` leaves (its checks throw).
  void query(const char *sql, const std::function<void(sqlite3_stmt *)> &row) {
    sqlite3_stmt *raw = nullptr;
    int rc = sqlite3_prepare_v2(db_.get(), sql, -1, &raw, nullptr);
    std::unique_ptr<sqlite3_stmt, FinalizeStatement> stmt(raw);
    if (rc != SQLITE_OK)
      fail();
    while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW)
      row(stmt.get());
    if (rc != SQLITE_DONE)
      fail();
  }

  [[noreturn]] void fail(const std::string &why = "") const {
    throw exception(
        "pva::openReport: cannot read profile '" + path_ + "': " +
        (why.empty() ? std::string(db_ ? sqlite3_errmsg(db_.get()) : "out of memory") : why));
  }

private:
  std::string path_;
  std::unique_ptr<sqlite3, CloseDatabase> db_;
};

std::string text(sqlite3_stmt *s, int column) {
  const unsigned char *t = sqlite3_column_text(s, column);
  return t ? reinterpret_cast<const char *>(t) : "";
}
std::uint64_t u64(sqlite3_stmt *s, int column) {
  return static_cast<std::uint64_t>(sqlite3_column_int64(s, column));
}
unsigned u32(sqlite3_stmt *s, int column) {
  return static_cast<unsigned>(sqlite3_column_int64(s, column));
}

void loadMeta(Reader &r, ReportData &d) {
  bool haveVersion = false;
  r.query("SELECT key, value FROM meta", [&](sqlite3_stmt *s) {
    std::string key = text(s, 0);
    if (key == "format_version") {
      d.formatVersion = unsigned(std::strtoul(text(s, 1).c_str(), nullptr, 10));
      haveVersion = true;
    } else if (key == "poplar_version") {
      d.poplarVersion = text(s, 1);
    }
  });
  if (!haveVersion)
    r.fail("the meta table has no format_version");
  if (d.formatVersion == 0 || d.formatVersion > kMaxFormatVersion)
    r.fail("format version " + std::to_string(d.formatVersion) +
           " is not supported (this libpva reads 1 to " + std::to_string(kMaxFormatVersion) + ")");
}

void loadTargetAndGraph(Reader &r, ReportData &d) {
  bool haveTarget = false;
  r.query("SELECT type, arch, num_ipus, tiles_per_ipu, num_tiles, num_replicas, "
          "num_worker_contexts, bytes_per_tile, clock_hz FROM target",
          [&](sqlite3_stmt *s) {
            auto &t = d.target;
            t.type = text(s, 0);
            t.arch = text(s, 1);
            t.numIPUs = u32(s, 2);
            t.tilesPerIpu = u32(s, 3);
            t.numTiles = u32(s, 4);
            t.numReplicas = u32(s, 5);
            t.numWorkerContexts = u32(s, 6);
            t.bytesPerTile = u64(s, 7);
            t.clockHz = sqlite3_column_double(s, 8);
            haveTarget = true;
          });
  if (!haveTarget)
    r.fail("the target table is empty");
  r.query("SELECT num_vertices, num_edges, num_variables, num_compute_sets FROM graph",
          [&](sqlite3_stmt *s) {
            d.graph.numVertices = u64(s, 0);
            d.graph.numEdges = u64(s, 1);
            d.graph.numVariables = u64(s, 2);
            d.graph.numComputeSets = u64(s, 3);
          });
}

void loadTiles(Reader &r, ReportData &d) {
  // Version 1 has no liveness: everything was always-live, the sum of the categories.
  bool liveness = d.formatVersion >= 2;
  r.query(liveness ? "SELECT tile, gap_bytes, always_live_bytes, not_always_live_bytes FROM tile "
                     "ORDER BY tile"
                   : "SELECT tile, gap_bytes FROM tile ORDER BY tile",
          [&](sqlite3_stmt *s) {
            if (u32(s, 0) != d.tiles.size())
              r.fail("tile " + std::to_string(d.tiles.size()) + " is missing from the tile table");
            d.tiles.emplace_back();
            d.tiles.back().gaps = u64(s, 1);
            if (liveness) {
              d.tiles.back().alwaysLive = u64(s, 2);
              d.tiles.back().notAlwaysLive = u64(s, 3);
            }
          });
  r.query("SELECT m.tile, c.name, m.bytes FROM tile_memory m "
          "JOIN memory_category c ON c.id = m.category",
          [&](sqlite3_stmt *s) {
            unsigned tile = u32(s, 0);
            if (tile >= d.tiles.size())
              r.fail("tile_memory names tile " + std::to_string(tile) + " of " +
                     std::to_string(d.tiles.size()));
            d.tiles[tile].bytes += u64(s, 2);
            // A category this libpva has no member for (from a newer writer) counts only in the
            // total.
            if (auto *usage = categoryByName(d.tiles[tile].categories, text(s, 1)))
              *usage = MemoryCategoryUsage(u64(s, 2));
          });
  if (!liveness)
    for (auto &t : d.tiles)
      t.alwaysLive = t.bytes;
}

void loadVertexTypes(Reader &r, ReportData &d) {
  r.query("SELECT name, instances, state_bytes, edge_pointer_bytes, cycles FROM vertex_type "
          "ORDER BY id",
          [&](sqlite3_stmt *s) {
            d.vertexTypes.push_back({text(s, 0), u64(s, 1), u64(s, 2), u64(s, 3), u64(s, 4)});
          });
}

void loadExecution(Reader &r, ReportData &d) {
  r.query("SELECT kind, name, first_tile, last_tile FROM step ORDER BY id", [&](sqlite3_stmt *s) {
    d.programs.push_back({text(s, 0), text(s, 1), u32(s, 2), u32(s, 3)});
  });
  r.query("SELECT program_index, name, cycles_from, cycles_to FROM program_run ORDER BY id",
          [&](sqlite3_stmt *s) {
            d.runs.push_back({u32(s, 0), text(s, 1), u64(s, 2), u64(s, 3)});
          });
  r.query("SELECT run, step, cycles_from, cycles_to FROM step_execution ORDER BY id",
          [&](sqlite3_stmt *s) {
            StepData step{u32(s, 0), u32(s, 1), u64(s, 2), u64(s, 3)};
            if (step.program >= d.programs.size() || step.run >= d.runs.size())
              r.fail("step_execution refers to step " + std::to_string(step.program) + " of run " +
                     std::to_string(step.run) + ", which do not exist");
            d.steps.push_back(step);
          });
  r.query(
      "SELECT tile, compute_including_idle, compute_excluding_idle, internal_exchange, "
      "global_exchange, host_exchange, sync FROM tile_cycles ORDER BY tile",
      [&](sqlite3_stmt *s) {
        if (u32(s, 0) != d.tileCycles.size())
          r.fail("tile " + std::to_string(d.tileCycles.size()) +
                 " is missing from the tile_cycles table");
        d.tileCycles.push_back({u64(s, 1), u64(s, 2), u64(s, 3), u64(s, 4), u64(s, 5), u64(s, 6)});
      });
  r.query("SELECT total_cycles FROM execution",
          [&](sqlite3_stmt *s) { d.totalCycles = u64(s, 0); });
}

} // namespace

MemoryCategoryUsage *categoryByName(MemoryCategories &c, const std::string &name) {
#define PVA_CATEGORY(id)                                                                           \
  if (name == #id)                                                                                 \
    return &c.id;
  PVA_CATEGORY(variables)
  PVA_CATEGORY(constants)
  PVA_CATEGORY(hostExchangePacketHeaders)
  PVA_CATEGORY(globalExchangePacketHeaders)
  PVA_CATEGORY(stack)
  PVA_CATEGORY(vertexInstanceState)
  PVA_CATEGORY(copyDescriptor)
  PVA_CATEGORY(vectorListDescriptor)
  PVA_CATEGORY(vertexFieldData)
  PVA_CATEGORY(controlTable)
  PVA_CATEGORY(controlCode)
  PVA_CATEGORY(vertexCode)
  PVA_CATEGORY(internalExchangeCode)
  PVA_CATEGORY(hostExchangeCode)
  PVA_CATEGORY(globalExchangeCode)
  PVA_CATEGORY(instrumentationResults)
  PVA_CATEGORY(sharedCodeStorage)
  PVA_CATEGORY(sharedDataStorage)
#undef PVA_CATEGORY
  return nullptr;
}

std::shared_ptr<const ReportData> loadReport(const std::string &path) {
  auto d = std::make_shared<ReportData>();
  d->path = path;
  Reader r(path);
  loadMeta(r, *d);
  loadTargetAndGraph(r, *d);
  loadTiles(r, *d);
  loadVertexTypes(r, *d);
  loadExecution(r, *d);
  return d;
}

} // namespace pva::detail
