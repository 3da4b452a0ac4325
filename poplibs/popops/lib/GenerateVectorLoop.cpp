// The 64-bit vector loop of generated popops::map codelets: each expression node a float2 or
// half4 local, each op one f32v2/f16v4 instruction or computed lane by lane.
#include "GenerateVectorLoop.hpp"

#include "ExprOps.hpp"
#include "ExprTypes.hpp"

#include <map>
#include <set>
#include <sstream>

namespace popops::internal {

using namespace poplar;
using namespace popops::expr;

namespace {

/// How an op runs in the vector loop: on the whole vector (an f32v2* / f16v4* instruction, the
/// same bits as the element-by-element code: half lanes are computed in float and rounded once;
/// NEGATE an xor of each 32-bit word's sign bits), or lane by lane (a float2's lanes are its
/// registers; a half4 is widened to two float2 and its results rounded back, two lanes an
/// instruction, as the scalar code rounds each result).
enum class VectorForm { instruction, lanes };

VectorForm vectorForm(UnaryOpType op) {
  return op == UnaryOpType::SQUARE || op == UnaryOpType::NEGATE ? VectorForm::instruction
                                                                : VectorForm::lanes;
}
VectorForm vectorForm(BinaryOpType op) {
  return op == BinaryOpType::ADD || op == BinaryOpType::SUBTRACT || op == BinaryOpType::MULTIPLY
             ? VectorForm::instruction
             : VectorForm::lanes;
}

/// Emits the loop body of an expression whose every value is of one type T (float or half).
/// A node's value is a float2 / half4 local; for half also, when a lane op uses it, its two
/// half2 words widened to float2 locals `<name>L` and `<name>H`. Each form is emitted when
/// first used. A placeholder's lanes are loaded as half2 words (`h<p>[2k]`, `h<p>[2k + 1]`)
/// and a half result stored as two words: popc then steps the pointers, where the words of a
/// half4 local would be addressed from the loop index in every trip.
class VectorEmitter {
public:
  VectorEmitter(const std::vector<Type> &inputTypes, const Type &type)
      : inputTypes_(inputTypes), type_(type), vector_(type == FLOAT ? "float2" : "half4"),
        width_(type == FLOAT ? 2 : 4) {}

  unsigned width() const { return width_; }
  const std::string &vectorType() const { return vector_; }
  std::string body() const { return body_.str(); }
  /// Whether placeholder p's values are loaded as vectors (`w<p>`) and as half2 words (`h<p>`).
  bool loadsVectors(unsigned p) const { return vectorLoads_.count(p) != 0; }
  bool loadsWords(unsigned p) const { return wordLoads_.count(p) != 0; }

  /// Whether every node of `e` is a value of T with a vector form.
  bool supports(const Expr &e) const {
    const std::string api = "map";
    if (exprType(e, inputTypes_, api, type_) != type_)
      return false;
    if (e.getAs<PlaceHolder>() || e.getAs<Const>())
      return true;
    if (auto *u = e.getAs<UnaryOp>())
      return supports(u->getArg());
    if (auto *b = e.getAs<BinaryOp>())
      return supports(b->getLHS()) && supports(b->getRHS());
    return false; // casts, select and clamp
  }

  /// The node computing `e`, its operands' statements emitted first.
  unsigned emit(const Expr &e) {
    if (auto *p = e.getAs<PlaceHolder>()) {
      // One node per placeholder, however often the expression uses it.
      auto [at, added] = placeholderNodes_.emplace(p->getIndex(), nodes_.size());
      if (added)
        add("v" + std::to_string(p->getIndex()), Node::placeholder, p->getIndex());
      return at->second;
    }
    if (auto *c = e.getAs<Const>()) {
      unsigned n = add(fresh(), Node::constant);
      nodes_[n].literal = constantLiteral(c->getValue(), type_);
      return n;
    }
    std::vector<unsigned> args;
    std::string call;
    VectorForm form;
    if (auto *u = e.getAs<UnaryOp>()) {
      args = {emit(u->getArg())};
      call = "popops::device::unaryOp<" + opArgument(u->getOpType()) + ">";
      form = vectorForm(u->getOpType());
    } else {
      auto &b = *e.getAs<BinaryOp>();
      unsigned lhs = emit(b.getLHS());
      args = {lhs, emit(b.getRHS())};
      call = "popops::device::binaryOp<" + opArgument(b.getOpType()) + ">";
      form = vectorForm(b.getOpType());
    }
    if (form == VectorForm::instruction) {
      std::string operands; // each operand's local declared before this statement is begun
      for (unsigned a : args)
        operands += (operands.empty() ? "" : ", ") + vector(a);
      unsigned n = add(fresh(), Node::vectorValue);
      body_ << "      const " << vector_ << " " << nodes_[n].name << " = " << vector_ << "(" << call
            << "(" << operands << "));\n";
      return n;
    }
    // The op on lane `index` of each operand's float2 `part` ("" for float, L or H for half).
    auto lane = [&](const std::string &part, unsigned index) {
      std::string operands;
      for (unsigned a : args)
        operands +=
            (operands.empty() ? "" : ", ") + lanes(a) + part + "[" + std::to_string(index) + "]";
      return "float(" + call + "(" + operands + "))";
    };
    // Each operand's lanes are declared before the statement that uses them is begun.
    for (unsigned a : args)
      type_ == FLOAT ? (void)vector(a) : widen(a);
    if (type_ == FLOAT) {
      unsigned n = add(fresh(), Node::vectorValue);
      body_ << "      const float2 " << nodes_[n].name << " = float2{" << lane("", 0) << ", "
            << lane("", 1) << "};\n";
      return n;
    }
    unsigned n = add(fresh(), Node::words);
    body_ << "      const uint2 " << nodes_[n].name << "W = popops::device::narrowWords(float2{"
          << lane("L", 0) << ", " << lane("L", 1) << "}, float2{" << lane("H", 0) << ", "
          << lane("H", 1) << "});\n";
    return n;
  }

  /// What the loop stores for node n: its float2 / half4, or the two words a half lane op
  /// made; and their type. (A half4 stored as words, or words as a half4, is addressed from the
  /// loop index in every trip.)
  std::string stored(unsigned n) {
    return nodes_[n].kind == Node::words ? nodes_[n].name + "W" : vector(n);
  }
  std::string storedType(unsigned n) const {
    return nodes_[n].kind == Node::words ? "uint2" : vector_;
  }

private:
  struct Node {
    enum Kind { placeholder, constant, vectorValue, words } kind = placeholder;
    std::string name;
    unsigned index = 0;  // a placeholder's
    std::string literal; // a constant's
    bool hasVector = false, hasLanes = false;
  };

  std::string fresh() { return "t" + std::to_string(next_++); }
  unsigned add(const std::string &name, Node::Kind kind, unsigned index = 0) {
    Node n;
    n.kind = kind;
    n.name = name;
    n.index = index;
    n.hasVector = kind == Node::vectorValue;
    nodes_.push_back(n);
    return nodes_.size() - 1;
  }

  /// The float2 / half4 local of node n, declared at its first use.
  std::string vector(unsigned n) {
    Node &node = nodes_[n];
    if (!node.hasVector) {
      node.hasVector = true;
      body_ << "      const " << vector_ << " " << node.name << " = ";
      if (node.kind == Node::placeholder) {
        vectorLoads_.insert(node.index);
        body_ << "w" << node.index << "[k];\n";
      } else if (node.kind == Node::constant) {
        body_ << vector_ << "{";
        for (unsigned i = 0; i < width_; ++i)
          body_ << (i ? ", " : "") << (type_ == HALF ? "half(" + node.literal + ")" : node.literal);
        body_ << "};\n";
      } else {
        body_ << "__builtin_bit_cast(half4, " << node.name << "W);\n";
      }
    }
    return node.name;
  }

  /// The prefix of node n's lanes: its float2 for float, `<name>` of `<name>L`/`<name>H` for half.
  std::string lanes(unsigned n) { return type_ == FLOAT ? vector(n) : nodes_[n].name; }

  /// Declares node n's widened half lanes `<name>L` and `<name>H` at their first use.
  void widen(unsigned n) {
    Node &node = nodes_[n];
    if (node.hasLanes)
      return;
    node.hasLanes = true;
    const std::string &x = node.name;
    body_ << "      const float2 " << x << "L = ";
    if (node.kind == Node::placeholder) {
      wordLoads_.insert(node.index);
      std::string h = "h" + std::to_string(node.index);
      body_ << "__builtin_convertvector(" << h << "[2 * k], float2), " << x
            << "H = __builtin_convertvector(" << h << "[2 * k + 1], float2);\n";
    } else if (node.kind == Node::constant) {
      body_ << "float2{" << node.literal << ", " << node.literal << "}, " << x << "H = " << x
            << "L;\n";
    } else if (node.kind == Node::words) {
      body_ << "popops::device::widenWord(" << x << "W.x), " << x
            << "H = popops::device::widenWord(" << x << "W.y);\n";
    } else {
      body_ << "popops::device::widenLow(" << x << "), " << x << "H = popops::device::widenHigh("
            << x << ");\n";
    }
  }

  const std::vector<Type> &inputTypes_;
  Type type_;
  std::string vector_;
  unsigned width_;
  unsigned next_ = 0;
  std::vector<Node> nodes_;
  std::ostringstream body_;
  std::set<unsigned> vectorLoads_, wordLoads_;
  std::map<unsigned, unsigned> placeholderNodes_;
};

/// Whether an op of `e` is one vector instruction.
bool hasInstruction(const Expr &e) {
  if (auto *u = e.getAs<UnaryOp>())
    return vectorForm(u->getOpType()) == VectorForm::instruction || hasInstruction(u->getArg());
  if (auto *b = e.getAs<BinaryOp>())
    return vectorForm(b->getOpType()) == VectorForm::instruction || hasInstruction(b->getLHS()) ||
           hasInstruction(b->getRHS());
  return false;
}

} // namespace

std::string vectorLoop(const Expr &expr, const std::vector<Type> &inputTypes, const Type &outType,
                       const std::vector<unsigned> &placeholders, const std::string &store) {
  if (outType != FLOAT && outType != HALF)
    return "";
  for (unsigned p : placeholders)
    if (inputTypes[p - 1] != outType)
      return "";
  VectorEmitter emitter(inputTypes, outType);
  // A float loop of lane ops alone is no faster than the scalar one (popc loads the lanes as
  // two words and steps their pointer: max(_1, 0) 6 instructions per float2, 3 per float), so
  // float takes the vector loop only for a vector instruction. Half lanes are always faster:
  // their widening and rounding are two-lane instructions.
  if (!emitter.supports(expr) || expr.getAs<PlaceHolder>() ||
      (outType == FLOAT && !hasInstruction(expr)))
    return "";
  const unsigned root = emitter.emit(expr);
  const std::string result = emitter.stored(root), out = emitter.storedType(root);
  const std::string &v = emitter.vectorType();
  std::ostringstream pointers, check;
  auto pointer = [&](const std::string &type, const std::string &name, const std::string &field) {
    pointers << "    const " << type << " *" << name << " = reinterpret_cast<const " << type
             << " *>(&" << field << "[r.begin]);\n";
  };
  for (unsigned p : placeholders) {
    std::string field = "in" + std::to_string(p);
    std::string w = "w" + std::to_string(p), h = "h" + std::to_string(p);
    if (emitter.loadsVectors(p))
      pointer(v, w, field);
    if (emitter.loadsWords(p))
      pointer("half2", h, field);
    // Through the pointers, not the fields: LLVM's block order (and so whether the loops
    // become rpt loops) changes with how the check is written.
    check << "reinterpret_cast<unsigned>(" << (emitter.loadsVectors(p) ? w : h) << ") | ";
  }
  pointers << "    " << out << " *wo = reinterpret_cast<" << out << " *>(&" << store
           << "[r.begin]);\n";
  check << "reinterpret_cast<unsigned>(wo)";
  std::ostringstream loop;
  // The count is the call's argument, not a local: with a local, LLVM lays the blocks out so
  // that neither loop is entered by falling through, and neither becomes a rpt loop.
  loop << pointers.str() << "    unsigned i = r.begin + " << emitter.width()
       << " * popops::device::forEachVector(((" << check.str()
       << ") & 7) == 0 ? (r.end - r.begin) / " << emitter.width() << " : 0, [&](unsigned k) {\n"
       << emitter.body() << "      wo[k] = " << result << ";\n    });\n";
  return loop.str();
}

} // namespace popops::internal
