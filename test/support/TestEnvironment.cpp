// Test device, build-tree tools and temporary directories.
#include "TestEnvironment.hpp"

#include <poplar/IPUModel.hpp>

#include <cstdlib>
#include <stdexcept>

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

ScopedCacheDir::ScopedCacheDir() : dir_("codelet-cache") {
  if (const char *old = std::getenv("POPLAR_CODELET_CACHE")) {
    previous_ = old;
    hadPrevious_ = true;
  }
  ::setenv("POPLAR_CODELET_CACHE", dir_.path().c_str(), 1);
}

ScopedCacheDir::~ScopedCacheDir() {
  if (hadPrevious_)
    ::setenv("POPLAR_CODELET_CACHE", previous_.c_str(), 1);
  else
    ::unsetenv("POPLAR_CODELET_CACHE");
}

std::vector<fs::path> ScopedCacheDir::entries() const {
  std::vector<fs::path> gp;
  for (const auto &e : fs::directory_iterator(dir_.path()))
    if (e.path().extension() == ".gp")
      gp.push_back(e.path());
  return gp;
}

} // namespace popsdk::test
