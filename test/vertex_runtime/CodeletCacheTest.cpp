// The codelet cache keys entries on every file a compile read: a changed header, or the same
// source text in another folder, is a miss; concurrent processes and damaged entries never serve
// wrong code.
#include "VertexTester.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace popsdk::test;
using namespace poplar;
namespace fs = std::filesystem;

namespace {

// A vertex whose output is a constant from a local header: which header the compile read shows
// in the value it writes.
const char *kSource = "#include \"value.h\"\n"
                      "#include <poplar/Vertex.hpp>\n"
                      "class ReadValue : public poplar::Vertex {\n"
                      "public:\n"
                      "  poplar::Output<float> out;\n"
                      "  bool compute() {\n"
                      "    *out = kValue;\n"
                      "    return true;\n"
                      "  }\n"
                      "};\n";

void writeText(const fs::path &p, const std::string &text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

/// Writes value.h (kValue = `value`) into `dir`, and the vertex source if it is not there yet.
std::string writeCodelet(const fs::path &dir, double value) {
  fs::create_directories(dir);
  writeText(dir / "value.h",
            "#pragma once\nconstexpr float kValue = " + std::to_string(value) + "f;\n");
  if (!fs::exists(dir / "ReadValue.cpp"))
    writeText(dir / "ReadValue.cpp", kSource);
  return (dir / "ReadValue.cpp").string();
}

/// What ReadValue compiled from `source` writes.
double valueOf(const std::string &source) {
  return VertexTester(source, "ReadValue").scalarOutput("out", FLOAT).run().output("out").at(0);
}

std::vector<fs::path> filesEndingIn(const std::string &dir, const std::string &suffix) {
  std::vector<fs::path> found;
  for (const auto &e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      found.push_back(e.path());
  }
  return found;
}

/// No temporary or log file of a compile is left in the cache.
void expectOnlyEntries(const ScopedCacheDir &cache) {
  for (const auto &e : fs::directory_iterator(cache.path())) {
    auto ext = e.path().extension();
    EXPECT_TRUE(ext == ".gp" || ext == ".d") << "left behind: " << e.path();
  }
}

} // namespace

TEST(CodeletCache, ChangedHeaderRecompiles) {
  ScopedCacheDir cache;
  ScopedTempDir src("cache-header");
  std::string source = writeCodelet(src.path(), 1.5);
  EXPECT_EQ(valueOf(source), 1.5);
  writeCodelet(src.path(), 2.5); // the source is unchanged; only its header differs
  EXPECT_EQ(valueOf(source), 2.5);
  EXPECT_EQ(cache.entries().size(), 2u);
  // Back to the first header: its entry is still valid and serves again, without a new one.
  writeCodelet(src.path(), 1.5);
  EXPECT_EQ(valueOf(source), 1.5);
  EXPECT_EQ(cache.entries().size(), 2u);
  expectOnlyEntries(cache);
}

// The folder decides what a quoted #include finds, so it is part of the key; a folder name with
// a space also checks the escapes of popc's dependency rule.
TEST(CodeletCache, SameTextInTwoFoldersIsTwoEntries) {
  ScopedCacheDir cache;
  ScopedTempDir src("cache-folders");
  std::string a = writeCodelet(fs::path(src.path()) / "a", 1.0);
  std::string b = writeCodelet(fs::path(src.path()) / "b with space", 3.0);
  EXPECT_EQ(valueOf(a), 1.0);
  EXPECT_EQ(valueOf(b), 3.0);
  EXPECT_EQ(valueOf(a), 1.0);
  EXPECT_EQ(cache.entries().size(), 2u);
  EXPECT_EQ(filesEndingIn(cache.path(), ".d").size(), 2u);
}

// ctest -j and parallel builds populate one cache from many processes at once: each gets the
// right code, and the cache ends with one whole entry and no temporaries.
TEST(CodeletCache, EightProcessesPopulateOneCache) {
  ScopedCacheDir cache;
  ScopedTempDir src("cache-procs");
  std::string source = writeCodelet(src.path(), 4.25);
  std::vector<pid_t> children;
  for (int i = 0; i < 8; ++i) {
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      int status = 3;
      try {
        status = valueOf(source) == 4.25 ? 0 : 2;
      } catch (...) {
      }
      ::_exit(status);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = -1;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "2: wrong value, 3: an exception";
  }
  EXPECT_EQ(cache.entries().size(), 1u);
  EXPECT_EQ(filesEndingIn(cache.path(), ".d").size(), 1u);
  expectOnlyEntries(cache);
  EXPECT_EQ(valueOf(source), 4.25);
}

// A damaged dependency list (a crash mid-write before writes were atomic, a full disk) costs a
// recompile, never a wrong hit or an error.
TEST(CodeletCache, DamagedDependencyListIsRebuilt) {
  ScopedCacheDir cache;
  ScopedTempDir src("cache-damaged");
  std::string source = writeCodelet(src.path(), 6.5);
  EXPECT_EQ(valueOf(source), 6.5);
  auto lists = filesEndingIn(cache.path(), ".d");
  ASSERT_EQ(lists.size(), 1u);
  // What follows the rule's target (popc's temporary output, named anew by each compile).
  auto prerequisites = [&] {
    std::ifstream in(lists[0]);
    std::string rule((std::istreambuf_iterator<char>(in)), {});
    return rule.substr(std::min(rule.find(": "), rule.size()));
  };
  std::string good = prerequisites();
  ASSERT_NE(good.find("value.h"), std::string::npos) << good;
  for (const std::string &damaged :
       {good.substr(0, good.find("value.h") + 3), good.substr(0, good.size() / 2), std::string(),
        std::string("\x01\x02 garbage")}) {
    writeText(lists[0], damaged);
    writeCodelet(src.path(), 6.5); // rewritten with the same text
    EXPECT_EQ(valueOf(source), 6.5);
    EXPECT_EQ(prerequisites(), good) << "the list was rewritten";
  }
  EXPECT_EQ(cache.entries().size(), 1u);
}

// Threads of one process, each with its own Graph and Engine, load the same codelet into one
// empty cache at once, from its file and from a string. The temporaries of a compile were once
// named by the pid alone, so two threads wrote the same file and one's rename found it gone.
TEST(CodeletCache, ThreadsShareOneCache) {
  ScopedCacheDir cache;
  ScopedTempDir src("cache-threads");
  std::string source = writeCodelet(src.path(), 5.75);
  constexpr int kThreads = 6;
  std::vector<std::string> errors(kThreads);
  std::vector<double> values(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      try {
        if (i % 2 == 0) {
          values[i] = valueOf(source);
          return;
        }
        auto fromString = [&](Graph &graph) {
          std::stringstream text(kSource);
          graph.addCodelets(text, "-I" + src.path());
        };
        values[i] = VertexTester(fromString, "ReadValue")
                        .scalarOutput("out", FLOAT)
                        .run()
                        .output("out")
                        .at(0);
      } catch (const std::exception &e) {
        errors[i] = e.what();
      }
    });
  for (auto &t : threads)
    t.join();
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(errors[i], "") << "thread " << i;
    EXPECT_EQ(values[i], 5.75) << "thread " << i;
  }
  expectOnlyEntries(cache);
}

// addCodelets(stream) compiles a temporary file removed after each call; the next Graph must
// still find the entry (the source's own name is not part of the key, its text and folder are).
TEST(CodeletCache, SourceFromAStreamHitsTheCache) {
  ScopedCacheDir cache;
  ScopedTempDir src("cache-stream");
  writeCodelet(src.path(), 7.5);
  auto load = [&] {
    Graph graph(testDevice().getTarget());
    std::stringstream text(kSource);
    graph.addCodelets(text, "-I" + src.path());
    EXPECT_TRUE(graph.hasCodelet("ReadValue"));
  };
  load();
  auto entries = cache.entries();
  ASSERT_EQ(entries.size(), 1u);
  auto written = fs::last_write_time(entries[0]);
  load(); // were popc to run again, its output would be renamed over the entry
  ASSERT_EQ(cache.entries().size(), 1u);
  EXPECT_EQ(fs::last_write_time(cache.entries()[0]), written);
}
