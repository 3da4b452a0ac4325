// Tutorial 3 codelet (start here): give SumVertex its fields and compute() body (see README).
#include <poplar/Vertex.hpp>

class SumVertex : public poplar::Vertex {
public:
  // Fields
  // TODO: an Input<Vector<float>> "in" and an Output<float> "out".

  // Compute function
  // TODO: write the sum of "in" to "out" and return true. As it stands compute() falls off
  // its end without returning: popc accepts that with a -Wreturn-type warning.
  bool compute() {}
};
