// The whole compiler as one call: codelet sources -> .gp (and readable assembly for -S).
#ifndef popc_Pipeline_hpp
#define popc_Pipeline_hpp

#include "Options.hpp"

#include "gp/GpFile.hpp"

#include <string>
#include <vector>

namespace popc {

/// Compiles every input of `options` into one code object. Problems are reported as Clang
/// diagnostics on stderr; returns false if there was an error (then `out` is unspecified).
/// `dependencies`, if given, receives every file the compile read, each once (for popc -MD).
bool compileCodelets(const CompileOptions &options, poplar::gp::GpFile &out,
                     std::vector<std::string> *dependencies = nullptr);

/// Readable listing of a code object: vertices and their fields, then the code with labels,
/// source lines and symbols (what -S writes and --disassemble prints).
std::string listing(const poplar::gp::GpFile &file);

} // namespace popc

#endif
