// Make-rule text for popc -MD: the output and every file its compile read.
#include "DependencyFile.hpp"

namespace popc {

namespace {

std::string escape(const std::string &path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '\t' || c == '#' || c == '\\')
      out += '\\';
    else if (c == '$')
      out += '$';
    out += c;
  }
  return out;
}

} // namespace

std::string dependencyRule(const std::string &target, const std::vector<std::string> &deps) {
  std::string rule = escape(target) + ":";
  for (const std::string &d : deps)
    rule += " \\\n  " + escape(d);
  return rule + "\n";
}

} // namespace popc
