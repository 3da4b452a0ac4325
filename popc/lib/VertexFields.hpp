// Describes a vertex class for the .gp: its name, kind, state layout and fields.
#ifndef popc_VertexFields_hpp
#define popc_VertexFields_hpp

#include "VertexModel.hpp"

namespace clang {
class ASTContext;
class CXXRecordDecl;
class DiagnosticsEngine;
} // namespace clang

namespace popc {

/// Which poplar vertex base `record` derives from, or false if none.
bool vertexKindOf(const clang::CXXRecordDecl &record, poplar::gp::VertexKind &kind);

/// Fills `out` (everything but entry and stackSize) for a complete, non-dependent vertex class.
/// Fields the runtime cannot fill are reported as errors at the field; returns false then.
/// Precondition: vertexKindOf(record) is true.
bool describeVertex(const clang::CXXRecordDecl &record, clang::ASTContext &context,
                    clang::DiagnosticsEngine &diags, VertexInfo &out);

/// The name addVertex uses: "SumVertex", "popops::Foo<half,true>" (poputil::templateVertex form:
/// Poplar type names, true/false, qualified enumerators, no spaces after commas).
std::string vertexTypeName(const clang::CXXRecordDecl &record, const clang::ASTContext &context);

} // namespace popc

#endif
