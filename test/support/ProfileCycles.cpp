// Profile options, and vertex-type and tile cycles through libpva.
#include "ProfileCycles.hpp"

namespace popsdk::test {

poplar::OptionFlags profileOptions(const std::string &directory) {
  return {{"autoReport.all", "true"}, {"autoReport.directory", directory}};
}

pva::Report openProfile(const std::string &directory) {
  return pva::openReport(directory + "/profile.pop");
}

std::uint64_t vertexTypeCycles(const pva::Report &report, const std::string &vertexType) {
  for (const auto &t : report.compilation().vertexTypes())
    if (t.name() == vertexType)
      return t.cycles();
  return 0;
}

std::uint64_t vertexTypeCycles(const std::string &directory, const std::string &vertexType) {
  return vertexTypeCycles(openProfile(directory), vertexType);
}

std::uint64_t tileComputeCycles(const pva::Report &report, unsigned tile) {
  return report.execution().tileCycles(tile).computeIncludingIdle;
}

} // namespace popsdk::test
