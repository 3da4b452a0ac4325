// Clang diagnostics for problems found after the front end (in LLVM IR or during lowering).
#ifndef popc_Diagnostics_hpp
#define popc_Diagnostics_hpp

#include <memory>
#include <string>

namespace llvm {
class DebugLoc;
class Function;
class Instruction;
} // namespace llvm

namespace popc {

/// Reports "file:line:col: error: message" through a Clang DiagnosticsEngine of its own, mapping
/// LLVM debug locations back to source positions (the front end's SourceManager is gone by then).
class SourceDiagnostics {
public:
  SourceDiagnostics();
  ~SourceDiagnostics();

  /// An error at the instruction's source position (its function's if it has none).
  void error(const llvm::Instruction &at, const std::string &message);
  /// An error at the function's definition.
  void error(const llvm::Function &at, const std::string &message);
  /// An error at an explicit position; line 0 reports without a position.
  void error(const std::string &file, unsigned line, unsigned column, const std::string &message);
  bool hasErrors() const { return errors_ != 0; }

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  unsigned errors_ = 0;
};

} // namespace popc

#endif
