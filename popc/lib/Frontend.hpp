// Front end: one codelet source -> unoptimised LLVM IR for the 32-bit tile layout + its vertices.
#ifndef popc_Frontend_hpp
#define popc_Frontend_hpp

#include "Options.hpp"
#include "VertexModel.hpp"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace popc {

/// Parses `file` with Clang (__POPC__ defined, freestanding, no exceptions or RTTI), checks the
/// constructs the tile cannot run that are visible in the AST (virtual functions, new/delete),
/// describes every vertex class and generates LLVM IR without optimisation (the pipeline adds
/// entry points first). Problems are Clang diagnostics printed to stderr; on any error the
/// result is null and `vertices` is unspecified. Every file the preprocessor read (the source,
/// its headers, system headers included) is appended to `dependencies` as an absolute path.
std::unique_ptr<llvm::Module> compileToIR(const std::string &file, const CompileOptions &options,
                                          llvm::LLVMContext &context,
                                          std::vector<VertexInfo> &vertices,
                                          std::vector<std::string> &dependencies);

} // namespace popc

#endif
