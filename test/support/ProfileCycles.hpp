// Cycles from the profile: engine options that write profile.pop, and the cycles of a vertex
// type and of a tile read back through libpva.
#pragma once

#include <poplar/OptionFlags.hpp>
#include <pva/pva.hpp>

#include <cstdint>
#include <string>

namespace popsdk::test {

/// Engine options that write profile.pop into `directory` after compiling and after each run.
poplar::OptionFlags profileOptions(const std::string &directory);

/// The profile.pop an Engine with profileOptions(directory) wrote.
pva::Report openProfile(const std::string &directory);

/// The thread cycles of `vertexType` (summed over workers, instances and runs); 0 when the
/// report has no vertex of that type.
std::uint64_t vertexTypeCycles(const pva::Report &report, const std::string &vertexType);
std::uint64_t vertexTypeCycles(const std::string &directory, const std::string &vertexType);

/// The compute cycles of `tile`, idle worker slots included (summed over runs): 6 x the busiest
/// worker context's thread cycles plus the supervisor's launch cycles, per compute set.
std::uint64_t tileComputeCycles(const pva::Report &report, unsigned tile);

} // namespace popsdk::test
