// Vertex classes -> .gp vertex descriptions: names, kinds, state layout and field table.
#include "VertexFields.hpp"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

namespace popc {

using namespace clang;
namespace gp = poplar::gp;

namespace {

/// The poplar class template `type` is a specialisation of ("Input", "Vector", ...), or null.
const ClassTemplateSpecializationDecl *poplarTemplate(QualType type, StringRef name) {
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      type.getCanonicalType()->getAsCXXRecordDecl());
  if (!spec || spec->getName() != name)
    return nullptr;
  const auto *ns = dyn_cast<NamespaceDecl>(spec->getDeclContext());
  if (!ns || ns->getName() != "poplar" || !ns->getParent()->isTranslationUnit())
    return nullptr;
  return spec;
}

bool isPoplarClass(const CXXRecordDecl &rd, StringRef name) {
  const auto *ns = dyn_cast<NamespaceDecl>(rd.getDeclContext());
  return rd.getName() == name && ns && ns->getName() == "poplar" &&
         ns->getParent()->isTranslationUnit();
}

/// Poplar's name for a scalar element type, or "" if it has none.
std::string elementTypeName(QualType type) {
  type = type.getCanonicalType().getUnqualifiedType();
  if (const auto *et = type->getAs<EnumType>())
    type = et->getDecl()->getIntegerType().getCanonicalType();
  const auto *bt = type->getAs<BuiltinType>();
  if (!bt)
    return "";
  switch (bt->getKind()) {
  case BuiltinType::Bool:
    return "bool";
  case BuiltinType::Char_S:
  case BuiltinType::Char_U:
    return "char";
  case BuiltinType::SChar:
    return "signed char";
  case BuiltinType::UChar:
    return "unsigned char";
  case BuiltinType::Short:
    return "short";
  case BuiltinType::UShort:
    return "unsigned short";
  case BuiltinType::Int:
  case BuiltinType::Long: // 32 bits on the tile
    return "int";
  case BuiltinType::UInt:
  case BuiltinType::ULong:
    return "unsigned int";
  case BuiltinType::LongLong:
    return "long long";
  case BuiltinType::ULongLong:
    return "unsigned long long";
  case BuiltinType::Half:
  case BuiltinType::Float16:
    return "half";
  case BuiltinType::Float:
    return "float";
  default:
    return "";
  }
}

gp::Layout vectorLayout(const ClassTemplateSpecializationDecl &vector) {
  // poplar::VectorLayout enumerators are in the order of gp::Layout's first entries.
  uint64_t v = vector.getTemplateArgs()[1].getAsIntegral().getZExtValue();
  return v <= unsigned(gp::Layout::Span) ? static_cast<gp::Layout>(v) : gp::Layout::NotAVector;
}

gp::Layout listLayout(const ClassTemplateSpecializationDecl &list) {
  uint64_t v = list.getTemplateArgs()[1].getAsIntegral().getZExtValue();
  uint64_t first = unsigned(gp::Layout::ListOnePtr);
  uint64_t last = unsigned(gp::Layout::ListCompactDeltaN);
  return v <= last - first ? static_cast<gp::Layout>(first + v) : gp::Layout::NotAVector;
}

/// Direction of an Input/Output/InOut specialisation, and its wrapped type.
const ClassTemplateSpecializationDecl *edgeOf(QualType type, gp::FieldDirection &dir) {
  static const std::pair<const char *, gp::FieldDirection> edges[] = {
      {"Input", gp::FieldDirection::Input},
      {"Output", gp::FieldDirection::Output},
      {"InOut", gp::FieldDirection::InOut}};
  for (const auto &[name, d] : edges)
    if (const auto *spec = poplarTemplate(type, name)) {
      dir = d;
      return spec;
    }
  return nullptr;
}

class FieldDescriber {
public:
  FieldDescriber(ASTContext &ctx, DiagnosticsEngine &diags, const std::string &vertexName)
      : ctx_(ctx), diags_(diags), vertexName_(vertexName) {}

  /// Fills kind, direction, layouts and element type of `f`; false (after a diagnostic) if
  /// the runtime could not fill a field of this type.
  bool describe(const FieldDecl &fd, gp::Field &f) {
    QualType type = fd.getType().getCanonicalType().getUnqualifiedType();
    gp::FieldDirection dir;
    if (const auto *edge = edgeOf(type, dir)) {
      f.direction = dir;
      QualType inner = edge->getTemplateArgs()[0].getAsType();
      if (const auto *vec = poplarTemplate(inner, "Vector"))
        return vector(fd, *vec, gp::FieldKind::Vector, f);
      if (const auto *list = poplarTemplate(inner, "VectorList")) {
        f.kind = gp::FieldKind::VectorList;
        f.layout = listLayout(*list);
        if (!element(fd, list->getTemplateArgs()[0].getAsType(), f))
          return false;
        f.minAlign = list->getTemplateArgs()[2].getAsIntegral().getZExtValue();
        return true;
      }
      f.kind = gp::FieldKind::Scalar;
      return element(fd, inner, f);
    }
    if (const auto *vec = poplarTemplate(type, "Vector")) {
      QualType elem = vec->getTemplateArgs()[0].getAsType();
      gp::FieldDirection innerDir;
      if (const auto *innerEdge = edgeOf(elem, innerDir)) {
        const auto *innerVec =
            poplarTemplate(innerEdge->getTemplateArgs()[0].getAsType(), "Vector");
        if (!innerVec)
          return unsupported(fd, "a Vector of edges must hold edges to Vectors");
        f.direction = innerDir;
        f.innerLayout = vectorLayout(*innerVec);
        if (!vector(fd, *vec, gp::FieldKind::VectorOfEdges, f))
          return false;
        f.minAlign = innerVec->getTemplateArgs()[2].getAsIntegral().getZExtValue();
        return element(fd, innerVec->getTemplateArgs()[0].getAsType(), f);
      }
      f.direction = gp::FieldDirection::State;
      return vector(fd, *vec, gp::FieldKind::Vector, f);
    }
    if (poplarTemplate(type, "VectorList"))
      return unsupported(fd, "a VectorList must be wrapped in Input, Output or InOut");
    f.direction = gp::FieldDirection::State;
    f.kind = gp::FieldKind::Value;
    return element(fd, type, f);
  }

private:
  bool vector(const FieldDecl &fd, const ClassTemplateSpecializationDecl &vec, gp::FieldKind kind,
              gp::Field &f) {
    f.kind = kind;
    f.layout = vectorLayout(vec);
    if (f.layout == gp::Layout::NotAVector)
      return unsupported(fd, "the Vector layout must not be NOT_A_VECTOR");
    f.minAlign = vec.getTemplateArgs()[2].getAsIntegral().getZExtValue();
    if (kind == gp::FieldKind::VectorOfEdges)
      return true;
    return element(fd, vec.getTemplateArgs()[0].getAsType(), f);
  }

  bool element(const FieldDecl &fd, QualType elem, gp::Field &f) {
    f.elementType = elementTypeName(elem);
    if (f.elementType.empty())
      return unsupported(fd, "its element type '" + elem.getAsString() +
                                 "' is not a tensor element type (bool, char, short, int, "
                                 "long long and their unsigned forms, half, float)");
    f.elementSize = ctx_.getTypeSizeInChars(elem).getQuantity();
    if (f.kind != gp::FieldKind::VectorOfEdges && f.kind != gp::FieldKind::Vector)
      f.minAlign = ctx_.getTypeAlignInChars(elem).getQuantity();
    return true;
  }

  bool unsupported(const FieldDecl &fd, const std::string &why) {
    unsigned id = diags_.getCustomDiagID(DiagnosticsEngine::Error,
                                         "field '%0' of vertex '%1' cannot be vertex state: %2");
    diags_.Report(fd.getLocation(), id) << fd.getName() << vertexName_ << why;
    return false;
  }

  ASTContext &ctx_;
  DiagnosticsEngine &diags_;
  const std::string &vertexName_;
};

/// The poplar/VectorTypes.hpp name of a vector type (float2, half4, uint2, ...), or "".
std::string vectorTypeName(QualType type) {
  const auto *vt = type.getCanonicalType()->getAs<clang::VectorType>();
  if (!vt)
    return "";
  static const std::pair<const char *, const char *> prefixes[] = {
      {"float", "float"},       {"half", "half"},        {"int", "int"},
      {"unsigned int", "uint"}, {"short", "short"},      {"unsigned short", "ushort"},
      {"char", "char"},         {"signed char", "char"}, {"unsigned char", "uchar"},
      {"long long", "longlong"}};
  std::string element = elementTypeName(vt->getElementType());
  for (const auto &[from, to] : prefixes)
    if (element == from)
      return to + std::to_string(vt->getNumElements());
  return "";
}

void printTemplateArgument(const TemplateArgument &arg, const ASTContext &ctx,
                           llvm::raw_ostream &os) {
  switch (arg.getKind()) {
  case TemplateArgument::Type: {
    std::string name = elementTypeName(arg.getAsType());
    if (name.empty())
      name = vectorTypeName(arg.getAsType());
    if (name.empty())
      name = arg.getAsType().getAsString(ctx.getPrintingPolicy());
    os << name;
    return;
  }
  case TemplateArgument::Integral: {
    QualType type = arg.getIntegralType();
    if (type->isBooleanType()) {
      os << (arg.getAsIntegral().getBoolValue() ? "true" : "false");
      return;
    }
    if (const auto *et = type->getAs<EnumType>())
      for (const EnumConstantDecl *e : et->getDecl()->enumerators())
        if (llvm::APSInt::isSameValue(e->getInitVal(), arg.getAsIntegral())) {
          os << e->getQualifiedNameAsString();
          return;
        }
    os << arg.getAsIntegral();
    return;
  }
  default:
    arg.print(ctx.getPrintingPolicy(), os, /*IncludeType=*/false);
  }
}

/// Appends the fields of `rd` and of its bases (base subobjects first, as in memory) to `out`.
bool collectFields(const CXXRecordDecl &rd, CharUnits base, ASTContext &ctx,
                   FieldDescriber &describer, std::vector<gp::Field> &out) {
  const ASTRecordLayout &layout = ctx.getASTRecordLayout(&rd);
  bool ok = true;
  for (const CXXBaseSpecifier &b : rd.bases()) {
    const CXXRecordDecl *br = b.getType()->getAsCXXRecordDecl();
    if (!br || isPoplarClass(*br, "Vertex") || isPoplarClass(*br, "MultiVertex") ||
        isPoplarClass(*br, "SupervisorVertex"))
      continue;
    ok &= collectFields(*br, base + layout.getBaseClassOffset(br), ctx, describer, out);
  }
  for (const FieldDecl *fd : rd.fields()) {
    gp::Field f;
    f.name = fd->getName().str();
    if (!describer.describe(*fd, f)) {
      ok = false;
      continue;
    }
    f.offset =
        (base + ctx.toCharUnitsFromBits(layout.getFieldOffset(fd->getFieldIndex()))).getQuantity();
    f.size = ctx.getTypeSizeInChars(fd->getType()).getQuantity();
    out.push_back(std::move(f));
  }
  return ok;
}

/// The compute() member the entry calls, searched in `rd` then its bases.
const CXXMethodDecl *findCompute(const CXXRecordDecl &rd) {
  for (const CXXMethodDecl *m : rd.methods())
    if (m->getDeclName().isIdentifier() && m->getName() == "compute" && !m->isStatic())
      return m;
  for (const CXXBaseSpecifier &b : rd.bases())
    if (const CXXRecordDecl *br = b.getType()->getAsCXXRecordDecl())
      if (const CXXMethodDecl *m = findCompute(*br))
        return m;
  return nullptr;
}

} // namespace

bool vertexKindOf(const CXXRecordDecl &rd, gp::VertexKind &kind) {
  if (!rd.hasDefinition())
    return false;
  static const std::pair<const char *, gp::VertexKind> bases[] = {
      {"Vertex", gp::VertexKind::Vertex},
      {"MultiVertex", gp::VertexKind::MultiVertex},
      {"SupervisorVertex", gp::VertexKind::SupervisorVertex}};
  for (const CXXBaseSpecifier &b : rd.getDefinition()->bases()) {
    const CXXRecordDecl *br = b.getType()->getAsCXXRecordDecl();
    if (!br)
      continue;
    for (const auto &[name, k] : bases)
      if (isPoplarClass(*br, name)) {
        kind = k;
        return true;
      }
    if (vertexKindOf(*br, kind))
      return true;
  }
  return false;
}

std::string vertexTypeName(const CXXRecordDecl &rd, const ASTContext &ctx) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << rd.getQualifiedNameAsString();
  if (const auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(&rd)) {
    os << '<';
    const TemplateArgumentList &args = spec->getTemplateArgs();
    for (unsigned i = 0; i < args.size(); ++i) {
      if (i)
        os << ',';
      printTemplateArgument(args[i], ctx, os);
    }
    os << '>';
  }
  return os.str();
}

bool describeVertex(const CXXRecordDecl &rd, ASTContext &ctx, DiagnosticsEngine &diags,
                    VertexInfo &out) {
  gp::Vertex &v = out.desc;
  v.name = vertexTypeName(rd, ctx);
  vertexKindOf(rd, v.kind);

  const CXXMethodDecl *compute = findCompute(rd);
  if (!compute || !compute->hasBody()) {
    unsigned id = diags.getCustomDiagID(DiagnosticsEngine::Error,
                                        "vertex '%0' has no compute() member function");
    diags.Report(rd.getLocation(), id) << v.name;
    return false;
  }
  bool multi = v.kind == gp::VertexKind::MultiVertex;
  QualType ret = compute->getReturnType().getCanonicalType();
  bool paramsOk =
      multi ? compute->getNumParams() == 1 && compute->getParamDecl(0)->getType()->isIntegerType()
            : compute->getNumParams() == 0;
  if (!paramsOk || !(ret->isVoidType() || ret->isBooleanType())) {
    unsigned id =
        diags.getCustomDiagID(DiagnosticsEngine::Error, "compute() of vertex '%0' must be '%1'");
    diags.Report(compute->getLocation(), id)
        << v.name
        << (multi ? "bool compute(unsigned workerId)' or 'void compute(unsigned workerId)"
                  : "bool compute()' or 'void compute()");
    return false;
  }
  out.returnsBool = ret->isBooleanType();
  out.takesWorkerId = multi;
  std::unique_ptr<MangleContext> mangler(ctx.createMangleContext());
  llvm::raw_string_ostream sym(out.computeSymbol);
  mangler->mangleName(GlobalDecl(compute), sym);
  sym.flush();

  const ASTRecordLayout &layout = ctx.getASTRecordLayout(&rd);
  v.stateSize = layout.getSize().getQuantity();
  v.stateAlign = layout.getAlignment().getQuantity();
  FieldDescriber describer(ctx, diags, v.name);
  if (!collectFields(rd, CharUnits::Zero(), ctx, describer, v.fields))
    return false;

  PresumedLoc loc = ctx.getSourceManager().getPresumedLoc(rd.getLocation());
  if (loc.isValid())
    out.where = {loc.getFilename(), loc.getLine(), loc.getColumn()};
  return true;
}

} // namespace popc
