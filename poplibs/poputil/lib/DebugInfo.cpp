// Debug information for PopLibs ops: argument names and values as profile values.
#include <poputil/DebugInfo.hpp>

#include <cctype>

namespace poputil {

poplar::ProfileValue toProfileValue(const poplar::Tensor &t) {
  return t.valid() ? poplar::ProfileValue(t.elementType().toString() + t.shapeToString())
                   : poplar::ProfileValue("<invalid>");
}
poplar::ProfileValue toProfileValue(const poplar::Type &t) {
  return poplar::ProfileValue(t.toString());
}
poplar::ProfileValue toProfileValue(const poplar::OptionFlags &o) {
  std::string s = "{";
  for (const auto &kv : o)
    s += (s.size() > 1 ? ", " : "") + kv.first + ": " + kv.second;
  return poplar::ProfileValue(s + "}");
}
poplar::ProfileValue toProfileValue(const poplar::ComputeSet &cs) {
  return poplar::ProfileValue(static_cast<unsigned long long>(cs.getId()));
}
poplar::ProfileValue toProfileValue(const poplar::program::Sequence &) {
  return poplar::ProfileValue("<program>");
}
poplar::ProfileValue toProfileValue(const std::string &s) { return poplar::ProfileValue(s); }
poplar::ProfileValue toProfileValue(const char *s) { return poplar::ProfileValue(s); }

namespace detail {

std::string nextArgName(const std::string &names, std::size_t &pos) {
  // Commas inside brackets belong to one argument expression ("f(a, b)").
  int depth = 0;
  std::size_t begin = pos;
  for (; pos < names.size(); ++pos) {
    char c = names[pos];
    if (c == '(' || c == '{' || c == '[' || c == '<')
      ++depth;
    else if (c == ')' || c == '}' || c == ']' || c == '>')
      --depth;
    else if (c == ',' && depth == 0)
      break;
  }
  std::string name = names.substr(begin, pos - begin);
  if (pos < names.size())
    ++pos;
  std::size_t b = name.find_first_not_of(" \t\n"), e = name.find_last_not_of(" \t\n");
  return b == std::string::npos ? name : name.substr(b, e - b + 1);
}

} // namespace detail

OpDebugInfo::OpDebugInfo(const poplar::DebugContext &debugContext, std::string api)
    : poplar::DebugInfo(debugContext, "poplibs") {
  setValue("api", poplar::ProfileValue(std::move(api)));
}

void OpDebugInfo::add(const std::string &name, const std::vector<ArgType> &args) {
  for (const auto &a : args)
    setValue(name + "." + a.first, a.second);
}

void OpDebugInfo::addOutputs(const std::vector<ArgType> &outputs) { add("outputs", outputs); }

void OpDebugInfo::addOutput(const poplar::Tensor &output) {
  setValue("output", toProfileValue(output));
}

PoplibsOpDebugInfo::PoplibsOpDebugInfo(const poplar::DebugContext &debugContext,
                                       const std::vector<ArgType> &args, const std::string &api)
    : OpDebugInfo(debugContext, api) {
  add("args", args);
}

} // namespace poputil
