// Runs popc as a subprocess (so a broken codelet can never crash the host program) and caches
// its output, as DESIGN.md's runtime-compilation decision asks.
#include "graph/CodeletCache.hpp"

#include "core/Bytes.hpp"
#include "core/Errors.hpp"
#include "core/Logging.hpp"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>

namespace poplar::detail {

namespace fs = std::filesystem;

namespace {

bool isExecutable(const fs::path &p) {
  return ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p);
}

fs::path cacheDirectory() {
  if (const char *dir = std::getenv("POPLAR_CODELET_CACHE"))
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"))
    return fs::path(xdg) / "poplar-sdk" / "codelets";
  if (const char *home = std::getenv("HOME"))
    return fs::path(home) / ".cache" / "poplar-sdk" / "codelets";
  return fs::temp_directory_path() / "poplar-sdk-codelets";
}

/// Quotes one argument for /bin/sh.
std::string shellQuote(const std::string &s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// The hash of the popc executable, computed once per process per (path, size, mtime): hashing
/// the binary on every addCodelets call cost milliseconds (docs/performance.md).
std::uint64_t popcIdentity(const std::string &popc) {
  static std::mutex mutex;
  static std::map<std::string, std::pair<std::string, std::uint64_t>> known;
  std::error_code ec;
  auto stamp = std::to_string(fs::file_size(popc, ec)) + ":" +
               std::to_string(fs::last_write_time(popc, ec).time_since_epoch().count());
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known.find(popc);
  if (it == known.end() || it->second.first != stamp)
    it = known.insert_or_assign(popc, std::make_pair(stamp, fnv1a(readFile(popc)))).first;
  return it->second.second;
}

} // namespace

std::string findPopc() {
  if (const char *env = std::getenv("POPC"))
    if (isExecutable(env))
      return env;
  // popc is installed in <prefix>/bin next to <prefix>/lib/libpoplar.so.
  Dl_info info;
  if (::dladdr(reinterpret_cast<void *>(&findPopc), &info) && info.dli_fname) {
    fs::path lib = fs::absolute(info.dli_fname).parent_path();
    for (auto candidate : {lib / ".." / "bin" / "popc", lib / ".." / "popc" / "popc"})
      if (isExecutable(candidate))
        return fs::weakly_canonical(candidate).string();
  }
  if (const char *path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty() && isExecutable(fs::path(dir) / "popc"))
        return (fs::path(dir) / "popc").string();
  }
  raise<graph_object_load_error>("Graph::addCodelets: cannot find popc to compile codelet "
                                 "sources (looked at $POPC, beside libpoplar and on PATH)");
}

std::string compileCodeletCached(const std::string &sourcePath, const std::string &compileFlags,
                                 const std::string &target) {
  std::string popc = findPopc();
  std::string source = readFile(sourcePath);
  std::uint64_t key = fnv1a(source);
  key = fnv1a(compileFlags, key);
  key = fnv1a(target, key);
  key ^= popcIdentity(popc) * 31;
  std::error_code ec;
  fs::path dir = cacheDirectory();
  fs::create_directories(dir, ec);
  if (ec)
    raise<graph_object_load_error>("Graph::addCodelets: cannot create the codelet cache '",
                                   dir.string(), "': ", ec.message());
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.gp", static_cast<unsigned long long>(key));
  fs::path entry = dir / name;
  if (fs::is_regular_file(entry, ec)) {
    logger().debug("addCodelets: {} from cache {}", sourcePath, entry.string());
    return entry.string();
  }
  fs::path temp = dir / (std::string(name) + ".tmp" + std::to_string(::getpid()));
  fs::path log = dir / (std::string(name) + ".log" + std::to_string(::getpid()));
  std::string command = shellQuote(popc) + " " + compileFlags;
  if (!target.empty())
    command += " --target " + shellQuote(target);
  command += " " + shellQuote(sourcePath) + " -o " + shellQuote(temp.string()) + " > " +
             shellQuote(log.string()) + " 2>&1";
  logger().info("addCodelets: compiling {}: {}", sourcePath, command);
  int status = std::system(command.c_str());
  std::string diagnostics = readFile(log.string());
  fs::remove(log, ec);
  if (status != 0 || !fs::is_regular_file(temp, ec)) {
    fs::remove(temp, ec);
    raise<graph_object_load_error>("Graph::addCodelets: popc failed to compile '", sourcePath,
                                   "' (exit status ", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                                   "):\n", diagnostics);
  }
  fs::rename(temp, entry, ec); // atomic: a concurrent compile of the same key is harmless
  if (ec)
    raise<graph_object_load_error>("Graph::addCodelets: cannot store '", entry.string(),
                                   "' in the codelet cache: ", ec.message());
  return entry.string();
}

void evictCodelet(const std::string &gpPath) {
  std::error_code ec;
  fs::remove(gpPath, ec);
}

} // namespace poplar::detail
