// expectThrowsWith<E>(f, parts): the error-path check every PopLibs test uses: f() throws an E
// whose message names each of `parts` (the function, the object, the values).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace popsdk::test {

template <class E>
void expectThrowsWith(const std::function<void()> &f, const std::vector<std::string> &parts) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one naming " << (parts.empty() ? "" : parts[0]);
  } catch (const E &e) {
    for (const auto &p : parts)
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
          << "'" << p << "' not in: " << e.what();
  }
}

} // namespace popsdk::test
