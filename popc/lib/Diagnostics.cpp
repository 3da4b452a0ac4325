// Maps LLVM debug locations to Clang source locations and reports through DiagnosticsEngine.
#include "Diagnostics.hpp"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace popc {

using namespace clang;

struct SourceDiagnostics::Impl {
  Impl()
      : files(FileSystemOptions()),
        diags(new DiagnosticIDs(), new DiagnosticOptions(),
              new TextDiagnosticPrinter(llvm::errs(), new DiagnosticOptions())),
        sources(diags, files) {
    diags.setSourceManager(&sources);
    diags.getClient()->BeginSourceFile(lang);
    errorId = diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
  }
  ~Impl() { diags.getClient()->EndSourceFile(); }

  SourceLocation locate(const std::string &file, unsigned line, unsigned column) {
    if (line == 0)
      return {};
    auto it = fileIds.find(file);
    if (it == fileIds.end()) {
      FileID id;
      if (auto entry = files.getFile(file))
        id = sources.createFileID(*entry, SourceLocation(), SrcMgr::C_User);
      it = fileIds.emplace(file, id).first;
    }
    if (it->second.isInvalid())
      return {};
    return sources.translateLineCol(it->second, line, column ? column : 1);
  }

  LangOptions lang;
  FileManager files;
  DiagnosticsEngine diags;
  SourceManager sources;
  std::map<std::string, FileID> fileIds;
  unsigned errorId;
};

SourceDiagnostics::SourceDiagnostics() : impl_(std::make_unique<Impl>()) {}
SourceDiagnostics::~SourceDiagnostics() = default;

static std::string pathOf(const llvm::DIScope *scope) {
  if (!scope)
    return "";
  llvm::SmallString<256> path(scope->getFilename());
  if (!llvm::sys::path::is_absolute(path) && !scope->getDirectory().empty())
    llvm::sys::fs::make_absolute(scope->getDirectory(), path);
  return std::string(path);
}

void SourceDiagnostics::error(const std::string &file, unsigned line, unsigned column,
                              const std::string &message) {
  ++errors_;
  SourceLocation loc = impl_->locate(file, line, column);
  if (loc.isInvalid() && line != 0) {
    // The source is gone; still name the position.
    llvm::errs() << file << ":" << line << ":" << column << ": error: " << message << "\n";
    return;
  }
  impl_->diags.Report(loc, impl_->errorId) << message;
}

void SourceDiagnostics::error(const llvm::Function &at, const std::string &message) {
  const llvm::DISubprogram *sp = at.getSubprogram();
  if (!sp) {
    error("", 0, 0, "in '" + at.getName().str() + "': " + message);
    return;
  }
  error(pathOf(sp), sp->getLine(), 0, message);
}

void SourceDiagnostics::error(const llvm::Instruction &at, const std::string &message) {
  const llvm::DILocation *loc = at.getDebugLoc().get();
  if (!loc) {
    error(*at.getFunction(), message);
    return;
  }
  error(pathOf(loc->getScope()), loc->getLine(), loc->getColumn(), message);
}

} // namespace popc
