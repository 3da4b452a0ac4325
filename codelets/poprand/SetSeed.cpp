// SetSeed: seeds each worker's generator on one tile from a 64-bit seed tensor, a modifier and
// the tile number (poprand::setSeed, and the calls given a seed tensor).
#include <poplar/Vertex.hpp>

#include "Generator.hpp"

using namespace poplar;

namespace poprand {

class SetSeed : public MultiVertex {
public:
  Input<Vector<unsigned, VectorLayout::ONE_PTR, 8>> seed;
  Output<Vector<unsigned, VectorLayout::ONE_PTR, 8>> state;
  unsigned seedModifier;
  unsigned tile;

  void compute(unsigned wid) {
    device::seedState(&state[wid * device::kStateWords], seed[0], seed[1], seedModifier, tile, wid);
  }
};

} // namespace poprand

#define POPRAND_FAMILY_SetSeed
#include "Instantiate.hpp"
