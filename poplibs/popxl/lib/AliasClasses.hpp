// Tensors that share memory (an in-place op's output and its input, a view and its base), as a
// union-find keyed by tensor: the scheduler's, the inliner's and autodiff's one notion of it.
#pragma once

#include <popxl/Ir.hpp>

#include <unordered_map>

namespace popxl::internal {

class AliasClasses {
public:
  /// The representative of `t`'s class (`t` itself if nothing was joined to it).
  TensorId root(TensorId t) {
    auto it = parent_.find(t);
    if (it == parent_.end() || it->second == t)
      return t;
    return it->second = root(it->second);
  }
  void join(TensorId a, TensorId b) { parent_[root(a)] = root(b); }

private:
  std::unordered_map<TensorId, TensorId> parent_;
};

} // namespace popxl::internal
