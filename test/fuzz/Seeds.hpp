// Seed inputs for the fuzz targets: small valid objects made by the SDK itself, so that they
// follow the formats as they change (fuzz_make_seeds writes them; test/fuzz/corpus keeps a copy).
#ifndef popsdk_fuzz_Seeds_hpp
#define popsdk_fuzz_Seeds_hpp

#include <poplar/Device.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace popsdk::fuzz {

/// The device the executable seeds are compiled for and fuzz_executable loads onto.
poplar::Device seedDevice();

/// File name -> bytes, for each target ("gp", "executable", "profile", "vertex_fields").
using SeedFiles = std::map<std::string, std::vector<std::uint8_t>>;
std::map<std::string, SeedFiles> makeSeeds();

} // namespace popsdk::fuzz

#endif
