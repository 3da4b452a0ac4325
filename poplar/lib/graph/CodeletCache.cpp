// Runs popc as a subprocess (so a broken codelet can never crash the host program) and caches
// its output, as DESIGN.md's runtime-compilation decision asks. Two files an entry: <key>.d, the
// make rule popc -MD wrote (the files the compile read), under the key of what is known before
// compiling; and the object, under a key that adds the content of each of those files.
#include "graph/CodeletCache.hpp"
#include "graph/DependencyRule.hpp"

#include "core/Bytes.hpp"
#include "core/Errors.hpp"
#include "core/Logging.hpp"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <vector>

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

/// "%016x" of a key: cache file names.
std::string hex(std::uint64_t key) {
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(key));
  return name;
}

/// Hashes `text` with its length first, so that consecutive fields cannot run into each other.
std::uint64_t mix(std::uint64_t key, std::string_view text) {
  return fnv1a(text, fnv1a(std::to_string(text.size()) + ":", key));
}

/// Whether `flags` name an include directory relative to the working directory (-Idir, -I dir);
/// quoting is not parsed, so any quote counts as relative.
bool namesRelativeInclude(const std::string &flags) {
  if (flags.find_first_of("'\"") != std::string::npos)
    return true;
  std::istringstream words(flags);
  std::string word;
  while (words >> word) {
    if (word.rfind("-I", 0) != 0)
      continue;
    std::string dir = word.substr(2);
    if (dir.empty() && !(words >> dir))
      return false;
    if (!fs::path(dir).is_absolute())
      return true;
  }
  return false;
}

/// What is known of a compile before popc runs: the source text, flags, target and popc, the
/// source's folder (its quoted #includes resolve there first) and, when an -I is relative, the
/// working directory. It names the dependency list of the last compile of that source.
std::uint64_t compileKey(const std::string &sourcePath, const std::string &compileFlags,
                         const std::string &target, const std::string &popc) {
  std::uint64_t key = mix(0, readFile(sourcePath));
  key = mix(key, compileFlags);
  key = mix(key, target);
  key = mix(key, std::to_string(popcIdentity(popc)));
  std::error_code ec;
  key = mix(key, fs::weakly_canonical(fs::absolute(sourcePath, ec), ec).parent_path().string());
  if (namesRelativeInclude(compileFlags))
    key = mix(key, fs::current_path(ec).string());
  return key;
}

/// The entry's own key: the compile key and the path and content of every file the compile read,
/// so that a changed header names another entry. nullopt if one of them cannot be read now.
/// The first file of the list is the source itself, whose text and folder the compile key holds
/// already; its name is left out, since addCodelets(stream) compiles a temporary file that is
/// gone by the next call (and the same text under another name compiles alike).
std::optional<std::uint64_t> entryKey(std::uint64_t key, const std::vector<std::string> &deps) {
  std::error_code ec;
  for (std::size_t i = 1; i < deps.size(); ++i) {
    if (!fs::is_regular_file(deps[i], ec))
      return std::nullopt;
    key = mix(mix(key, deps[i]), readFile(deps[i]));
  }
  return key;
}

/// The cached object for `key`, if the dependency list `manifest` names one whose files are all
/// as they were when it was compiled.
std::optional<fs::path> lookup(const fs::path &dir, const fs::path &manifest, std::uint64_t key) {
  auto deps = parseDependencyRule(readFile(manifest.string()));
  auto found = deps ? entryKey(key, *deps) : std::nullopt;
  std::error_code ec;
  if (!found || !fs::is_regular_file(dir / (hex(*found) + ".gp"), ec))
    return std::nullopt;
  return dir / (hex(*found) + ".gp");
}

/// A compile's temporary files, removed however it ends (those renamed into the cache are gone
/// from these names already).
struct TemporaryFiles {
  std::vector<fs::path> paths;
  ~TemporaryFiles() {
    std::error_code ec;
    for (const auto &p : paths)
      fs::remove(p, ec);
  }
};

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
  std::uint64_t key = compileKey(sourcePath, compileFlags, target, popc);
  std::error_code ec;
  fs::path dir = cacheDirectory();
  fs::create_directories(dir, ec);
  if (ec)
    raise<graph_object_load_error>("Graph::addCodelets: cannot create the codelet cache '",
                                   dir.string(), "': ", ec.message());
  fs::path manifest = dir / (hex(key) + ".d");
  if (auto entry = lookup(dir, manifest, key)) {
    logger().debug("addCodelets: {} from cache {}", sourcePath, entry->string());
    return entry->string();
  }

  // Private names for this compile's output: concurrent compiles never share a half-written
  // file, and each finished file is renamed into place whole.
  std::string stem = hex(key) + "." + uniqueTempSuffix();
  TemporaryFiles temps{{dir / (stem + ".gp.tmp"), dir / (stem + ".d.tmp"), dir / (stem + ".log")}};
  const fs::path &object = temps.paths[0], &deps = temps.paths[1], &log = temps.paths[2];
  std::string command = shellQuote(popc) + " " + compileFlags;
  if (!target.empty())
    command += " --target " + shellQuote(target);
  command += " " + shellQuote(sourcePath) + " -o " + shellQuote(object.string()) + " -MD -MF " +
             shellQuote(deps.string()) + " > " + shellQuote(log.string()) + " 2>&1";
  logger().info("addCodelets: compiling {}: {}", sourcePath, command);
  int status = std::system(command.c_str());
  auto read = parseDependencyRule(readFile(deps.string()));
  if (status != 0 || !fs::is_regular_file(object, ec) || !read)
    raise<graph_object_load_error>("Graph::addCodelets: popc failed to compile '", sourcePath,
                                   "' (exit status ", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                                   read ? "" : ", no dependency list", "):\n",
                                   readFile(log.string()));
  auto found = entryKey(key, *read);
  if (!found)
    raise<graph_object_load_error>("Graph::addCodelets: a file that compiling '", sourcePath,
                                   "' read was removed while popc ran");
  // The object first, then the list that finds it: a reader between the two renames sees the
  // old list, whose key names the old object or none, never a mismatched pair.
  fs::path entry = dir / (hex(*found) + ".gp");
  fs::rename(object, entry, ec);
  if (!ec)
    fs::rename(deps, manifest, ec);
  if (ec)
    raise<graph_object_load_error>("Graph::addCodelets: cannot store '", entry.string(),
                                   "' in the codelet cache: ", ec.message());
  return entry.string();
}

std::string uniqueTempSuffix() {
  // The pid alone is shared by threads: two of them compiling the same codelet at once wrote
  // the same temporary, and one's rename then found it gone.
  static std::atomic<std::uint64_t> next{0};
  return std::to_string(::getpid()) + "-" + std::to_string(next++);
}

void evictCodelet(const std::string &gpPath) {
  std::error_code ec;
  fs::remove(gpPath, ec);
}

} // namespace poplar::detail
