// OptionFlags: lookup errors, JSON reading of strings/booleans/numbers, parse errors, printing.
#include <poplar/OptionFlags.hpp>
#include <poplar/exceptions.hpp>

#include <gtest/gtest.h>

#include <sstream>
#include <string>

using namespace poplar;

namespace {

template <class E, class F> std::string messageOf(F f) {
  try {
    f();
  } catch (const E &e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an exception";
  return "";
}

} // namespace

TEST(OptionFlags, AtReturnsValueOrNamesMissingOption) {
  OptionFlags flags{
      {"autoReport.all", "true"},
      {"debug.instrument", "false"},
  };
  EXPECT_EQ(flags.at("autoReport.all"), "true");
  EXPECT_EQ(flags.at(std::string("debug.instrument")).str(), "false");
  const std::string msg = messageOf<invalid_option>([&] { flags.at("autoReport.directory"); });
  EXPECT_NE(msg.find("autoReport.directory"), std::string::npos) << msg;
  EXPECT_NE(msg.find("OptionFlags::at"), std::string::npos) << msg;
}

TEST(OptionFlags, ReadJSONConvertsScalarsToText) {
  OptionFlags flags;
  readJSON(R"({"autoReport.all": true, "b": false, "n": 42, "x": 0.5, "neg": -3,
               "s": "a \"quoted\" value"})",
           flags);
  EXPECT_EQ(flags.size(), 6u);
  EXPECT_EQ(flags.at("autoReport.all"), "true");
  EXPECT_EQ(flags.at("b"), "false");
  EXPECT_EQ(flags.at("n"), "42");
  EXPECT_EQ(flags.at("x"), "0.5");
  EXPECT_EQ(flags.at("neg"), "-3");
  EXPECT_EQ(flags.at("s"), "a \"quoted\" value");
}

TEST(OptionFlags, ReadJSONUpdatesExistingFlags) {
  OptionFlags flags{{"keep", "1"}, {"replace", "old"}};
  std::istringstream in(R"({"replace": "new", "added": "yes"})");
  readJSON(in, flags);
  EXPECT_EQ(flags, (OptionFlags{{"keep", "1"}, {"replace", "new"}, {"added", "yes"}}));
  readJSON("{}", flags);
  EXPECT_EQ(flags.size(), 3u);
}

TEST(OptionFlags, ReadJSONRejectsBadDocuments) {
  OptionFlags flags{{"keep", "1"}};
  std::string msg = messageOf<parse_error>([&] { readJSON("[1, 2]", flags); });
  EXPECT_NE(msg.find("object"), std::string::npos) << msg;
  EXPECT_NE(msg.find("array"), std::string::npos) << msg;
  msg = messageOf<parse_error>([&] { readJSON(R"({"a": "1",})", flags); });
  EXPECT_NE(msg.find("readJSON"), std::string::npos) << msg;
  EXPECT_NE(msg.find(R"({"a": "1",})"), std::string::npos) << msg;
  msg = messageOf<parse_error>([&] { readJSON(R"({"ok": "1", "nested": {"a": 1}})", flags); });
  EXPECT_NE(msg.find("nested"), std::string::npos) << msg;
  msg = messageOf<parse_error>([&] { readJSON(R"({"n": null})", flags); });
  EXPECT_NE(msg.find("null"), std::string::npos) << msg;
  std::istringstream in("not json");
  EXPECT_THROW(readJSON(in, flags), parse_error);
  // A rejected document changes nothing.
  EXPECT_EQ(flags, (OptionFlags{{"keep", "1"}}));
}

TEST(OptionFlags, PrintsAsJSONAndReadsBack) {
  OptionFlags flags{{"b", "2"}, {"a", "x\"y"}};
  std::ostringstream os;
  os << flags;
  EXPECT_EQ(os.str(), R"({"a": "x\"y", "b": "2"})");
  OptionFlags back;
  readJSON(os.str(), back);
  EXPECT_EQ(back, flags);
  std::ostringstream empty;
  empty << OptionFlags();
  EXPECT_EQ(empty.str(), "{}");
}
