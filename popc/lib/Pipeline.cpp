// The compiler, stage by stage. POPC_DUMP=<stage>|all prints the IR after a named stage.
#include "Pipeline.hpp"

#include "Diagnostics.hpp"
#include "Frontend.hpp"
#include "passes/EmitCode.hpp"
#include "passes/IRPasses.hpp"
#include "passes/Lowering.hpp"
#include "passes/MachinePasses.hpp"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>
#include <set>

namespace popc {

namespace {

bool dumping(const char *stage) {
  const char *want = std::getenv("POPC_DUMP");
  return want && (std::string(want) == stage || std::string(want) == "all");
}

void dump(const char *stage, const llvm::Module &m) {
  if (dumping(stage))
    llvm::errs() << "*** after " << stage << " ***\n" << m;
}

void dump(const char *stage, const mir::Module &m) {
  if (!dumping(stage))
    return;
  llvm::errs() << "*** after " << stage << " ***\n";
  for (const auto &f : m.functions)
    llvm::errs() << mir::print(*f);
}

/// Front end for every input, linked into one module.
std::unique_ptr<llvm::Module> compileInputs(const CompileOptions &options,
                                            llvm::LLVMContext &context,
                                            std::vector<VertexInfo> &vertices,
                                            std::vector<std::string> &dependencies,
                                            SourceDiagnostics &diags) {
  std::unique_ptr<llvm::Module> linked;
  bool ok = true;
  for (const std::string &file : options.inputs) {
    std::vector<VertexInfo> found;
    std::unique_ptr<llvm::Module> m = compileToIR(file, options, context, found, dependencies);
    if (!m) {
      ok = false;
      continue;
    }
    vertices.insert(vertices.end(), found.begin(), found.end());
    if (!linked)
      linked = std::move(m);
    else if (llvm::Linker::linkModules(*linked, std::move(m)))
      ok = false; // the linker has printed why
  }
  std::map<std::string, const VertexInfo *> names;
  for (const VertexInfo &v : vertices) {
    auto [it, added] = names.emplace(v.desc.name, &v);
    if (!added) {
      diags.error(v.where.file, v.where.line, v.where.column,
                  "vertex '" + v.desc.name + "' is defined more than once (also at " +
                      it->second->where.file + ":" + std::to_string(it->second->where.line) + ")");
      ok = false;
    }
  }
  return ok ? std::move(linked) : nullptr;
}

/// Links the runtime functions the module calls (runtime/Double.cpp), optimised on their own
/// and made internal.
bool linkRuntime(llvm::Module &module, const CompileOptions &options,
                 std::vector<std::string> &dependencies) {
  std::string source = options.runtimeDir + "/Double.cpp";
  CompileOptions runtime = options;
  runtime.inputs = {source};
  runtime.includeDirs.clear();
  runtime.defines.clear();
  runtime.extraFlags.clear();
  std::vector<VertexInfo> none;
  std::unique_ptr<llvm::Module> m =
      compileToIR(source, runtime, module.getContext(), none, dependencies);
  if (!m)
    return false;
  optimizeModule(*m, 2);
  std::vector<std::string> defined;
  for (const llvm::Function &f : *m)
    if (!f.isDeclaration())
      defined.push_back(f.getName().str());
  if (llvm::Linker::linkModules(module, std::move(m), llvm::Linker::LinkOnlyNeeded))
    return false; // the linker has printed why
  for (const std::string &name : defined)
    if (llvm::Function *f = module.getFunction(name))
      f->setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
}

} // namespace

bool compileCodelets(const CompileOptions &options, poplar::gp::GpFile &out,
                     std::vector<std::string> *dependencies) {
  SourceDiagnostics diags;
  llvm::LLVMContext context;
  std::vector<VertexInfo> vertices;
  std::vector<std::string> read;
  std::unique_ptr<llvm::Module> module = compileInputs(options, context, vertices, read, diags);
  if (!module)
    return false;
  dump("frontend", *module);

  // LLVM IR stages.
  addEntryPoints(*module, vertices);
  optimizeModule(*module, options.optLevel);
  if (options.optLevel > 0) {
    stridePointers(*module);
    countLoops(*module);
  }
  if (softenDoubles(*module) && !linkRuntime(*module, options, read))
    return false;
  if (dependencies) {
    // Inputs sharing headers list them once; a runtime source linked in is listed too.
    std::set<std::string> seen;
    for (std::string &file : read)
      if (seen.insert(file).second)
        dependencies->push_back(std::move(file));
  }
  selectVectorInstructions(*module);
  prepareForLowering(*module);
  if (options.optLevel > 0)
    hoistLoopConstants(*module);
  dump("optimize", *module);
  assert(!llvm::verifyModule(*module, &llvm::errs()) && "optimised IR is invalid");
  if (!checkSupported(*module, diags, options.recursionDepth))
    return false;

  // Lowering to machine IR.
  mir::Module machine;
  GlobalOffsets globals;
  if (!layoutGlobals(*module, machine, globals, diags) ||
      !lowerFunctions(*module, globals, machine, diags))
    return false;
  dump("isel", machine);
  std::set<std::string> entries;
  for (const VertexInfo &v : vertices)
    entries.insert(entrySymbol(v));
  for (auto &f : machine.functions) {
    f->vertexEntry = entries.count(f->name) != 0;
    removeDeadCode(*f);
    formPostIncrement(*f);
    coalesceCopies(*f);
    allocateRegisters(*f);
    layoutFrame(*f);
    layoutBlocks(*f);
    formRepeatLoops(*f);
  }
  dump("final", machine);

  // The code object.
  if (!emitCode(machine, out, diags, options.recursionDepth))
    return false;
  out.target = options.target;
  out.producer = "popc " POPC_VERSION;
  out.data = std::move(machine.data);
  out.dataAlign = machine.dataAlign;
  out.relocations = std::move(machine.dataRelocations);
  out.symbols.insert(out.symbols.end(), machine.dataSymbols.begin(), machine.dataSymbols.end());
  for (VertexInfo &v : vertices) {
    std::string entry = entrySymbol(v);
    for (const auto &f : machine.functions)
      if (f->name == entry) {
        v.desc.entry = f->entryPc;
        v.desc.stackSize = f->stackSize;
      }
    out.vertices.push_back(v.desc);
  }
  return !diags.hasErrors();
}

} // namespace popc
