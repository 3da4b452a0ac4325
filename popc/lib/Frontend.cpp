// Front end: runs Clang on one codelet source, finds its vertices and keeps the LLVM IR.
#include "Frontend.hpp"

#include "VertexFields.hpp"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#ifndef POPC_CLANG_RESOURCE_DIR
#error "POPC_CLANG_RESOURCE_DIR must name Clang's resource directory (builtin headers)"
#endif

namespace popc {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

/// Reports the AST constructs the tile cannot run and collects the vertex classes.
class VertexCollector : public MatchFinder::MatchCallback {
public:
  VertexCollector(DiagnosticsEngine &diags, std::vector<VertexInfo> &vertices)
      : diags_(diags), vertices_(vertices) {}

  void registerMatchers(MatchFinder &finder) {
    auto vertexBase = cxxRecordDecl(
        hasAnyName("::poplar::Vertex", "::poplar::MultiVertex", "::poplar::SupervisorVertex"));
    finder.addMatcher(cxxRecordDecl(isDefinition(), isDerivedFrom(vertexBase)).bind("vertex"),
                      this);
    auto user = unless(isExpansionInSystemHeader());
    finder.addMatcher(cxxMethodDecl(isVirtual(), user).bind("virtual"), this);
    finder.addMatcher(cxxNewExpr(user).bind("new"), this);
    finder.addMatcher(cxxDeleteExpr(user).bind("delete"), this);
    finder.addMatcher(castExpr(hasCastKind(CK_LValueToRValueBitCast), user).bind("bitcast"), this);
  }

  void run(const MatchFinder::MatchResult &result) override {
    if (const auto *m = result.Nodes.getNodeAs<CXXMethodDecl>("virtual")) {
      report(m->getLocation(), "virtual function '" + m->getQualifiedNameAsString() +
                                   "' is not supported on the tile (there are no indirect "
                                   "calls); use a template parameter instead");
      return;
    }
    if (const auto *e = result.Nodes.getNodeAs<CXXNewExpr>("new")) {
      report(e->getBeginLoc(), "heap allocation ('new') is not supported on the tile; use a "
                               "fixed-size local array or a vertex field");
      return;
    }
    if (const auto *e = result.Nodes.getNodeAs<CXXDeleteExpr>("delete")) {
      report(e->getBeginLoc(), "heap allocation ('delete') is not supported on the tile; use "
                               "a fixed-size local array or a vertex field");
      return;
    }
    if (const auto *e = result.Nodes.getNodeAs<CastExpr>("bitcast")) {
      // Clang 14 generates a bit cast of a vector element from the vector's address, dropping
      // the lane: v[1] or v.y would silently read v[0]. Refuse it rather than miscompile.
      if (isVectorElement(*e->getSubExpr()))
        report(e->getBeginLoc(), "__builtin_bit_cast of a vector element is not supported (Clang "
                                 "14 would read the vector's first element); copy the element "
                                 "to a local variable first");
      return;
    }
    const auto *rd = result.Nodes.getNodeAs<CXXRecordDecl>("vertex");
    if (!rd || !isCompiledVertex(*rd) || !seen_.insert(rd).second)
      return;
    VertexInfo info;
    if (describeVertex(*rd, *result.Context, diags_, info))
      vertices_.push_back(std::move(info));
  }

private:
  /// Templates only exist in the .gp as the specialisations the source instantiates explicitly
  /// (as in Poplar); implicit instantiations and the patterns themselves are not vertices.
  static bool isCompiledVertex(const CXXRecordDecl &rd) {
    if (rd.isDependentContext() || rd.isInvalidDecl())
      return false;
    if (const auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(&rd)) {
      TemplateSpecializationKind k = spec->getSpecializationKind();
      return k == TSK_ExplicitInstantiationDefinition || k == TSK_ExplicitSpecialization;
    }
    return true;
  }

  static bool isVectorElement(const Expr &e) {
    const Expr *inner = e.IgnoreParens();
    if (isa<ExtVectorElementExpr>(inner))
      return true;
    const auto *subscript = dyn_cast<ArraySubscriptExpr>(inner);
    return subscript && subscript->getBase()->IgnoreParenImpCasts()->getType()->isVectorType();
  }

  void report(SourceLocation loc, const std::string &message) {
    diags_.Report(loc, diags_.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << message;
  }

  DiagnosticsEngine &diags_;
  std::vector<VertexInfo> &vertices_;
  llvm::SmallPtrSet<const CXXRecordDecl *, 16> seen_;
};

/// Runs ahead of Clang's code generator: marks each vertex's compute() as used so that its
/// (inline) definition is emitted, and collects the vertices once the AST is complete.
class VertexConsumer : public ASTConsumer {
public:
  VertexConsumer(DiagnosticsEngine &diags, std::vector<VertexInfo> &vertices)
      : collector_(diags, vertices) {
    collector_.registerMatchers(finder_);
  }

  void HandleTagDeclDefinition(TagDecl *tag) override {
    auto *rd = dyn_cast<CXXRecordDecl>(tag);
    poplar::gp::VertexKind kind;
    if (!rd || rd->isDependentContext() || !vertexKindOf(*rd, kind))
      return;
    for (CXXMethodDecl *m : rd->methods())
      if (m->getDeclName().isIdentifier() && m->getName() == "compute" && !m->hasAttr<UsedAttr>())
        m->addAttr(UsedAttr::CreateImplicit(rd->getASTContext()));
  }

  void HandleTranslationUnit(ASTContext &context) override { finder_.matchAST(context); }

private:
  VertexCollector collector_;
  MatchFinder finder_;
};

/// Clang's IR-only code generation action with the vertex consumer in front of it.
class PopcAction : public EmitLLVMOnlyAction {
public:
  PopcAction(llvm::LLVMContext &context, std::vector<VertexInfo> &vertices)
      : EmitLLVMOnlyAction(&context), vertices_(vertices) {}

  std::unique_ptr<llvm::Module> module;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, StringRef inFile) override {
    std::vector<std::unique_ptr<ASTConsumer>> consumers;
    consumers.push_back(std::make_unique<VertexConsumer>(ci.getDiagnostics(), vertices_));
    consumers.push_back(EmitLLVMOnlyAction::CreateASTConsumer(ci, inFile));
    return std::make_unique<MultiplexConsumer>(std::move(consumers));
  }

  // The action (and with it the module) dies when the run ends, so take the module now.
  void EndSourceFileAction() override {
    EmitLLVMOnlyAction::EndSourceFileAction();
    module = takeModule();
  }

private:
  std::vector<VertexInfo> &vertices_;
};

/// Every file the preprocessor enters, system headers too: the codelet cache must see a change
/// to any of them (popc's own headers and libc++ included), as make does with -MD.
class AllDependencies : public DependencyCollector {
  bool needSystemDependencies() override { return true; }
};

/// Clang -cc1 arguments for compiling a codelet for the tile.
std::vector<std::string> frontendArgs(const std::string &file, const CompileOptions &o) {
  std::vector<std::string> args = {
      // A 32-bit little-endian layout: pointers, int and long are 32 bits, as on the IPU; no OS.
      "-triple", "i386-unknown-unknown", "-x", "c++", "-std=c++17",
      // No C library on the tile; keeps Clang from turning loops into library calls.
      "-ffreestanding", "-fno-rtti", "-fnative-half-arguments-and-returns",
      "-fallow-half-arguments-and-returns", "-resource-dir", POPC_CLANG_RESOURCE_DIR,
      "-nostdsysteminc", "-D__POPC__=1",
      // Line tables always: faults and diagnostics after code generation name source lines.
      o.debugInfo ? "-debug-info-kind=limited" : "-debug-info-kind=line-tables-only",
      "-dwarf-version=4",
      // Poplar attributes this compiler does not need: [[poplar::constraint]] etc.
      "-Wno-unknown-attributes", "-O" + std::to_string(o.optLevel),
      // The pipeline optimises after adding entry points (see Pipeline.cpp).
      "-disable-llvm-passes", "-disable-O0-optnone"};
  for (const std::string &d : o.includeDirs)
    args.insert(args.end(), {"-I", d});
  for (const std::string &d : o.defines)
    args.insert(args.end(), {"-D", d});
  args.insert(args.end(), {"-isystem", o.poplarIncludeDir});
  // The tile's standard library, then Clang's own headers (stddef.h, stdint.h, float.h, ...),
  // which the libc++ and C headers include last.
  for (const std::string &d : o.libraryIncludeDirs)
    args.insert(args.end(), {"-internal-isystem", d});
  args.insert(args.end(), {"-internal-isystem", POPC_CLANG_RESOURCE_DIR "/include"});
  // The __builtin_ipu_* functions are compiler builtins in Graphcore's Clang: codelets call them
  // without an include, so popc's definitions of them are part of every codelet.
  args.insert(args.end(), {"-include", "__popc_builtins.h"});
  args.insert(args.end(), o.extraFlags.begin(), o.extraFlags.end());
  args.push_back(file);
  return args;
}

} // namespace

std::unique_ptr<llvm::Module> compileToIR(const std::string &file, const CompileOptions &options,
                                          llvm::LLVMContext &context,
                                          std::vector<VertexInfo> &vertices,
                                          std::vector<std::string> &dependencies) {
  std::vector<std::string> args = frontendArgs(file, options);
  std::vector<const char *> argv;
  for (const std::string &a : args)
    argv.push_back(a.c_str());

  auto ci = std::make_unique<CompilerInstance>();
  ci->createDiagnostics(new TextDiagnosticPrinter(llvm::errs(), new DiagnosticOptions()));
  if (!CompilerInvocation::CreateFromArgs(ci->getInvocation(), argv, ci->getDiagnostics()))
    return nullptr;
  // createDiagnostics again so the printer honours the invocation's diagnostic options.
  ci->createDiagnostics();
  // Poplar's supervisor entry attribute means nothing here; accept it silently.
  ci->getDiagnostics().setSeverity(diag::warn_unsupported_target_attribute, diag::Severity::Ignored,
                                   SourceLocation());

  auto collector = std::make_shared<AllDependencies>();
  ci->addDependencyCollector(collector);

  PopcAction action(context, vertices);
  if (!ci->ExecuteAction(action) || ci->getDiagnostics().hasErrorOccurred() || !action.module)
    return nullptr;
  for (const std::string &dep : collector->getDependencies()) {
    llvm::SmallString<256> path(dep);
    llvm::sys::fs::make_absolute(path);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    dependencies.push_back(std::string(path));
  }
  return std::move(action.module);
}

} // namespace popc
