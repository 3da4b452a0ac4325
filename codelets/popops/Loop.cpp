// The counter of popops::countedForLoop (ForLoopCounter): one step of the count and the test the
// loop's RepeatWhileTrue reads.
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace popops {

/// count += increment; comparisonResult = (count != limit). T is int or unsigned.
template <class T> class ForLoopCounter : public Vertex {
public:
  InOut<T> count;
  Input<T> limit;
  Output<unsigned> comparisonResult;
  const int increment;

  bool compute() {
    // Unsigned arithmetic wraps as the IPU's does for either type.
    *count = T(unsigned(*count) + unsigned(increment));
    *comparisonResult = *count != *limit;
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_Loop
#include "Instantiate.hpp"
