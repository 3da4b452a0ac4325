// Test device, build-tree tools and temporary directories.
#include "TestEnvironment.hpp"

#include <poplar/IPUModel.hpp>

#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace popsdk::test {

namespace fs = std::filesystem;

poplar::Device testDevice(unsigned tiles) {
  poplar::IPUModel model("ipu2");
  model.tilesPerIPU = tiles;
  return model.createDevice();
}

void useBuildTreeTools() {
  ::setenv("POPC", POPC_PATH, 0);
  ::setenv("POPLAR_CODELET_CACHE", CODELET_CACHE_DIR, 0);
}

ScopedTempDir::ScopedTempDir(const std::string &prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error("ScopedTempDir: mkdtemp failed for " + pattern);
  path_ = pattern;
}

ScopedTempDir::~ScopedTempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

ScopedEnvVar::ScopedEnvVar(std::string name, const std::string &value) : name_(std::move(name)) {
  if (const char *old = std::getenv(name_.c_str())) {
    previous_ = old;
    hadPrevious_ = true;
  }
  ::setenv(name_.c_str(), value.c_str(), 1);
}

ScopedEnvVar::~ScopedEnvVar() {
  if (hadPrevious_)
    ::setenv(name_.c_str(), previous_.c_str(), 1);
  else
    ::unsetenv(name_.c_str());
}

ScopedCacheDir::ScopedCacheDir()
    : dir_("codelet-cache"), variable_("POPLAR_CODELET_CACHE", dir_.path()) {}

std::vector<fs::path> ScopedCacheDir::entries() const {
  std::vector<fs::path> gp;
  for (const auto &e : fs::directory_iterator(dir_.path()))
    if (e.path().extension() == ".gp")
      gp.push_back(e.path());
  return gp;
}

} // namespace popsdk::test
