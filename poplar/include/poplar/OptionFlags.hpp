// String key/value options for engines, devices and libraries, with JSON parsing.
#ifndef poplar_OptionFlags_hpp
#define poplar_OptionFlags_hpp

#include <poplar/StringRef.hpp>

#include <initializer_list>
#include <iosfwd>
#include <map>
#include <string>
#include <utility>

namespace poplar {

class OptionFlags {
public:
  using initializer_list = std::initializer_list<std::pair<const std::string, std::string>>;
  using const_iterator = std::map<std::string, std::string>::const_iterator;

  OptionFlags() {}
  OptionFlags(initializer_list list) : flags_(list) {}

  /// Sets each option, replacing a value already there.
  void set(initializer_list list) {
    for (const auto &kv : list)
      flags_[kv.first] = kv.second;
  }
  void set(StringRef option, StringRef value) { flags_[option.str()] = value.str(); }
  /// The value of an option; throws invalid_option if it is not set.
  StringRef at(StringRef option) const;
  bool has(StringRef option) const { return flags_.count(option.str()) != 0; }
  void remove(StringRef option) { flags_.erase(option.str()); }
  void clear() { flags_.clear(); }
  bool empty() const { return flags_.empty(); }
  std::size_t size() const { return flags_.size(); }
  const_iterator begin() const { return flags_.begin(); }
  const_iterator end() const { return flags_.end(); }

  friend bool operator==(const OptionFlags &a, const OptionFlags &b) { return a.flags_ == b.flags_; }
  friend bool operator!=(const OptionFlags &a, const OptionFlags &b) { return !(a == b); }

private:
  std::map<std::string, std::string> flags_;
};

/// Parses a JSON object of options (string, boolean or number values) into `flags`.
/// Throws parse_error naming the offending text.
void readJSON(StringRef string, OptionFlags &flags);
void readJSON(std::istream &stream, OptionFlags &flags);

std::ostream &operator<<(std::ostream &os, const OptionFlags &flags);

} // namespace poplar

#endif
