// libFuzzer target: Executable::deserialize answers any bytes with a poplar_error, and what it
// accepts becomes an Engine that loads onto the seeds' target (MakeSeeds.cpp: ipu2, 4 tiles).
// The program is not run: a valid executable may legitimately repeat for ever.
#include "FuzzSupport.hpp"
#include "Seeds.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static const poplar::Device device = popsdk::fuzz::seedDevice();
  std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
  try {
    poplar::Engine engine(poplar::Executable::deserialize(in), {{"executor.hostThreads", "1"}});
    engine.load(device);
  } catch (const poplar::poplar_error &) {
  } catch (const std::exception &e) {
    popsdk::fuzz::ScratchFile::fail("fuzz_executable",
                                    std::string("not a poplar_error: ") + e.what());
  }
  return 0;
}
