// Assembler for the text form of the tile ISA (syntax in Asm.hpp); two passes for labels.
#include "isa/Asm.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace poplar::isa {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

std::string_view stripComment(std::string_view line) {
  size_t cut = line.size();
  for (const char *c : {";", "#", "//"}) {
    size_t p = line.find(c);
    if (p != std::string_view::npos && p < cut)
      cut = p;
  }
  return line.substr(0, cut);
}

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// Splits "label: rest" off the front; returns the label or an empty view.
std::string_view takeLabel(std::string_view &line) {
  size_t i = 0;
  if (line.empty() || !isIdentStart(line[0]))
    return {};
  while (i < line.size() && isIdentChar(line[i]))
    ++i;
  if (i < line.size() && line[i] == ':') {
    std::string_view label = line.substr(0, i);
    line = trim(line.substr(i + 1));
    return label;
  }
  return {};
}

std::optional<unsigned> parseReg(std::string_view s) {
  s = trim(s);
  if (s == "zero")
    return kRegZero;
  if (s == "fp")
    return kRegFp;
  if (s == "gp")
    return kRegGp;
  if (s == "sp")
    return kRegSp;
  if (s == "lr")
    return kRegLr;
  if (s.size() < 2 || s[0] != 'r')
    return std::nullopt;
  unsigned v = 0;
  for (char c : s.substr(1)) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return std::nullopt;
    v = v * 10 + unsigned(c - '0');
    if (v >= kNumRegs)
      return std::nullopt;
  }
  return v;
}

// Integers in [-2^31, 2^32) (taken modulo 2^32) or f32 literals such as 1.5f / -2e-3f.
std::optional<int32_t> parseImm(std::string_view s) {
  s = trim(s);
  if (s.empty())
    return std::nullopt;
  std::string text(s);
  if (text.back() == 'f' && text.find_first_of(".eE") != std::string::npos &&
      text.rfind("0x", 0) != 0 && text.rfind("-0x", 0) != 0) {
    text.pop_back();
    char *end = nullptr;
    float f = std::strtof(text.c_str(), &end);
    if (*end)
      return std::nullopt;
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return int32_t(bits);
  }
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 0);
  if (*end || errno || v < -2147483648LL || v > 4294967295LL)
    return std::nullopt;
  return int32_t(uint32_t(v));
}

std::vector<std::string_view> splitOperands(std::string_view s) {
  std::vector<std::string_view> out;
  s = trim(s);
  if (s.empty())
    return out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == ',') {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

struct Assembler {
  std::map<std::string, uint32_t> labels;
  std::string error;

  bool fail(std::string msg) {
    if (error.empty())
      error = std::move(msg);
    return false;
  }

  bool reg(std::string_view s, uint8_t &out) {
    auto r = parseReg(s);
    if (!r)
      return fail("bad register '" + std::string(s) + "'");
    out = uint8_t(*r);
    return true;
  }

  bool imm(std::string_view s, int32_t &out) {
    auto v = parseImm(s);
    if (!v)
      return fail("bad immediate '" + std::string(s) + "'");
    out = *v;
    return true;
  }

  bool target(std::string_view s, uint32_t pc, int32_t &out) {
    s = trim(s);
    if (s.size() > 1 && s[0] == '@') {
      int32_t abs;
      if (!imm(s.substr(1), abs))
        return false;
      out = int32_t(int64_t(abs) - pc);
      return true;
    }
    if (s.size() > 2 && s[0] == '.' && (s[1] == '+' || s[1] == '-'))
      return imm(s.substr(s[1] == '+' ? 2 : 1), out);
    auto it = labels.find(std::string(s));
    if (it == labels.end())
      return fail("unknown label '" + std::string(s) + "'");
    out = int32_t(int64_t(it->second) - pc);
    return true;
  }

  bool mem(std::string_view s, bool post, Insn &in) {
    s = trim(s);
    if (s.size() < 3 || s.front() != '[' || s.back() != ']')
      return fail("expected a memory operand [reg+imm]");
    s = trim(s.substr(1, s.size() - 2));
    size_t op = s.find_first_of("+-");
    std::string_view base = op == std::string_view::npos ? s : s.substr(0, op);
    if (!reg(base, in.ra))
      return false;
    if (op == std::string_view::npos) {
      in.imm = 0;
      return post ? fail("post-increment form needs [reg+=imm]") : true;
    }
    std::string_view rest = s.substr(op);
    const bool isPost = rest.size() > 1 && rest[0] == '+' && rest[1] == '=';
    if (isPost != post)
      return fail(post ? "post-increment form needs [reg+=imm]" : "unexpected += in [reg+imm]");
    if (isPost)
      return imm(rest.substr(2), in.imm);
    return imm(rest[0] == '+' ? rest.substr(1) : rest, in.imm);
  }

  bool operands(Insn &in, const std::vector<std::string_view> &ops, uint32_t pc) {
    const Format f = info(in.op).format;
    static const unsigned kCount[] = {0, 1, 1, 1, 2, 2, 3, 4, 3, 2, 2, 2, 2, 2, 1, 2};
    if (ops.size() != kCount[static_cast<unsigned>(f)])
      return fail(std::string("'") + info(in.op).mnemonic + "' takes " +
                  std::to_string(kCount[static_cast<unsigned>(f)]) + " operands");
    switch (f) {
    case Format::None:
      return true;
    case Format::D:
      return reg(ops[0], in.rd);
    case Format::A:
      return reg(ops[0], in.ra);
    case Format::I:
      return imm(ops[0], in.imm);
    case Format::DI:
      return reg(ops[0], in.rd) && imm(ops[1], in.imm);
    case Format::DA:
      return reg(ops[0], in.rd) && reg(ops[1], in.ra);
    case Format::DAB:
      return reg(ops[0], in.rd) && reg(ops[1], in.ra) && reg(ops[2], in.rb);
    case Format::DABC:
      return reg(ops[0], in.rd) && reg(ops[1], in.ra) && reg(ops[2], in.rb) && reg(ops[3], in.rc);
    case Format::DAI:
      return reg(ops[0], in.rd) && reg(ops[1], in.ra) && imm(ops[2], in.imm);
    case Format::AI:
      return reg(ops[0], in.ra) && imm(ops[1], in.imm);
    case Format::Load:
    case Format::LoadPost:
      return reg(ops[0], in.rd) && mem(ops[1], f == Format::LoadPost, in);
    case Format::Store:
    case Format::StorePost:
      return reg(ops[0], in.rb) && mem(ops[1], f == Format::StorePost, in);
    case Format::Jump:
      return target(ops[0], pc, in.imm);
    case Format::AJump:
      return reg(ops[0], in.ra) && target(ops[1], pc, in.imm);
    }
    return fail("unhandled format");
  }

  bool line(std::string_view text, uint32_t pc, std::vector<uint64_t> &words) {
    size_t sp = text.find_first_of(" \t");
    std::string_view mnem = text.substr(0, sp);
    std::string_view rest = sp == std::string_view::npos ? std::string_view() : text.substr(sp);
    if (mnem == ".word") {
      auto v = std::strtoull(std::string(trim(rest)).c_str(), nullptr, 0);
      words.push_back(v);
      return true;
    }
    auto op = opcodeFromMnemonic(mnem);
    if (!op)
      return fail("unknown mnemonic '" + std::string(mnem) + "'");
    Insn in;
    in.op = *op;
    if (!operands(in, splitOperands(rest), pc))
      return false;
    if (const char *why = validate(in))
      return fail(why);
    words.push_back(encode(in));
    return true;
  }
};

// Calls fn(lineNumber, instructionText) for each line, after peeling labels off into `labels`.
template <typename Fn>
bool forEachLine(std::string_view text, Assembler &as, bool defineLabels, Fn fn) {
  uint32_t pc = 0;
  unsigned lineNo = 0;
  while (!text.empty()) {
    ++lineNo;
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    line = trim(stripComment(line));
    for (std::string_view label = takeLabel(line); !label.empty(); label = takeLabel(line)) {
      if (defineLabels && !as.labels.emplace(std::string(label), pc).second)
        return as.fail("line " + std::to_string(lineNo) + ": duplicate label '" +
                       std::string(label) + "'");
    }
    if (line.empty())
      continue;
    if (!fn(lineNo, line, pc)) {
      as.error = "line " + std::to_string(lineNo) + ": " + as.error;
      return false;
    }
    ++pc;
  }
  return true;
}

} // namespace

AsmResult assemble(std::string_view text) {
  Assembler as;
  AsmResult result;
  if (forEachLine(text, as, true, [](unsigned, std::string_view, uint32_t) { return true; }))
    forEachLine(text, as, false, [&](unsigned, std::string_view line, uint32_t pc) {
      return as.line(line, pc, result.words);
    });
  result.labels = std::move(as.labels);
  result.error = std::move(as.error);
  if (!result.ok())
    result.words.clear();
  return result;
}

} // namespace poplar::isa
