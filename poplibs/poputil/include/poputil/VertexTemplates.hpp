// templateVertex: the name of a vertex template instantiation, "ns::V<float,true,3>", as the
// codelet compiler names it in the .gp and as PopLibs' host code asks for it.
#ifndef poputil_VertexTemplates_hpp
#define poputil_VertexTemplates_hpp

#include <poplar/Type.hpp>

#include <string>

namespace poputil {

/// The text of one template argument. Specialise it for an enum, as PopLibs does for its op
/// enums ("popops::expr::BinaryOpType::ADD").
template <class T> struct VertexTemplateToString {
  static std::string to_string(const T &x) { return std::to_string(x); }
};
template <> struct VertexTemplateToString<poplar::Type> {
  static std::string to_string(const poplar::Type &t) { return t.toString(); }
};
template <> struct VertexTemplateToString<bool> {
  static std::string to_string(const bool &b) { return b ? "true" : "false"; }
};
template <> struct VertexTemplateToString<std::string> {
  static std::string to_string(const std::string &s) { return s; }
};

inline std::string templateVertexParams(bool) { return ""; }

template <typename T, typename... Args>
std::string templateVertexParams(bool first, const T &x, const Args &...args) {
  return (first ? "" : ",") + VertexTemplateToString<T>::to_string(x) +
         templateVertexParams(false, args...);
}

template <typename... Args>
std::string templateVertex(const std::string &name, const Args &...args) {
  return name + "<" + templateVertexParams(true, args...) + ">";
}

} // namespace poputil

#endif
