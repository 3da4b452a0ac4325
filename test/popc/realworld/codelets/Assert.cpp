// Preconditions checked with assert(), as PopLibs' C++ codelets do (compiled without -DNDEBUG):
// a violated one stops the run with "assertion failed" at this line.
#include <cassert>
#include <poplar/Vertex.hpp>

using namespace poplar;

class CopyChecked : public Vertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;

  bool compute() {
    assert(in.size() == out.size()); // ASSERT-LINE
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i];
    return true;
  }
};
