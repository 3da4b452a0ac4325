// Option tables: every OptionFlags key an API accepts, with the parser that validates its value
// (type, range, enumeration) and stores it. Used for the Engine's options and every PopLibs op's.
#pragma once

#include <poplar/OptionFlags.hpp>

#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <utility>

namespace popsdk::support {

/// How one option's value is read. The parser stores a valid value and returns an empty string;
/// for an invalid one it returns what was expected ("a boolean (true or false)").
class OptionHandler {
public:
  using Parser = std::function<std::string(const std::string &value)>;
  explicit OptionHandler(Parser parser) : parser_(std::move(parser)) {}

  static OptionHandler boolean(bool &out);
  static OptionHandler unsignedInt(unsigned &out, unsigned lo = 0,
                                   unsigned hi = std::numeric_limits<unsigned>::max());
  static OptionHandler number(double &out, double lo = -std::numeric_limits<double>::infinity(),
                              double hi = std::numeric_limits<double>::infinity());
  static OptionHandler string(std::string &out);
  /// One of the names in `values` (case-sensitive, as PopLibs' are).
  template <class T> static OptionHandler enumeration(T &out, std::map<std::string, T> values) {
    return OptionHandler([&out, values](const std::string &v) -> std::string {
      auto it = values.find(v);
      if (it != values.end()) {
        out = it->second;
        return {};
      }
      std::string expected = "one of";
      for (const auto &kv : values)
        expected += " " + kv.first;
      return expected;
    });
  }
  /// One of `names`, stored as given.
  static OptionHandler oneOf(std::string &out, std::initializer_list<const char *> names) {
    std::map<std::string, std::string> values;
    for (const char *n : names)
      values[n] = n;
    return enumeration(out, std::move(values));
  }

  std::string parse(const std::string &value) const { return parser_(value); }

private:
  Parser parser_;
};

class OptionSpec {
public:
  OptionSpec(std::initializer_list<std::pair<const std::string, OptionHandler>> handlers)
      : handlers_(handlers) {}

  /// Parses every option of `flags`. An unknown key or an invalid value throws
  /// poplar::invalid_option naming `api`, the key, the value and what was expected.
  void parse(const std::string &api, const poplar::OptionFlags &flags) const;

  bool has(const std::string &key) const { return handlers_.count(key) != 0; }

private:
  std::map<std::string, OptionHandler> handlers_;
};

} // namespace popsdk::support
