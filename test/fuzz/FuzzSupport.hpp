// What the fuzz targets share: a scratch file for parsers that read a path, and the way a broken
// contract (an error of the wrong type) is reported to libFuzzer.
#ifndef popsdk_fuzz_FuzzSupport_hpp
#define popsdk_fuzz_FuzzSupport_hpp

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace popsdk::fuzz {

/// A file in the temporary directory for the life of the process; each input overwrites it.
class ScratchFile {
public:
  explicit ScratchFile(const std::string &suffix) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("popsdk-fuzz-XXXXXX" + suffix)).string();
    int fd = ::mkstemps(pattern.data(), int(suffix.size()));
    if (fd < 0)
      fail("ScratchFile", "mkstemps failed for " + pattern);
    ::close(fd);
    path_ = pattern;
  }
  ~ScratchFile() { std::remove(path_.c_str()); }
  ScratchFile(const ScratchFile &) = delete;
  ScratchFile &operator=(const ScratchFile &) = delete;

  const std::string &path() const { return path_; }
  void write(const std::uint8_t *data, std::size_t size) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), std::streamsize(size));
    if (!out)
      fail("ScratchFile", "cannot write " + path_);
  }

  /// Every parser's contract is a typed error; anything else is a finding, so the target stops
  /// the process and libFuzzer keeps the input.
  [[noreturn]] static void fail(const char *target, const std::string &what) {
    std::fprintf(stderr, "%s: contract broken: %s\n", target, what.c_str());
    std::abort();
  }

private:
  std::string path_;
};

} // namespace popsdk::fuzz

#endif
