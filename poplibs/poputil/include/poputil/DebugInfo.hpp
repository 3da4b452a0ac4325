// Debug information for PopLibs ops: each op records its arguments and outputs under its
// DebugContext (PoplibsOpDebugInfo, DI_ARGS), as PopLibs' inline API functions do.
#ifndef poputil_DebugInfo_hpp
#define poputil_DebugInfo_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace poputil {

poplar::ProfileValue toProfileValue(const poplar::Tensor &t);
poplar::ProfileValue toProfileValue(const poplar::Type &t);
poplar::ProfileValue toProfileValue(const poplar::OptionFlags &o);
poplar::ProfileValue toProfileValue(const poplar::ComputeSet &cs);
poplar::ProfileValue toProfileValue(const poplar::program::Sequence &);
poplar::ProfileValue toProfileValue(const std::string &s);
poplar::ProfileValue toProfileValue(const char *s);
template <typename T>
typename std::enable_if<std::is_arithmetic<T>::value, poplar::ProfileValue>::type
toProfileValue(const T &x) {
  return poplar::ProfileValue(x);
}
template <typename T>
typename std::enable_if<std::is_enum<T>::value, poplar::ProfileValue>::type
toProfileValue(const T &x) {
  return poplar::ProfileValue(static_cast<long long>(x));
}
template <typename T> poplar::ProfileValue toProfileValue(const T *p) {
  return p ? toProfileValue(*p) : poplar::ProfileValue("<none>");
}
template <typename T> poplar::ProfileValue toProfileValue(const std::vector<T> &v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + toProfileValue(v[i]).asString();
  return poplar::ProfileValue(s + "]");
}

typedef std::pair<std::string, poplar::ProfileValue> ArgType;

namespace detail {
/// The next name of a "a, b, c" list of argument expressions, from `pos` on.
std::string nextArgName(const std::string &names, std::size_t &pos);
inline void collectArgs(std::vector<ArgType> &, const std::string &, std::size_t &) {}
template <typename T, typename... Rest>
void collectArgs(std::vector<ArgType> &out, const std::string &names, std::size_t &pos,
                 const T &value, const Rest &...rest) {
  std::string name = nextArgName(names, pos);
  out.push_back(ArgType(name, toProfileValue(value)));
  collectArgs(out, names, pos, rest...);
}
template <typename... T> std::vector<ArgType> debugArgs(const char *names, const T &...values) {
  std::vector<ArgType> out;
  std::size_t pos = 0;
  collectArgs(out, names, pos, values...);
  return out;
}
} // namespace detail

/// The arguments of an op, named by their expressions: DI_ARGS(A, B, options).
#define DI_ARGS(...) ::poputil::detail::debugArgs(#__VA_ARGS__, __VA_ARGS__)

class OpDebugInfo : public poplar::DebugInfo {
public:
  OpDebugInfo(const poplar::DebugContext &debugContext, std::string api);
  void add(const std::string &name, const std::vector<ArgType> &args);
  void addOutputs(const std::vector<ArgType> &outputs);
  void addOutput(const poplar::Tensor &output);
};

class PoplibsOpDebugInfo : public OpDebugInfo {
public:
  PoplibsOpDebugInfo(const poplar::DebugContext &debugContext,
                     const std::vector<ArgType> &args = {}, const std::string &api = "");
};

} // namespace poputil

#endif
