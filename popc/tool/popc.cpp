// popc: compiles C++ codelets into a .gp code object for the simulated IPU tile.
#include "DependencyFile.hpp"
#include "Pipeline.hpp"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>

using namespace llvm;

static cl::OptionCategory PopcCategory("popc options");
static cl::list<std::string> Inputs(cl::Positional, cl::desc("<codelet.cpp...> | <file.gp>"),
                                    cl::cat(PopcCategory));
static cl::opt<std::string> Output("o", cl::desc("Output file"), cl::value_desc("out.gp"),
                                   cl::cat(PopcCategory));
static cl::opt<char> OptLevel("O", cl::Prefix, cl::init('2'), cl::value_desc("0-3"),
                              cl::desc("Optimisation level (default 2)"), cl::cat(PopcCategory));
static cl::opt<bool> Debug("g", cl::desc("Keep full debug info"), cl::cat(PopcCategory));
static cl::list<std::string> IncludeDirs("I", cl::Prefix, cl::desc("Add an include directory"),
                                         cl::value_desc("dir"), cl::cat(PopcCategory));
static cl::list<std::string> Defines("D", cl::Prefix, cl::desc("Define a macro"),
                                     cl::value_desc("name[=value]"), cl::cat(PopcCategory));
static cl::opt<std::string> Target("target", cl::init("ipu2"),
                                   cl::desc("Target: ipu1, ipu2 or ipu21 (a list takes the "
                                            "first; all share the tile ISA)"),
                                   cl::cat(PopcCategory));
static cl::opt<unsigned> RecursionDepth(
    "recursion-depth", cl::init(16), cl::value_desc("n"),
    cl::desc("Levels of recursion a vertex's stack holds (deeper traps as a stack overflow; 0 "
             "rejects recursion; default 16)"),
    cl::cat(PopcCategory));
static cl::opt<bool> ListTargets("list-targets", cl::desc("Print the supported targets"),
                                 cl::cat(PopcCategory));
static cl::opt<bool> EmitAssembly("S", cl::desc("Write a readable assembly listing"),
                                  cl::cat(PopcCategory));
static cl::opt<bool> WriteDependencies("MD",
                                       cl::desc("Write the files the compile read as a make "
                                                "rule (to -MF, else the output with .d)"),
                                       cl::cat(PopcCategory));
static cl::opt<std::string> DependencyFile("MF", cl::desc("Where -MD writes its rule"),
                                           cl::value_desc("file"), cl::cat(PopcCategory));
static cl::opt<bool> Disassemble("disassemble", cl::desc("Print the listing of a .gp file"),
                                 cl::cat(PopcCategory));

static int fail(const Twine &message) {
  WithColor::error(errs(), "popc") << message << "\n";
  return 1;
}

/// Writes `bytes` to -o, or to stdout for "-" (and for listings without -o).
static bool writeOutput(const std::string &bytes) {
  if (Output.empty() || Output == "-") {
    outs() << bytes;
    return true;
  }
  std::ofstream out(Output, std::ios::binary | std::ios::trunc);
  out << bytes;
  return static_cast<bool>(out);
}

/// -MD's make rule: to -MF, else beside the output (out.gp -> out.d), as Clang and GCC do.
static bool writeDependencies(const std::vector<std::string> &dependencies) {
  std::string path = DependencyFile;
  if (path.empty()) {
    if (Output.empty() || Output == "-") {
      fail("-MD needs -MF or -o to name its file");
      return false;
    }
    StringRef out(Output);
    path = (out.endswith(".gp") ? out.drop_back(3).str() : out.str()) + ".d";
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << popc::dependencyRule(Output.empty() ? "-" : Output.getValue(), dependencies);
  if (!file) {
    fail("cannot write the dependency file '" + path + "'");
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // -W... go to Clang untouched (LLVM's option registry already owns the name "W").
  std::vector<const char *> args;
  std::vector<std::string> warnings;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && StringRef(argv[i]).startswith("-W"))
      warnings.push_back(argv[i]);
    else
      args.push_back(argv[i]);
  }
  cl::HideUnrelatedOptions(PopcCategory);
  cl::ParseCommandLineOptions(static_cast<int>(args.size()), args.data(),
                              "popc: codelet compiler for the simulated IPU\n"
                              "  -W<warning>  passed to Clang (e.g. -Werror -Wdouble-promotion)\n");
  if (ListTargets) {
    outs() << popc::supportedTargets() << "\n";
    return 0;
  }
  if (Inputs.empty())
    return fail("no input files");

  if (Disassemble) {
    if (Inputs.size() != 1)
      return fail("--disassemble takes exactly one .gp file");
    try {
      return writeOutput(popc::listing(poplar::gp::readGpFile(Inputs[0]))) ? 0 : 1;
    } catch (const poplar::gp::GpFormatError &e) {
      return fail(e.what());
    }
  }

  popc::CompileOptions options;
  options.inputs.assign(Inputs.begin(), Inputs.end());
  options.includeDirs.assign(IncludeDirs.begin(), IncludeDirs.end());
  options.defines.assign(Defines.begin(), Defines.end());
  options.extraFlags = warnings;
  if (OptLevel < '0' || OptLevel > '3')
    return fail("invalid optimisation level -O" + Twine(OptLevel.getValue()));
  options.optLevel = OptLevel - '0';
  options.debugInfo = Debug;
  // A comma-separated list builds one object that loads on each of those targets (the
  // tile ISA and the code do not differ between them; only the cycle figures do, at run time).
  options.target = Target;
  SmallVector<StringRef, 4> targets;
  StringRef(options.target).split(targets, ',');
  for (StringRef t : targets)
    if (!popc::isSupportedTarget(t.str()))
      return fail("unknown target '" + t + "' (supported: " + popc::supportedTargets() + ")");
  options.poplarIncludeDir = popc::defaultPoplarIncludeDir(argv[0]);
  options.libraryIncludeDirs = popc::defaultLibraryIncludeDirs(argv[0]);
  options.runtimeDir = popc::defaultRuntimeDir(argv[0]);
  options.recursionDepth = RecursionDepth;
  if (!EmitAssembly && Output.empty())
    return fail("no output file: use -o out.gp");

  poplar::gp::GpFile object;
  std::vector<std::string> dependencies;
  if (!popc::compileCodelets(options, object, &dependencies))
    return 1;
  if (WriteDependencies && !writeDependencies(dependencies))
    return 1;
  if (EmitAssembly)
    return writeOutput(popc::listing(object)) ? 0 : fail("cannot write '" + Output + "'");
  try {
    poplar::gp::writeGpFile(object, Output);
  } catch (const std::exception &e) {
    return fail(e.what());
  }
  return 0;
}
