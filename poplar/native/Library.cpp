// libpoplar_native.so's C interface (NativeAbi.hpp): translate a vertex entry to LLVM IR,
// optimise it at -O2 and compile it with one process-wide ORC LLJIT for the host CPU.
#include "CheckVersioning.hpp"
#include "PerfMap.hpp"
#include "Translator.hpp"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/ExecutionEngine/SectionMemoryManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace poplar::native {

namespace {

std::string message(llvm::Error error) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << error;
  return os.str();
}

template <typename T> T orThrow(llvm::Expected<T> value, const char *what) {
  if (!value)
    throw std::runtime_error(std::string(what) + ": " + message(value.takeError()));
  return std::move(*value);
}

/// Sets one of this process's LLVM options (its copy of LLVM is the JIT's alone) as a command
/// line would; false where this LLVM has no such option.
bool setLlvmOption(const char *name, const char *value) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it == options.end())
    return false;
  it->second->addOccurrence(0, it->first(), value);
  return true;
}

// The loop vectoriser interleaves a loop 8 floats wide 4 times, so a loop of fewer than 32
// passes (a tiny vertex's 8 floats, the common rpt of a small tile) runs scalar: 192 host
// instructions of AddOneVertex's, 64 of them its 8 scalar passes. Not interleaving starts the
// vector loop at 8 floats; long loops measured no slower (bench/codelets, docs/performance.md).
//
// A loop that walks two arrays into a third in 64-bit pairs (a popops vertex's float2 loop) has
// six accesses to check at run time against each other, nine checks, one more than the
// vectoriser's default allows: it ran scalar. 32 lets such loops vectorise.
//
// On a host with AVX-512, X86's domain reassignment (general-purpose operations moved to mask
// registers) took 64% of the compilation of a large vertex (popops' Reduce<ReduceAdd,float>:
// 1,210 instructions, 14,000 lines of optimised IR; 5.2 s of which 3.8 s that pass,
// `-time-passes`) for no measured gain in the code: it is off.
void setLlvmOptions() {
  if (!setLlvmOption("force-vector-interleave", "1"))
    throw std::runtime_error("LLVM has no option force-vector-interleave");
  setLlvmOption("disable-x86-domain-reassignment", "true"); // only an X86 backend has it
  if (!setLlvmOption("runtime-memory-check-threshold", "32"))
    throw std::runtime_error("LLVM has no option runtime-memory-check-threshold");
}

// The JIT and the target machine the optimiser tunes for: the host's CPU and features, so the
// machine code is what the host compiler would give with -march=native.
struct Jit {
  PerfMap perfMap; // told of every object loaded (so it outlives the JIT); lists named entries
  std::unique_ptr<llvm::orc::LLJIT> lljit;
  std::unique_ptr<llvm::TargetMachine> machine;
  std::mutex mutex; // one compilation at a time: the pipeline is not the hot path
  std::uint64_t functions = 0;

  Jit() {
    setLlvmOptions();
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto builder = orThrow(llvm::orc::JITTargetMachineBuilder::detectHost(), "host target");
    builder.setCodeGenOptLevel(llvm::CodeGenOpt::Default);
    machine = orThrow(builder.createTargetMachine(), "target machine");
    llvm::orc::LLJITBuilder jitBuilder;
    jitBuilder.setJITTargetMachineBuilder(builder);
    // The linking layer LLJIT makes on this host (RuntimeDyld, section memory), with a listener.
    jitBuilder.setObjectLinkingLayerCreator(
        [this](llvm::orc::ExecutionSession &session, const llvm::Triple &) {
          auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
              session, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
          layer->registerJITEventListener(perfMap);
          return std::unique_ptr<llvm::orc::ObjectLayer>(std::move(layer));
        });
    lljit = orThrow(jitBuilder.create(), "LLJIT");
    // Code generation may call libm or memcpy/memset; they resolve in this process.
    lljit->getMainJITDylib().addGenerator(
        orThrow(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                    lljit->getDataLayout().getGlobalPrefix()),
                "process symbols"));
  }

  void optimize(llvm::Module &module) {
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager cgscc;
    llvm::ModuleAnalysisManager modules;
    llvm::PassBuilder passes(machine.get());
    passes.registerVectorizerStartEPCallback(
        [](llvm::FunctionPassManager &fpm, llvm::OptimizationLevel) {
          fpm.addPass(VersionCheckedLoops());
          fpm.addPass(LowerChecks());
        });
    passes.registerModuleAnalyses(modules);
    passes.registerCGSCCAnalyses(cgscc);
    passes.registerFunctionAnalyses(functions);
    passes.registerLoopAnalyses(loops);
    passes.crossRegisterProxies(loops, functions, cgscc, modules);
    passes.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(module, modules);
  }
};

// Never destroyed: compiled code may be released during the process's exit, after the
// library's static destructors would have run.
Jit &jit() {
  static Jit *instance = new Jit;
  return *instance;
}

void compile(const interp::NativeRequest &request, interp::NativeCompiled &out) {
  if (request.abiVersion != interp::kNativeAbiVersion)
    throw std::runtime_error("request of interface version " + std::to_string(request.abiVersion));
  if (request.entryPc >= request.numWords)
    throw std::runtime_error("entry pc " + std::to_string(request.entryPc) +
                             " is outside the code (" + std::to_string(request.numWords) +
                             " words)");
  const auto start = std::chrono::steady_clock::now();
  Jit &j = jit();
  std::lock_guard<std::mutex> lock(j.mutex);
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("vertex", *context);
  module->setDataLayout(j.machine->createDataLayout());
  module->setTargetTriple(j.machine->getTargetTriple().str());
  const std::string name = "poplar_native_" + std::to_string(++j.functions);
  const TranslationStats stats = Translator(*module, request, name).run();
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*module, &os))
    throw std::runtime_error("the translated IR is invalid: " + os.str());
  j.optimize(*module);
  // A debugging aid (docs/native-tier.md): the optimised IR of every compilation on stderr.
  if (const char *dump = std::getenv("POPLAR_NATIVE_DUMP_IR"); dump && *dump == '1')
    module->print(llvm::errs(), nullptr);
  if (request.name && *request.name && PerfMap::wanted())
    j.perfMap.name(name, request.name);
  auto tracker = j.lljit->getMainJITDylib().createResourceTracker();
  if (llvm::Error e = j.lljit->addIRModule(
          tracker, llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    throw std::runtime_error("adding the module: " + message(std::move(e)));
  const auto symbol = orThrow(j.lljit->lookup(name), "compiling");
  out.entry = reinterpret_cast<interp::NativeEntry>(symbol.getAddress());
  out.handle = new llvm::orc::ResourceTrackerSP(std::move(tracker));
  out.translated = stats.translated;
  out.handedOver = stats.handedOver;
  out.written = stats.written;
  out.compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

} // namespace poplar::native

extern "C" {

__attribute__((visibility("default"))) std::uint32_t poplar_native_abi() {
  return poplar::interp::kNativeAbiVersion;
}

__attribute__((visibility("default"))) bool
poplar_native_compile(const poplar::interp::NativeRequest *request,
                      poplar::interp::NativeCompiled *out) {
  *out = poplar::interp::NativeCompiled{};
  try {
    poplar::native::compile(*request, *out);
    return true;
  } catch (const std::exception &e) {
    std::snprintf(out->error, sizeof out->error, "native tier: %s", e.what());
    return false;
  }
}

__attribute__((visibility("default"))) void poplar_native_release(void *handle) {
  auto *tracker = static_cast<llvm::orc::ResourceTrackerSP *>(handle);
  if (!tracker)
    return;
  {
    std::lock_guard<std::mutex> lock(poplar::native::jit().mutex);
    llvm::consumeError((*tracker)->remove());
  }
  delete tracker;
}

} // extern "C"

// The names libpoplar looks up must be these functions' (NativeAbi.hpp).
static_assert(std::is_same_v<decltype(&poplar_native_abi), PoplarNativeAbiFn>);
static_assert(std::is_same_v<decltype(&poplar_native_compile), PoplarNativeCompileFn>);
static_assert(std::is_same_v<decltype(&poplar_native_release), PoplarNativeReleaseFn>);
