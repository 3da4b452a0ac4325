// Fused expressions as generated codelets: one MultiVertex per expression and type signature.
#include "GenerateCodelet.hpp"

#include "ExprOps.hpp"
#include "ExprTypes.hpp"

#include <poplar/HalfFloat.hpp>

#include "support/Bytes.hpp"

#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

namespace popops::internal {

using namespace poplar;
using namespace popops::expr;

namespace {

std::string literal(double value, const Type &type) {
  std::ostringstream os;
  if (type == FLOAT || type == HALF) {
    // Hexadecimal floats are exact; a half constant is first rounded to half, as stored.
    // Infinities and NaN have no literal: builtins the codelet compiler folds.
    float f = type == HALF ? halfToFloat(floatToHalf(float(value))) : float(value);
    if (std::isinf(f))
      os << (f < 0 ? "-" : "") << "__builtin_inff()";
    else if (std::isnan(f))
      os << "__builtin_nanf(\"\")";
    else
      os << std::hexfloat << f << "f";
  } else if (type == BOOL) {
    os << (value != 0 ? "true" : "false");
  } else if (type == UNSIGNED_INT) {
    os << static_cast<unsigned>(static_cast<long long>(value)) << "u";
  } else {
    os << "int(" << static_cast<int>(static_cast<long long>(value)) << ")";
  }
  return os.str();
}

/// Emits the C++ of expression nodes: each value is in its element type's compute type
/// (float for half) and rounded as that type stores it.
class Emitter {
public:
  explicit Emitter(const std::vector<Type> &inputTypes) : inputTypes_(inputTypes) {}

  /// `e` as a C++ expression; `context` is the type a constant takes.
  std::string emit(const Expr &e, const Type &context) {
    const std::string api = "map";
    if (auto *p = e.getAs<PlaceHolder>())
      return "v" + std::to_string(p->getIndex());
    if (auto *c = e.getAs<Const>())
      return literal(c->getValue(), exprType(e, inputTypes_, api, context));
    if (auto *c = e.getAs<Cast>()) {
      Type from = exprType(c->getLHS(), inputTypes_, api);
      Type to = c->getRHSType();
      return stored(to, "popops::device::convert<" + deviceTypeName(to) + ", " +
                            deviceTypeName(from) + ">(" + emit(c->getLHS(), Type()) + ")");
    }
    if (auto *u = e.getAs<UnaryOp>()) {
      Type t = exprType(u->getArg(), inputTypes_, api, operandContext(e, context));
      Type result = exprType(e, inputTypes_, api, context);
      return stored(result, "popops::device::unaryOp<" + opArgument(u->getOpType()) + ">(" +
                                emit(u->getArg(), t) + ")");
    }
    if (auto *b = e.getAs<BinaryOp>()) {
      Type t =
          operandType({&b->getLHS(), &b->getRHS()}, inputTypes_, api, operandContext(e, context));
      Type result = exprType(e, inputTypes_, api, context);
      return stored(result, "popops::device::binaryOp<" + opArgument(b->getOpType()) + ">(" +
                                emit(b->getLHS(), t) + ", " + emit(b->getRHS(), t) + ")");
    }
    auto &t = *e.getAs<TernaryOp>();
    if (t.getOpType() == TernaryOpType::SELECT) {
      Type type = operandType({&t.getArg0(), &t.getArg1()}, inputTypes_, api, context);
      return "(" + emit(t.getArg2(), BOOL) + " ? " + emit(t.getArg0(), type) + " : " +
             emit(t.getArg1(), type) + ")";
    }
    Type type = operandType({&t.getArg0(), &t.getArg1(), &t.getArg2()}, inputTypes_, api, context);
    return "popops::device::binaryOp<popops::expr::BinaryOpType::MINIMUM>("
           "popops::device::binaryOp<popops::expr::BinaryOpType::MAXIMUM>(" +
           emit(t.getArg0(), type) + ", " + emit(t.getArg1(), type) + "), " +
           emit(t.getArg2(), type) + ")";
  }

private:
  static std::string stored(const Type &type, const std::string &code) {
    if (type == BOOL)
      return "bool(" + code + ")";
    return "popops::device::asStored<" + deviceTypeName(type) + ">(" + code + ")";
  }
  const std::vector<Type> &inputTypes_;
};

/// How an op runs in the vector body: one vector instruction (f32v2* / f16v4*, the same bits as
/// the element-by-element code: half lanes are computed in float and rounded once), or lane by
/// lane (a float2's lanes are its registers; a half4 is widened to two float2 and its results
/// rounded back, two lanes an instruction, as the scalar code rounds each result).
enum class VectorForm { instruction, lanes };

VectorForm vectorForm(UnaryOpType op) {
  if (op == UnaryOpType::SQUARE || op == UnaryOpType::NEGATE)
    return VectorForm::instruction;
  return VectorForm::lanes;
}
VectorForm vectorForm(BinaryOpType op) {
  if (op == BinaryOpType::ADD || op == BinaryOpType::SUBTRACT || op == BinaryOpType::MULTIPLY)
    return VectorForm::instruction;
  return VectorForm::lanes;
}

/// Emits the vector loop body of an expression whose every value is of one type T (float or
/// half): each node a local of T's 64-bit vector (float2, half4), placeholder p's vector `v<p>`.
class VectorEmitter {
public:
  VectorEmitter(const std::vector<Type> &inputTypes, const Type &type)
      : inputTypes_(inputTypes), type_(type), vector_(type == FLOAT ? "float2" : "half4"),
        width_(type == FLOAT ? 2 : 4) {}

  unsigned width() const { return width_; }
  const std::string &vectorType() const { return vector_; }

  /// Whether every node of `e` is a value of T with a vector form.
  bool supports(const Expr &e) const {
    const std::string api = "map";
    if (e.getAs<PlaceHolder>() || e.getAs<Const>())
      return exprType(e, inputTypes_, api, type_) == type_;
    if (exprType(e, inputTypes_, api, type_) != type_)
      return false;
    if (auto *u = e.getAs<UnaryOp>())
      return supports(u->getArg());
    if (auto *b = e.getAs<BinaryOp>())
      return supports(b->getLHS()) && supports(b->getRHS());
    return false; // casts, select and clamp
  }

  /// Appends the statements computing `e` to `body`; returns the local holding it.
  std::string emit(const Expr &e, std::ostream &body) {
    if (auto *p = e.getAs<PlaceHolder>())
      return "v" + std::to_string(p->getIndex());
    std::vector<std::string> args; // operands first: each is a local declared before its use
    std::string call;
    VectorForm form = VectorForm::instruction;
    if (auto *u = e.getAs<UnaryOp>()) {
      args = {emit(u->getArg(), body)};
      call = "popops::device::unaryOp<" + opArgument(u->getOpType()) + ">";
      form = vectorForm(u->getOpType());
    } else if (auto *b = e.getAs<BinaryOp>()) {
      std::string lhs = emit(b->getLHS(), body);
      args = {lhs, emit(b->getRHS(), body)};
      call = "popops::device::binaryOp<" + opArgument(b->getOpType()) + ">";
      form = vectorForm(b->getOpType());
    }
    // A half op computed on float lanes: each operand widened once, to <local>L and <local>H.
    const bool widen = form == VectorForm::lanes && type_ == HALF;
    if (widen)
      for (const auto &a : args)
        if (widened_.insert(a).second)
          body << "      const float2 " << a << "L = popops::device::widenLow(" << a << "), " << a
               << "H = popops::device::widenHigh(" << a << ");\n";
    std::string name = "t" + std::to_string(next_++);
    body << "      const " << vector_ << " " << name << " = ";
    if (auto *c = e.getAs<Const>()) {
      std::string k = literal(c->getValue(), type_);
      body << vector_ << "{";
      for (unsigned i = 0; i < width_; ++i)
        body << (i ? ", " : "") << (type_ == HALF ? "half(" + k + ")" : k);
      body << "};\n";
      return name;
    }
    // The op on lane `index` of each operand (of its `part`, a widened half).
    auto lane = [&](const std::string &part, unsigned index) {
      std::string s;
      for (const auto &a : args)
        s += (s.empty() ? "" : ", ") + a + part + "[" + std::to_string(index) + "]";
      return "float(" + call + "(" + s + "))";
    };
    if (form == VectorForm::instruction) {
      std::string s;
      for (const auto &a : args)
        s += (s.empty() ? "" : ", ") + a;
      body << vector_ << "(" << call << "(" << s << "));\n";
    } else if (widen) {
      body << "popops::device::narrow(float2{" << lane("L", 0) << ", " << lane("L", 1)
           << "}, float2{" << lane("H", 0) << ", " << lane("H", 1) << "});\n";
    } else {
      body << "float2{" << lane("", 0) << ", " << lane("", 1) << "};\n";
    }
    return name;
  }

private:
  const std::vector<Type> &inputTypes_;
  Type type_;
  std::string vector_;
  unsigned width_;
  unsigned next_ = 0;
  std::set<std::string> widened_;
};

/// The loop over whole 64-bit vectors that runs before the element-by-element loop, as popops'
/// named vertices have (VectorLoops.hpp): when every operand and the result are float, or every
/// one half, and each op has a vector form. Workers start on 8-byte grains and the fields are
/// 8-byte aligned, so the pointers are too; the check keeps any other region on the scalar loop.
std::string vectorLoop(const Expr &expr, const std::vector<Type> &inputTypes, const Type &outType,
                       const std::vector<unsigned> &placeholders, const std::string &store) {
  if (outType != FLOAT && outType != HALF)
    return "";
  for (unsigned p : placeholders)
    if (inputTypes[p - 1] != outType)
      return "";
  VectorEmitter emitter(inputTypes, outType);
  if (!emitter.supports(expr) || expr.getAs<PlaceHolder>())
    return "";
  const std::string &v = emitter.vectorType();
  std::ostringstream pointers, loads, body, check;
  for (unsigned p : placeholders) {
    std::string w = "w" + std::to_string(p);
    pointers << "    const " << v << " *" << w << " = reinterpret_cast<const " << v << " *>(&in"
             << p << "[r.begin]);\n";
    loads << "      const " << v << " v" << p << " = " << w << "[k];\n";
    check << "reinterpret_cast<unsigned>(" << w << ") | ";
  }
  pointers << "    " << v << " *wo = reinterpret_cast<" << v << " *>(&" << store << "[r.begin]);\n";
  check << "reinterpret_cast<unsigned>(wo)";
  std::string result = emitter.emit(expr, body);
  std::ostringstream loop;
  // The count is the call's argument, not a local: with a local, LLVM lays the blocks out so
  // that neither loop is entered by falling through, and neither becomes a rpt loop.
  loop << pointers.str() << "    unsigned i = r.begin + " << emitter.width()
       << " * popops::device::forEachVector(((" << check.str()
       << ") & 7) == 0 ? (r.end - r.begin) / " << emitter.width() << " : 0, [&](unsigned k) {\n"
       << loads.str() << body.str() << "      wo[k] = " << result << ";\n    });\n";
  return loop.str();
}

} // namespace

GeneratedCodelet generateCodelet(const Expr &expr, const std::vector<Type> &inputTypes,
                                 const Type &outType, bool inPlace) {
  GeneratedCodelet g;
  g.placeholders = placeholdersOf(expr);
  std::string body = Emitter(inputTypes).emit(expr, Type());
  // Workers split at 8-byte grains of the narrowest element, so no two write one word.
  unsigned narrowest = outType.size();
  for (unsigned p : g.placeholders)
    narrowest = std::min(narrowest, unsigned(inputTypes[p - 1].size()));
  const std::string sizeField = inPlace ? "in1" : "out";

  std::ostringstream fields, loads;
  for (unsigned p : g.placeholders) {
    std::string type = deviceTypeName(inputTypes[p - 1]);
    std::string edge = inPlace && p == 1 ? "InOut<Vector<" + type + ", VectorLayout::SPAN, 8>>"
                                         : "Input<Vector<" + type + ", VectorLayout::ONE_PTR, 8>>";
    fields << "  " << edge << " in" << p << ";\n";
    loads << "      popops::device::Compute<" << type << "> v" << p << " = in" << p << "[i];\n";
  }
  std::string store = inPlace ? "in1" : "out";
  if (!inPlace)
    fields << "  Output<Vector<" << deviceTypeName(outType) << ", VectorLayout::SPAN, 8>> out;\n";

  const std::string vector = vectorLoop(expr, inputTypes, outType, g.placeholders, store);
  std::ostringstream cls;
  cls << "class VERTEX : public poplar::MultiVertex {\npublic:\n"
      << fields.str() << "  void compute(unsigned wid) {\n"
      << "    auto r = popops::device::workerRange(wid, " << sizeField << ".size(), " << narrowest
      << ");\n"
      << (vector.empty() ? "    unsigned i = r.begin;\n" : vector)
      << "    for (; i < r.end; ++i) {\n"
      << loads.str() << "      " << store << "[i] = " << body << ";\n"
      << "    }\n  }\n};\n";
  std::string classText = cls.str();
  std::ostringstream hash;
  hash << std::hex << std::setw(16) << std::setfill('0') << popsdk::support::fnv1a(classText);
  std::string className = "Expr_" + hash.str();
  std::size_t at = classText.find("VERTEX");
  classText.replace(at, 6, className);

  g.vertexName = "popops::map::" + className;
  g.source = "// popops::map: " + expr.name() +
             "\n#include <poplar/Vertex.hpp>\n#include <popops/ElementwiseDevice.hpp>\n"
             "using namespace poplar;\nnamespace popops {\nnamespace map {\n" +
             classText + "} // namespace map\n} // namespace popops\n";
  return g;
}

} // namespace popops::internal
