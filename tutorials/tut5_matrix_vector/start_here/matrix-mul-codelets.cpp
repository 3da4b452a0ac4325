// Tutorial 5 codelet (start here): complete DotProductVertex (see README, step 1).
#include <poplar/Vertex.hpp>

using namespace poplar;

class DotProductVertex : public Vertex {
public:
  /* TO DO (1): the fields: two Input<Vector<float>> "a" and "b", and an Output<float> "out" */

  bool compute() {
    /* TO DO (1): write the dot product of a and b to out */
    return true;
  }
};
