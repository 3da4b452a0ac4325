// Debug names carried by graph objects and programs (DebugContext, DebugNameAndId, DebugInfo).
#ifndef poplar_DebugContext_hpp
#define poplar_DebugContext_hpp

#include <poplar/StringRef.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace poplar {

typedef std::uint64_t DebugId;

class DebugInfo;

/// A value attached to debug information (PopLibs records op arguments this way).
class ProfileValue {
public:
  ProfileValue() {}
  ProfileValue(const char *s) : text_(s) {}
  ProfileValue(std::string s) : text_(std::move(s)) {}
  ProfileValue(double v) : text_(std::to_string(v)) {}
  ProfileValue(int v) : text_(std::to_string(v)) {}
  ProfileValue(unsigned v) : text_(std::to_string(v)) {}
  ProfileValue(long v) : text_(std::to_string(v)) {}
  ProfileValue(unsigned long v) : text_(std::to_string(v)) {}
  ProfileValue(long long v) : text_(std::to_string(v)) {}
  ProfileValue(unsigned long long v) : text_(std::to_string(v)) {}
  ProfileValue(bool v) : text_(v ? "true" : "false") {}
  const std::string &asString() const { return text_; }

private:
  std::string text_;
};

class DebugNameAndId {
public:
  DebugNameAndId(StringRef name = "", DebugId id = 0) : name_(name.str()), id_(id) {}
  DebugNameAndId(const char *name) : name_(name ? name : ""), id_(0) {}
  DebugNameAndId(const std::string &name) : name_(name), id_(0) {}
  const std::string &getPathName() const { return name_; }
  DebugId getId() const { return id_; }

private:
  std::string name_;
  DebugId id_;
};

/// Context passed as the last argument of most API calls; implicitly built from a string.
class DebugContext {
public:
  DebugContext() {}
  DebugContext(const char *name) : path_(name ? name : "") {}
  DebugContext(const std::string &name) : path_(name) {}
  DebugContext(StringRef name) : path_(name.str()) {}
  DebugContext(const DebugNameAndId &dnai, StringRef name = "")
      : path_(join(dnai.getPathName(), name.str())), id_(dnai.getId()) {}
  DebugContext(const DebugContext &parent, StringRef name)
      : path_(join(parent.path_, name.str())), id_(parent.id_) {}
  /// A child of the call that `parent` describes (PopLibs: `{di, "out"}`).
  DebugContext(const DebugInfo &parent, StringRef name = "");

  /// The full name, parent names joined with '/'.
  const std::string &getPathName() const { return path_; }
  DebugId getId() const { return id_; }

private:
  static std::string join(const std::string &a, const std::string &b) {
    if (a.empty())
      return b;
    if (b.empty())
      return a;
    return a + "/" + b;
  }
  std::string path_;
  DebugId id_ = 0;
};

/// Structured debug information for an API call (category plus named values).
class DebugInfo {
public:
  DebugInfo(const DebugContext &dc, StringRef layer)
      : name_(dc.getPathName()), layer_(layer.str()), id_(dc.getId()) {}
  virtual ~DebugInfo() {}
  bool setValue(StringRef name, ProfileValue value) {
    values_[name.str()] = std::move(value);
    return true;
  }
  DebugId getId() const { return id_; }
  const std::string &getPathName() const { return name_; }

private:
  std::string name_, layer_;
  DebugId id_;
  std::map<std::string, ProfileValue> values_;
};

inline DebugContext::DebugContext(const DebugInfo &parent, StringRef name)
    : path_(join(parent.getPathName(), name.str())), id_(parent.getId()) {}

} // namespace poplar

#endif
