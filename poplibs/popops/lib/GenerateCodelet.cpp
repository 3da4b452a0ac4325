// Fused expressions as generated codelets: one MultiVertex per expression and type signature
// (its vector loop: GenerateVectorLoop.cpp).
#include "GenerateCodelet.hpp"
#include "GenerateVectorLoop.hpp"

#include "ExprOps.hpp"
#include "ExprTypes.hpp"

#include <poplar/HalfFloat.hpp>

#include "support/Bytes.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace popops::internal {

using namespace poplar;
using namespace popops::expr;

std::string constantLiteral(double value, const Type &type) {
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

namespace {

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
      return constantLiteral(c->getValue(), exprType(e, inputTypes_, api, context));
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
