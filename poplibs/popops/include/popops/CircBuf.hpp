// A circular buffer of tensors on the device: add() writes the next entry (overwriting the oldest
// when full), prev(i) reads the entry i adds old; the position is a device counter.
#ifndef popops_CircBuf_hpp
#define popops_CircBuf_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <vector>

namespace popops {

class CircBuf {
public:
  /// A buffer of `size` entries (at least 1) of `shape` and `dataType`, spread over the tiles.
  CircBuf(poplar::Graph &graph, const poplar::Type &dataType, unsigned size,
          const std::vector<std::size_t> &shape, const poplar::DebugContext &debugContext = {});

  /// A new tensor that `seq` sets to the entry added `i` adds ago (0: the latest); i < size().
  poplar::Tensor prev(unsigned i, poplar::program::Sequence &seq,
                      const poplar::DebugContext &debugContext = {});

  /// Steps the position and writes `t` (of the buffer's shape and type) there.
  void add(poplar::Tensor t, poplar::program::Sequence &seq,
           const poplar::DebugContext &debugContext = {});

  /// The position of the latest entry: a one-element UNSIGNED_INT tensor, 0 at the start.
  poplar::Tensor getIndex() const { return index; }

  unsigned size() const { return size_; }

private:
  poplar::Graph &graph;
  unsigned size_;
  poplar::Tensor index;
  std::vector<std::size_t> shape;
  // Entries are padded to whole grains of 4 elements: [grains, size, 4].
  unsigned padElements;
  poplar::Tensor hist;
};

} // namespace popops

#endif
