// libFuzzer target: a vertex's field and layout description (the .gp vertices section popc
// writes from a codelet's class) loaded by Graph::addCodelets, connected, compiled and run.
// Whatever the description, the answer is a poplar_error or a run; never a crash, a hang or an
// allocation out of proportion to the program.
#include "FuzzSupport.hpp"
#include "VertexFieldsInput.hpp"

#include <exception>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static popsdk::fuzz::ScratchFile object(".gp");
  try {
    popsdk::fuzz::buildAndRun(popsdk::fuzz::decode(data, size), object.path());
  } catch (const std::exception &e) {
    popsdk::fuzz::ScratchFile::fail("fuzz_vertex_fields",
                                    std::string("not a poplar_error: ") + e.what());
  }
  return 0;
}
