// 64-bit hashing as random-number and sketching codelets use it: FNV-1a over each region's bytes
// and splitmix64 finalisation of the result (64-bit xor, shifts and multiplies), written out as
// two 32-bit words per region; a Vector of edges with SPAN inner vectors.
#include <poplar/Vertex.hpp>

#include <cstdint>

using namespace poplar;

inline std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class HashRegions : public Vertex {
public:
  Vector<Input<Vector<unsigned char>>> regions;
  Output<Vector<unsigned>> words; // 2 per region: low, high
  unsigned long long seed;

  void compute() {
    for (unsigned r = 0; r < regions.size(); ++r) {
      std::uint64_t h = 0xcbf29ce484222325ull ^ seed;
      for (unsigned char byte : regions[r]) {
        h ^= byte;
        h *= 0x100000001b3ull;
      }
      h = splitmix64(h);
      words[2 * r] = static_cast<unsigned>(h);
      words[2 * r + 1] = static_cast<unsigned>(h >> 32);
    }
  }
};
