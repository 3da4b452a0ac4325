// A codelet and its host test in one file: popc sees only the #ifdef __POPC__ half.
//
// The host build sees only the test, which loads its own source with addCodelets(__FILE__).
// (Through kThisFile, which copes with a relative __FILE__.)
#ifdef __POPC__

#include <poplar/Vertex.hpp>

// Running maximum and its index over the input (the kind of vertex a one-file example carries).
class ArgMaxVertex : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<unsigned> index;
  poplar::Output<float> max;
  bool compute() {
    if (in.size() == 0)
      return false;
    unsigned best = 0;
    for (unsigned i = 1; i < in.size(); ++i)
      if (in[i] > in[best])
        best = i;
    *index = best;
    *max = in[best];
    return true;
  }
};

#else

#include "VertexTester.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace popsdk::test;
using namespace poplar;

namespace {

// This file, by the path addCodelets needs. __FILE__ is relative to the compiler's working
// directory when a build rewrites paths (ccache's base_dir, -ffile-prefix-map), and the tests run
// elsewhere; the test's folder is known, so a relative __FILE__ resolves against it.
const std::string kThisFile = std::filesystem::path(__FILE__).is_absolute()
                                  ? std::string(__FILE__)
                                  : std::string(CODELET_SOURCE_DIR) + "/SingleSourceTest.cpp";

} // namespace

TEST(SingleSource, CodeletAndHostProgramInOneFile) {
  for (std::size_t n : kEdgeSizes) {
    if (n == 0)
      continue; // the vertex returns false for no input (FaultTest covers that path)
    SCOPED_TRACE("n = " + std::to_string(n));
    auto in = hostData(FLOAT, n, -100, 100);
    auto r = VertexTester(kThisFile, "ArgMaxVertex")
                 .input("in", FLOAT, in)
                 .scalarOutput("index", UNSIGNED_INT)
                 .scalarOutput("max", FLOAT)
                 .run();
    auto best = std::max_element(in.begin(), in.end()); // the first of equal maxima, as above
    EXPECT_EQ(r.output("index"), std::vector<double>{double(best - in.begin())});
    EXPECT_EQ(r.output("max"), std::vector<double>{*best});
  }
}

TEST(SingleSource, EmptyInputReturnsFalse) {
  EXPECT_THROW(VertexTester(kThisFile, "ArgMaxVertex")
                   .input("in", FLOAT, {})
                   .scalarOutput("index", UNSIGNED_INT)
                   .scalarOutput("max", FLOAT)
                   .run(),
               application_runtime_error);
}

#endif
