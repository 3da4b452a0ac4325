// Reports the constructs of optimised IR that the tile ISA cannot express, at their source line.
#include "Diagnostics.hpp"
#include "passes/IRPasses.hpp"
#include "passes/MathFunctions.hpp"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <set>

namespace popc {

namespace {

class Checker {
public:
  explicit Checker(SourceDiagnostics &diags) : diags_(diags) {}

  void check(llvm::Instruction &inst) {
    if (llvm::isa<llvm::InvokeInst>(inst) || llvm::isa<llvm::LandingPadInst>(inst) ||
        llvm::isa<llvm::ResumeInst>(inst))
      return report(inst, "exceptions are not supported on the tile");
    if (inst.isAtomic())
      return report(inst, "atomic operations are not supported on the tile");
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst))
      if (!alloca->isStaticAlloca())
        return report(inst, "variable-sized stack allocation is not supported on the tile "
                            "(stacks are sized at compile time)");
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
      checkCall(*call);
      if (llvm::isa<llvm::IntrinsicInst>(call))
        return; // lifetime and memcpy sizes are i64 and harmless
      if (isPrintfCall(*call))
        return checkPrintfArguments(*call);
    }
    // A float (or half) promoted to double only to be printed never exists as a double.
    if (llvm::isa<llvm::FPExtInst>(inst) && isSinglePrecision(inst.getOperand(0)->getType()) &&
        !inst.user_empty() && llvm::all_of(inst.users(), [](const llvm::User *u) {
          const auto *call = llvm::dyn_cast<llvm::CallInst>(u);
          return call && isPrintfCall(*call);
        }))
      return;
    // The edges of the vectors SelectVectors kept whole: bitcasts from and to their bits and
    // element accesses with a constant index, of 32- and 64-bit vectors.
    if (llvm::isa<llvm::BitCastInst>(inst) || llvm::isa<llvm::ExtractElementInst>(inst) ||
        llvm::isa<llvm::InsertElementInst>(inst)) {
      llvm::Value *vector = inst.getType()->isVectorTy() ? &inst : inst.getOperand(0);
      unsigned bits = vector->getType()->getPrimitiveSizeInBits();
      bool constantIndex = llvm::isa<llvm::BitCastInst>(inst) ||
                           llvm::isa<llvm::ConstantInt>(inst.getOperand(inst.getNumOperands() - 1));
      if ((bits == 32 || bits == 64) && constantIndex &&
          !vector->getType()->getScalarType()->isDoubleTy())
        return;
    }
    checkType(inst, inst.getType());
    for (llvm::Value *op : inst.operands())
      if (!llvm::isa<llvm::BasicBlock>(op) && !llvm::isa<llvm::Function>(op))
        checkType(inst, op->getType());
  }

  void checkRecursion(llvm::Module &m) {
    llvm::CallGraph graph(m);
    for (auto scc = llvm::scc_begin(&graph); !scc.isAtEnd(); ++scc) {
      if (!scc.hasCycle())
        continue;
      std::set<llvm::Function *> members;
      for (llvm::CallGraphNode *node : *scc)
        if (node->getFunction())
          members.insert(node->getFunction());
      for (llvm::Function *f : members)
        for (llvm::Instruction &inst : llvm::instructions(*f))
          if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
            if (members.count(call->getCalledFunction())) {
              report(inst, "recursive call to '" +
                               llvm::demangle(call->getCalledFunction()->getName().str()) +
                               "' with --recursion-depth=0 (stacks are sized at compile time: "
                               "give the depth they must hold)");
              return;
            }
    }
  }

private:
  static bool isSinglePrecision(const llvm::Type *t) { return t->isFloatTy() || t->isHalfTy(); }

  static bool isPrintfCall(const llvm::CallInst &call) {
    const llvm::Function *callee = call.getCalledFunction();
    return callee && callee->isDeclaration() && isPrintf(callee->getName());
  }

  void checkPrintfArguments(llvm::CallInst &call) {
    for (unsigned k = 1; k < call.arg_size(); ++k) {
      llvm::Value *arg = call.getArgOperand(k);
      llvm::Type *type = arg->getType();
      bool promotedFloat =
          type->isDoubleTy() && (llvm::isa<llvm::ConstantFP>(arg) ||
                                 (llvm::isa<llvm::FPExtInst>(arg) &&
                                  isSinglePrecision(llvm::cast<llvm::FPExtInst>(arg)->getSrcTy())));
      if (type->isDoubleTy() && !promotedFloat)
        return report(call, "printf of a double-precision value is not supported on the tile; "
                            "pass a float");
    }
  }

  void checkCall(llvm::CallInst &call) {
    if (call.isInlineAsm())
      return report(call, "inline assembly is not supported by popc");
    llvm::Function *callee = call.getCalledFunction();
    if (!callee)
      return report(call, "indirect call (function pointer or virtual function) is not "
                          "supported on the tile");
    if (!callee->isDeclaration())
      return;
    if (llvm::Intrinsic::ID id = callee->getIntrinsicID()) {
      if (isIgnoredIntrinsic(id) || isExpandedIntrinsic(id) || intrinsicOpcode(id))
        return;
      return report(call, "'" + callee->getName().str() + "' is not supported on the tile");
    }
    std::string name = callee->getName().str();
    if (mathFunctionOpcode(name) || isAssertFailure(name) || isPrintf(name) ||
        vectorOperationOpcode(name))
      return;
    if (isCsrRead(name)) {
      const auto *csr = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0));
      if (!csr || csr->getZExtValue() != kCsrWorkerStatus)
        report(call, "__builtin_ipu_get reads only CSR_W_WSR__INDEX (the worker id) on the "
                     "simulated tile, with the index a constant");
      return;
    }
    if (isIpuBuiltin(name))
      return report(call, "'" + name +
                              "' has no equivalent on the simulated tile (ipu_builtins.h lists "
                              "those it has)");
    std::string pretty = llvm::demangle(name);
    if (name == "malloc" || name == "free" || name == "calloc" || name == "realloc" ||
        pretty.rfind("operator new", 0) == 0 || pretty.rfind("operator delete", 0) == 0)
      return report(call, "heap allocation ('" + pretty + "') is not supported on the tile");
    std::string available = mathFunctionNames();
    available.resize(available.size() - 2);
    report(call, "call to '" + pretty +
                     "', which is not defined in the codelet sources and is not available on "
                     "the tile (its C library is the headers popc provides; the instructions "
                     "compute " +
                     available + ")");
  }

  void checkType(llvm::Instruction &inst, llvm::Type *type) {
    if (type->isDoubleTy())
      return report(inst, "this use of double precision is not supported on the tile (popc "
                          "computes double arithmetic, compares and conversions in software, "
                          "but not double math functions, arguments or vectors); use float");
    if (type->isX86_FP80Ty() || type->isFP128Ty())
      return report(inst, "long double is not supported on the tile; use float");
    if (type->isIntegerTy() && type->getIntegerBitWidth() > 64)
      return report(inst, "integers wider than 64 bits are not supported on the tile");
    if (type->isVectorTy())
      return report(inst, "vector types are not supported by popc yet");
  }

  void report(llvm::Instruction &inst, const std::string &message) {
    // One report per source line and message: an unrolled loop repeats the same problem.
    const llvm::DILocation *loc = inst.getDebugLoc().get();
    auto key =
        std::make_tuple(loc ? loc->getFilename().str() : "", loc ? loc->getLine() : 0, message);
    if (!reported_.insert(key).second)
      return;
    // Without a position (compiler-generated code) a problem already reported adds nothing.
    if (!loc && !messages_.insert(message).second)
      return;
    messages_.insert(message);
    diags_.error(inst, message);
  }

  SourceDiagnostics &diags_;
  std::set<std::tuple<std::string, unsigned, std::string>> reported_;
  std::set<std::string> messages_;
};

} // namespace

bool checkSupported(llvm::Module &m, SourceDiagnostics &diags, unsigned recursionDepth) {
  Checker checker(diags);
  for (llvm::Function &f : m)
    for (llvm::Instruction &inst : llvm::instructions(f))
      checker.check(inst);
  if (recursionDepth == 0)
    checker.checkRecursion(m);
  for (llvm::GlobalVariable &g : m.globals())
    if (g.isThreadLocal())
      diags.error("", 0, 0,
                  "thread-local variable '" + g.getName().str() + "' is not supported on the tile");
  return !diags.hasErrors();
}

} // namespace popc
