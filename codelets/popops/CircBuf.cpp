// The index arithmetic of popops::CircBuf: step the write position round the buffer
// (CircBufIncrIndex) and find the position of an older entry (CircOffset).
#include <poplar/Vertex.hpp>

using namespace poplar;

namespace popops {

/// index = (index + 1) mod hSize. (T is the index type, unsigned.)
template <class T> class CircBufIncrIndex : public Vertex {
public:
  InOut<T> index;
  const unsigned hSize;

  bool compute() {
    T next = *index + 1;
    *index = next == hSize ? 0 : next;
    return true;
  }
};

/// indexOut = (indexIn + offset) mod hSize, for offset < hSize and indexIn < hSize.
template <class T> class CircOffset : public Vertex {
public:
  Input<T> indexIn;
  Output<T> indexOut;
  const unsigned hSize;
  const unsigned offset;

  bool compute() {
    T i = *indexIn + offset;
    *indexOut = i >= hSize ? i - hSize : i;
    return true;
  }
};

} // namespace popops

#define POPOPS_FAMILY_CircBuf
#include "Instantiate.hpp"
