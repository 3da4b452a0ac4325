// JSON and CBOR from outside the program, parsed with a bound on nesting: nlohmann's readers,
// its DOM and dump() recurse once per level, so a document of a million nested arrays (2 MB of
// '[' or of CBOR 0x81) would overflow the stack.
#ifndef popsdk_support_BoundedJson_hpp
#define popsdk_support_BoundedJson_hpp

#include <nlohmann/json.hpp>

#include <cstddef>
#include <utility>

namespace popsdk::support {

/// Deeper than any document the SDK writes or reads (an option file is 2 levels, an
/// Executable's description 5), and far from what the stack holds.
constexpr std::size_t kMaxJsonDepth = 128;

namespace detail {

/// nlohmann's DOM builder, stopping at the first array or object nested deeper than the limit.
class DepthLimitedDom : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;

public:
  explicit DepthLimitedDom(nlohmann::json &out) : Base(out, true) {}
  bool start_object(std::size_t n) { return enter() && Base::start_object(n); }
  bool start_array(std::size_t n) { return enter() && Base::start_array(n); }
  bool end_object() {
    --depth_;
    return Base::end_object();
  }
  bool end_array() {
    --depth_;
    return Base::end_array();
  }
  bool tooDeep() const { return tooDeep_; }

private:
  bool enter() {
    tooDeep_ = ++depth_ > kMaxJsonDepth;
    return !tooDeep_;
  }
  std::size_t depth_ = 0;
  bool tooDeep_ = false;
};

} // namespace detail

/// Parses `input` (anything nlohmann::json::parse or from_cbor takes) in `format` into `out`.
/// Returns false if it nests deeper than kMaxJsonDepth; a malformed document throws
/// nlohmann::json::parse_error as nlohmann::json::parse does.
template <typename Input>
bool parseBounded(Input &&input, nlohmann::json::input_format_t format, nlohmann::json &out) {
  detail::DepthLimitedDom dom(out);
  bool complete = nlohmann::json::sax_parse(std::forward<Input>(input), &dom, format, true);
  if (dom.tooDeep()) {
    out = nlohmann::json(); // what was built so far is partial
    return false;
  }
  return complete;
}

} // namespace popsdk::support

#endif
