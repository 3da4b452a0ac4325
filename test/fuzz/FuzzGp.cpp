// libFuzzer target: the .gp reader answers any bytes with a GpFormatError, and what it accepts
// writes back and reads again to the same object.
#include "FuzzSupport.hpp"
#include "gp/GpBinary.hpp"
#include "gp/GpFile.hpp"

#include <vector>

using namespace poplar::gp;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  // Nearly every mutation breaks the CRC, and a wrong CRC is all the reader would then see: the
  // right one is written in, so the fuzzer explores the structure behind it. The CRC check
  // itself is GpFile.EveryFlippedByteIsDetected's.
  if (bytes.size() >= binary::HeaderSize) {
    std::uint32_t crc = binary::checksum(bytes.data(), bytes.size());
    for (unsigned i = 0; i < 4; ++i)
      bytes[binary::ChecksumOffset + i] = std::uint8_t(crc >> (8 * i));
  }
  GpFile file;
  try {
    file = readGp(bytes);
  } catch (const GpFormatError &) {
    return 0;
  }
  // Accepted: the lookups the runtime makes must hold, and the writer must take it back.
  for (std::uint32_t pc : {0u, 1u, file.numInstructions(), ~0u}) {
    file.lineFor(pc);
    file.symbolFor(pc);
  }
  for (const auto &v : file.vertices) {
    if (file.findVertex(v.name) == nullptr)
      popsdk::fuzz::ScratchFile::fail("fuzz_gp", "vertex '" + v.name + "' is not found by name");
    for (const auto &f : v.fields)
      if (v.findField(f.name) == nullptr)
        popsdk::fuzz::ScratchFile::fail("fuzz_gp", "field '" + f.name + "' is not found by name");
  }
  std::vector<std::uint8_t> again;
  try {
    again = writeGp(file);
  } catch (const std::exception &e) {
    popsdk::fuzz::ScratchFile::fail("fuzz_gp", std::string("the reader accepted an object the "
                                                           "writer refuses: ") +
                                                   e.what());
  }
  if (!(readGp(again) == file))
    popsdk::fuzz::ScratchFile::fail("fuzz_gp", "written and read back, the object differs");
  return 0;
}
