// Adds one entry function per vertex: the ABI the interpreter calls (state in r1, worker in r2).
#include "passes/IRPasses.hpp"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <cctype>

namespace popc {

std::string entrySymbol(const VertexInfo &vertex) {
  std::string name = "__runCodelet_";
  for (char c : vertex.desc.name)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

void addEntryPoints(llvm::Module &m, const std::vector<VertexInfo> &vertices) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i8p = llvm::Type::getInt8PtrTy(ctx);
  auto *entryType = llvm::FunctionType::get(i32, {i8p, i32}, false);
  std::vector<llvm::Function *> entries;
  for (const VertexInfo &v : vertices) {
    llvm::Function *compute = m.getFunction(v.computeSymbol);
    assert(compute && !compute->isDeclaration() && "front end did not emit compute()");
    auto *entry =
        llvm::Function::Create(entryType, llvm::Function::ExternalLinkage, entrySymbol(v), m);
    // Same function attributes as compute() ("no-builtins" etc.), so the inliner may merge them.
    entry->addFnAttrs(llvm::AttrBuilder(ctx, compute->getAttributes().getFnAttrs()));
    entry->addFnAttr(llvm::Attribute::NoUnwind);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
    std::vector<llvm::Value *> args = {
        b.CreateBitCast(entry->getArg(0), compute->getFunctionType()->getParamType(0))};
    if (v.takesWorkerId)
      args.push_back(
          b.CreateZExtOrTrunc(entry->getArg(1), compute->getFunctionType()->getParamType(1)));
    llvm::Value *result = b.CreateCall(compute, args);
    b.CreateRet(v.returnsBool ? b.CreateZExt(result, i32) : b.getInt32(1));
    entries.push_back(entry);
  }
  // The front end marked compute() used only to get it emitted; the entries now use it.
  if (llvm::GlobalVariable *used = m.getGlobalVariable("llvm.used"))
    used->eraseFromParent();
  if (llvm::GlobalVariable *used = m.getGlobalVariable("llvm.compiler.used"))
    used->eraseFromParent();
  for (llvm::Function &f : m) {
    // Clang's x86 CPU attributes mean nothing on the tile, and differing ones would stop the
    // inliner from inlining compute() into the entry.
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.removeFnAttr("tune-cpu");
    if (f.isDeclaration() || std::find(entries.begin(), entries.end(), &f) != entries.end())
      continue;
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    f.setComdat(nullptr);
  }
  for (llvm::GlobalVariable &g : m.globals())
    if (!g.isDeclaration()) {
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
      g.setComdat(nullptr);
    }
}

} // namespace popc
