// Option parsing: the value parsers and the table walk.
#include "support/OptionSpec.hpp"

#include "support/Raise.hpp"

#include <poplar/exceptions.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace popsdk::support {

namespace {

std::string rangeText(double lo, double hi) {
  std::ostringstream os;
  os << "a number in [" << lo << ", " << hi << "]";
  return os.str();
}

} // namespace

OptionHandler OptionHandler::boolean(bool &out) {
  return OptionHandler([&out](const std::string &v) -> std::string {
    if (v == "true" || v == "false") {
      out = v == "true";
      return {};
    }
    return "a boolean (true or false)";
  });
}

OptionHandler OptionHandler::unsignedInt(unsigned &out, unsigned lo, unsigned hi) {
  return OptionHandler([&out, lo, hi](const std::string &v) -> std::string {
    std::string expected = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
      return expected;
    errno = 0;
    unsigned long long x = std::strtoull(v.c_str(), nullptr, 10);
    if (errno || x < lo || x > hi)
      return expected;
    out = unsigned(x);
    return {};
  });
}

OptionHandler OptionHandler::number(double &out, double lo, double hi) {
  return OptionHandler([&out, lo, hi](const std::string &v) -> std::string {
    char *end = nullptr;
    double x = v.empty() ? NAN : std::strtod(v.c_str(), &end);
    if (std::isnan(x) || (end && *end) || x < lo || x > hi)
      return rangeText(lo, hi);
    out = x;
    return {};
  });
}

OptionHandler OptionHandler::string(std::string &out) {
  return OptionHandler([&out](const std::string &v) -> std::string {
    out = v;
    return {};
  });
}

void OptionSpec::parse(const std::string &api, const poplar::OptionFlags &flags) const {
  for (const auto &[key, value] : flags) {
    auto it = handlers_.find(key);
    if (it == handlers_.end()) {
      std::string known;
      for (const auto &kv : handlers_)
        known += (known.empty() ? "" : ", ") + kv.first;
      raise<poplar::invalid_option>(api, ": unknown option '", key, "' (value '", value,
                                    "'; known: ", known, ")");
    }
    std::string expected = it->second.parse(value);
    if (!expected.empty())
      raise<poplar::invalid_option>(api, ": option '", key, "' has value '", value, "', expected ",
                                    expected);
  }
}

} // namespace popsdk::support
