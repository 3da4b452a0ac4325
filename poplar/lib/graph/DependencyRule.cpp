// Parses popc's -MD output (popc/lib/DependencyFile.cpp writes it) for the codelet cache.
#include "graph/DependencyRule.hpp"

namespace poplar::detail {

namespace {

/// The words of `text` from `pos`, separated by unescaped blanks and line continuations.
std::vector<std::string> words(const std::string &text, std::size_t pos) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (!word.empty())
      out.push_back(std::move(word));
    word.clear();
  };
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c == '\\' && pos + 1 < text.size()) {
      char next = text[++pos];
      if (next == '\n')
        flush();
      else
        word += next;
    } else if (c == '$' && pos + 1 < text.size() && text[pos + 1] == '$') {
      word += '$';
      ++pos;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  return out;
}

} // namespace

std::optional<std::vector<std::string>> parseDependencyRule(const std::string &text) {
  // The target ends at the first ':' that is not escaped.
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    if (text[pos] == '\\')
      ++pos;
    else if (text[pos] == ':')
      return words(text, pos + 1);
  }
  return std::nullopt;
}

} // namespace poplar::detail
