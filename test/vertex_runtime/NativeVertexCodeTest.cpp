// Which vertex types the Engine runs on the native tier: `native` compiles each on first use,
// `auto` only once it has issued enough instructions on the interpreter (in the background),
// `interpreter` never.
#include "engine/NativeVertexCode.hpp"
#include "CodeletSources.hpp"
#include "TestEnvironment.hpp"
#include "compiler/Compile.hpp"

#include <poplar/Graph.hpp>
#include <poplar/exceptions.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace popsdk::test;
using namespace poplar;

namespace {

struct Compiled {
  std::unique_ptr<detail::CompiledGraph> cg;
  std::vector<detail::LoadedCodelet> codelets;
};

/// A graph of one Shapes.cpp vertex, compiled as an Engine compiles it.
Compiled compiledScale() {
  Device device = testDevice(2);
  Graph graph(device.getTarget());
  graph.addCodelets(codeletPath("Shapes.cpp"));
  Tensor x = graph.addVariable(FLOAT, {4}, "x"), y = graph.addVariable(FLOAT, {4}, "y");
  graph.setTileMapping(x, 0);
  graph.setTileMapping(y, 0);
  ComputeSet cs = graph.addComputeSet("scale");
  auto v = graph.addVertex(cs, "Scale<float>", {{"in", x}, {"out", y}});
  graph.setInitialValue(v["factor"], 2.0f);
  graph.setTileMapping(v, 0);
  Compiled c;
  c.cg = detail::compile(graph.getState(), {program::Execute(cs)});
  c.codelets = detail::loadCodeletObjects(*c.cg);
  return c;
}

std::uint32_t scaleType(const detail::CompiledGraph &cg) {
  for (std::uint32_t t = 0; t < cg.vertexTypes.size(); ++t)
    if (cg.vertexTypes[t].name == "Scale<float>")
      return t;
  ADD_FAILURE() << "no Scale<float> vertex type";
  return 0;
}

} // namespace

TEST(NativeVertexCode, EachTierCompilesWhenItShould) {
  const Compiled c = compiledScale();
  const std::uint32_t type = scaleType(*c.cg);
  detail::NativeVertexCode::forgetSharedCode(); // another test's engine may have compiled it

  detail::NativeVertexCode interpreted(*c.cg, c.codelets, detail::VertexTier::Interpreter);
  interpreted.interpreted(type, detail::NativeVertexCode::kAutoThreshold);
  EXPECT_EQ(interpreted.forType(type), nullptr);

  detail::NativeVertexCode native(*c.cg, c.codelets, detail::VertexTier::Native);
  const interp::NativeCode *code = native.forType(type);
  ASSERT_NE(code, nullptr);
  EXPECT_GT(code->translated(), 0u);
  EXPECT_EQ(native.forType(type), code) << "compiled once, then kept";

  detail::NativeVertexCode::forgetSharedCode(); // else `auto` finds it compiled (below)
  detail::NativeVertexCode hot(*c.cg, c.codelets, detail::VertexTier::Auto);
  EXPECT_EQ(hot.forType(type), nullptr) << "auto compiles only hot vertex types";
  hot.interpreted(type, detail::NativeVertexCode::kAutoThreshold - 1);
  EXPECT_EQ(hot.forType(type), nullptr);
  hot.interpreted(type, 1);
  hot.forType(type); // hot: its compilation starts, on a thread of its own
  hot.waitForBackgroundCompiles();
  EXPECT_NE(hot.forType(type), nullptr);
}

// An engine finds the code another compiled for the same codelet, even after that engine is gone,
// and uses it at once, under `auto` too.
TEST(NativeVertexCode, EnginesShareCompiledCode) {
  const Compiled c = compiledScale();
  const std::uint32_t type = scaleType(*c.cg);
  detail::NativeVertexCode::forgetSharedCode();
  const interp::NativeCode *code = nullptr;
  {
    detail::NativeVertexCode first(*c.cg, c.codelets, detail::VertexTier::Native);
    code = first.forType(type);
    ASSERT_NE(code, nullptr);
  }
  detail::NativeVertexCode second(*c.cg, c.codelets, detail::VertexTier::Auto);
  EXPECT_EQ(second.forType(type), code) << "not compiled again, nor interpreted first";
  // Another graph's copy of the same codelet, loaded at the same address, is the same code.
  const Compiled again = compiledScale();
  detail::NativeVertexCode third(*again.cg, again.codelets, detail::VertexTier::Auto);
  EXPECT_EQ(third.forType(scaleType(*again.cg)), code);
}

TEST(NativeVertexCode, NativeWithoutItsLibraryIsAnInvalidOption) {
  const Compiled c = compiledScale();
  // The library is loaded once per process, so this runs in a process of its own (the test
  // is skipped where the library already loaded).
  std::string why;
  const char *previous = std::getenv("POPLAR_NATIVE_LIBRARY");
  const std::string saved = previous ? previous : "";
  ::setenv("POPLAR_NATIVE_LIBRARY", "/nonexistent/libpoplar_native.so", 1);
  const bool available = interp::nativeTierAvailable(&why);
  if (previous)
    ::setenv("POPLAR_NATIVE_LIBRARY", saved.c_str(), 1);
  else
    ::unsetenv("POPLAR_NATIVE_LIBRARY");
  if (available)
    GTEST_SKIP() << "the native tier's library was loaded before this test";
  EXPECT_NE(why.find("/nonexistent/libpoplar_native.so"), std::string::npos) << why;
  EXPECT_THROW((detail::NativeVertexCode(*c.cg, c.codelets, detail::VertexTier::Native)),
               invalid_option);
  // auto interprets instead.
  detail::NativeVertexCode fallback(*c.cg, c.codelets, detail::VertexTier::Auto);
  fallback.interpreted(scaleType(*c.cg), detail::NativeVertexCode::kAutoThreshold);
  EXPECT_EQ(fallback.forType(scaleType(*c.cg)), nullptr);
}

// With POPLAR_PERF_MAP=1 each compiled entry is listed in perf's map of the process, under its
// vertex type's name, over the addresses of its code.
TEST(NativeVertexCode, PerfMapNamesCompiledCodeByVertexType) {
  const Compiled c = compiledScale();
  detail::NativeVertexCode::forgetSharedCode(); // compiled here, not found compiled
  const std::string path = "/tmp/perf-" + std::to_string(::getpid()) + ".map";
  ::setenv("POPLAR_PERF_MAP", "1", 1);
  detail::NativeVertexCode native(*c.cg, c.codelets, detail::VertexTier::Native);
  const interp::NativeCode *code = native.forType(scaleType(*c.cg));
  ::unsetenv("POPLAR_PERF_MAP");
  ASSERT_NE(code, nullptr);
  const auto entry = reinterpret_cast<std::uintptr_t>(code->entry());
  std::ifstream map(path);
  ASSERT_TRUE(map) << path;
  std::string line, covering;
  while (std::getline(map, line)) {
    std::istringstream fields(line);
    std::uint64_t start = 0, size = 0;
    std::string name;
    fields >> std::hex >> start >> size >> std::ws;
    std::getline(fields, name);
    if (start <= entry && entry < start + size)
      covering = name;
  }
  std::remove(path.c_str());
  EXPECT_EQ(covering, "Scale<float>") << "the entry at 0x" << std::hex << entry;
}
