// Backward liveness of virtual registers per block; see Liveness.hpp.
#include "passes/Liveness.hpp"

#include <map>

namespace popc {

std::vector<llvm::BitVector> virtualLiveOut(const mir::Function &f) {
  const unsigned n = f.nextVirtual;
  const std::size_t numBlocks = f.blocks.size();
  std::map<const mir::Block *, std::size_t> index;
  for (std::size_t k = 0; k < numBlocks; ++k)
    index[f.blocks[k].get()] = k;
  std::vector<llvm::BitVector> use(numBlocks, llvm::BitVector(n)), def = use, in = use, out = use;
  std::vector<std::vector<std::size_t>> succ(numBlocks);
  std::vector<mir::Reg> uses, defs;
  for (std::size_t k = 0; k < numBlocks; ++k) {
    for (const mir::Inst &i : f.blocks[k]->insts) {
      uses.clear();
      defs.clear();
      mir::usesOf(i, uses);
      mir::defsOf(i, defs);
      for (mir::Reg r : uses)
        if (mir::isVirtual(r) && !def[k][r])
          use[k].set(r);
      for (mir::Reg r : defs)
        if (mir::isVirtual(r))
          def[k].set(r);
      if (i.target)
        succ[k].push_back(index.at(i.target));
    }
    in[k] = use[k];
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t k = numBlocks; k-- > 0;) {
      llvm::BitVector o(n);
      for (std::size_t s : succ[k])
        o |= in[s];
      llvm::BitVector i = o;
      i.reset(def[k]);
      i |= use[k];
      if (o != out[k] || i != in[k]) {
        out[k] = std::move(o);
        in[k] = std::move(i);
        changed = true;
      }
    }
  }
  return out;
}

} // namespace popc
