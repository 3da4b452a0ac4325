// Replays test/fuzz/corpus/<target>/ (the seeds, and every input a fuzzer found a fault with)
// through each fuzz harness, in the normal build: a harness stops the process on any broken
// contract, and the sanitizer job runs this under ASan and UBSan.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#define POPSDK_FUZZ_TARGET(name)                                                                   \
  extern "C" int popsdkFuzz_##name(const std::uint8_t *data, std::size_t size);
POPSDK_FUZZ_TARGET(gp)
POPSDK_FUZZ_TARGET(executable)
POPSDK_FUZZ_TARGET(options)
POPSDK_FUZZ_TARGET(profile)
POPSDK_FUZZ_TARGET(vertex_fields)

namespace {

namespace fs = std::filesystem;

/// Runs every file of the target's corpus folder; returns how many there were.
unsigned replay(const char *target, int (*harness)(const std::uint8_t *, std::size_t)) {
  unsigned n = 0;
  for (const auto &entry : fs::directory_iterator(fs::path(FUZZ_CORPUS_DIR) / target)) {
    SCOPED_TRACE(entry.path().string());
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                    std::istreambuf_iterator<char>()};
    harness(bytes.data(), bytes.size());
    ++n;
  }
  return n;
}

} // namespace

#define POPSDK_FUZZ_REPLAY(name)                                                                   \
  TEST(FuzzCorpus, name) { EXPECT_GT(replay(#name, popsdkFuzz_##name), 0u); }
POPSDK_FUZZ_REPLAY(gp)
POPSDK_FUZZ_REPLAY(executable)
POPSDK_FUZZ_REPLAY(options)
POPSDK_FUZZ_REPLAY(profile)
POPSDK_FUZZ_REPLAY(vertex_fields)
