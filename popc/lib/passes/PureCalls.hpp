// Calls to the functions IR passes stand in for instructions or runtime routines with
// (SelectVectors' __popc_vector_*, SoftenDoubles' __popc_d*): declared on first use and marked
// pure, so that dead ones are deleted and equal ones may be merged.
#ifndef popc_passes_PureCalls_hpp
#define popc_passes_PureCalls_hpp

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <string>
#include <vector>

namespace popc {

/// `name(args) -> result` at the builder's position, declaring `name` in `m` if needed.
inline llvm::CallInst *createPureCall(llvm::IRBuilder<> &b, llvm::Module &m,
                                      const std::string &name, llvm::Type *result,
                                      llvm::ArrayRef<llvm::Value *> args) {
  std::vector<llvm::Type *> types;
  for (llvm::Value *a : args)
    types.push_back(a->getType());
  llvm::FunctionCallee callee =
      m.getOrInsertFunction(name, llvm::FunctionType::get(result, types, false));
  auto *f = llvm::cast<llvm::Function>(callee.getCallee());
  f->setDoesNotAccessMemory();
  f->setDoesNotThrow();
  return b.CreateCall(callee, args);
}

} // namespace popc

#endif
