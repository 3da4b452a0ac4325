// The simulated environment of the tests and benchmarks: a small IPU model, this build's popc and
// codelet cache, and scoped temporary directories.
#pragma once

#include <poplar/Device.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace popsdk::test {

/// An ipu2 IPUModel with `tiles` tiles.
poplar::Device testDevice(unsigned tiles = 4);

/// Points the runtime at this build's popc ($POPC) and at a codelet cache in the build tree
/// (POPLAR_CODELET_CACHE), unless the environment already names them, so that tests and
/// benchmarks neither depend on PATH nor write to $HOME. Call before loading any codelet; the
/// harnesses (OpHarness, VertexTester) do.
void useBuildTreeTools();

/// A fresh, empty temporary directory, removed with its contents at scope end.
class ScopedTempDir {
public:
  explicit ScopedTempDir(const std::string &prefix = "popsdk-test");
  ~ScopedTempDir();
  ScopedTempDir(const ScopedTempDir &) = delete;
  ScopedTempDir &operator=(const ScopedTempDir &) = delete;
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

/// Sets environment variable `name` to `value`, and restores its previous value (or its
/// absence) at scope end, also when the scope ends by an exception.
class ScopedEnvVar {
public:
  ScopedEnvVar(std::string name, const std::string &value);
  ~ScopedEnvVar();
  ScopedEnvVar(const ScopedEnvVar &) = delete;
  ScopedEnvVar &operator=(const ScopedEnvVar &) = delete;

private:
  std::string name_, previous_;
  bool hadPrevious_ = false;
};

/// Gives one test its own empty codelet cache: points POPLAR_CODELET_CACHE at a new temporary
/// directory, and restores the previous value at scope end.
class ScopedCacheDir {
public:
  ScopedCacheDir();
  ScopedCacheDir(const ScopedCacheDir &) = delete;
  ScopedCacheDir &operator=(const ScopedCacheDir &) = delete;
  const std::string &path() const { return dir_.path(); }
  /// The .gp entries currently in the cache.
  std::vector<std::filesystem::path> entries() const;

private:
  ScopedTempDir dir_;
  ScopedEnvVar variable_;
};

} // namespace popsdk::test
