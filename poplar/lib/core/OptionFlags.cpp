// OptionFlags lookup, JSON reading (nlohmann-json) and printing.
#include "core/Errors.hpp"
#include "support/BoundedJson.hpp"

#include <poplar/OptionFlags.hpp>

#include <nlohmann/json.hpp>

#include <istream>
#include <ostream>
#include <utility>
#include <vector>

namespace poplar {

namespace {

/// Options are strings in Poplar, so JSON scalars are kept as the text a user would type.
std::string optionText(const std::string &key, const nlohmann::json &value) {
  if (value.is_string())
    return value.get<std::string>();
  if (value.is_boolean())
    return value.get<bool>() ? "true" : "false";
  if (value.is_number())
    return value.dump();
  detail::raise<parse_error>("readJSON: option \"", key,
                             "\" must be a string, boolean or number, not ", value.type_name(),
                             " (", value.dump(), ")");
}

/// JSON string literal text; invalid UTF-8 is replaced rather than thrown, as printing options
/// must not fail.
std::string quoted(const std::string &s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void readParsed(const nlohmann::json &doc, OptionFlags &flags) {
  if (!doc.is_object())
    detail::raise<parse_error>("readJSON: expected a JSON object of options, got ", doc.type_name(),
                               " ", doc.dump());
  // Validate everything before changing `flags`, so a bad document leaves them untouched.
  std::vector<std::pair<std::string, std::string>> parsed;
  for (const auto &item : doc.items())
    parsed.emplace_back(item.key(), optionText(item.key(), item.value()));
  for (const auto &kv : parsed)
    flags.set(kv.first, kv.second);
}

} // namespace

StringRef OptionFlags::at(StringRef option) const {
  const auto it = flags_.find(option.str());
  if (it == flags_.end())
    detail::raise<invalid_option>("OptionFlags::at: option \"", option, "\" is not set");
  return it->second;
}

void readJSON(StringRef string, OptionFlags &flags) {
  nlohmann::json doc;
  try {
    if (!popsdk::support::parseBounded(std::string(string.begin(), string.end()),
                                       nlohmann::json::input_format_t::json, doc))
      detail::raise<parse_error>("readJSON: JSON options nested more than ",
                                 popsdk::support::kMaxJsonDepth, " levels deep");
  } catch (const nlohmann::json::exception &e) {
    // parse_error, and out_of_range for a number beyond a double ("1e999").
    detail::raise<parse_error>("readJSON: malformed JSON options '", string, "': ", e.what());
  }
  readParsed(doc, flags);
}

void readJSON(std::istream &stream, OptionFlags &flags) {
  nlohmann::json doc;
  try {
    if (!popsdk::support::parseBounded(stream, nlohmann::json::input_format_t::json, doc))
      detail::raise<parse_error>("readJSON: JSON options in stream nested more than ",
                                 popsdk::support::kMaxJsonDepth, " levels deep");
  } catch (const nlohmann::json::exception &e) {
    detail::raise<parse_error>("readJSON: malformed JSON options in stream: ", e.what());
  }
  readParsed(doc, flags);
}

std::ostream &operator<<(std::ostream &os, const OptionFlags &flags) {
  os << '{';
  bool first = true;
  for (const auto &kv : flags) {
    os << (first ? "" : ", ") << quoted(kv.first) << ": " << quoted(kv.second);
    first = false;
  }
  return os << '}';
}

} // namespace poplar
