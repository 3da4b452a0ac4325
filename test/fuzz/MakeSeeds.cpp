// fuzz_make_seeds <dir>: writes each fuzz target's generated seeds into <dir>/<target>/.
#include "Seeds.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: fuzz_make_seeds <dir>\n";
    return 2;
  }
  namespace fs = std::filesystem;
  for (const auto &[target, files] : popsdk::fuzz::makeSeeds()) {
    fs::path dir = fs::path(argv[1]) / target;
    fs::create_directories(dir);
    for (const auto &[name, bytes] : files) {
      std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
      if (!out) {
        std::cerr << "fuzz_make_seeds: cannot write " << (dir / name) << "\n";
        return 1;
      }
    }
  }
  return 0;
}
