// Reads the profile.pop an engine wrote (POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true"}') and
// prints a few facts from it through libpva.
#include <pva/pva.hpp>

#include <iostream>

int main() {
  // Open the report written into the working directory.
  auto report = pva::openReport("./profile.pop");
  std::cout << "Example information from profile:\n";
  std::cout << "Number of compute sets: " << report.compilation().graph().numComputeSets()
            << "\n";
  std::cout << "Number of tiles on target: " << report.compilation().target().numTiles()
            << "\n";
  std::cout << "Version of Poplar used: " << report.poplarVersion().string() << "\n";
  return EXIT_SUCCESS;
}
