// Whether a step goes to the worker pool (engine/HandOffChoice.hpp): both ways are tried, the
// faster kept; a try's time is its fastest timed execution and replaces what that way had, so
// neither one preempted execution nor a slow first try decides for good.
#include "engine/HandOffChoice.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace {

using poplar::detail::HandOffChoice;

/// Runs `executions` executions, each taking seconds(threads, i); returns how many used the pool.
unsigned run(HandOffChoice &choice, unsigned executions,
             const std::function<double(bool, unsigned)> &seconds) {
  unsigned pooled = 0;
  for (unsigned i = 0; i < executions; ++i) {
    const bool threads = choice.useThreads();
    pooled += threads;
    choice.record(threads, seconds(threads, i));
  }
  return pooled;
}

TEST(HandOffChoice, TriesThePoolThenTheCallerAloneThenKeepsTheFaster) {
  HandOffChoice choice;
  std::vector<bool> ways;
  for (unsigned i = 0; i < 2 * HandOffChoice::kProbeRuns; ++i) {
    ways.push_back(choice.useThreads());
    choice.record(ways.back(), ways.back() ? 1.0 : 2.0);
  }
  EXPECT_EQ(ways, (std::vector<bool>{true, true, true, false, false, false}));
  EXPECT_TRUE(choice.useThreads());
}

TEST(HandOffChoice, ASlowFirstTryOfThePoolDoesNotKeepTheStepOffIt) {
  // The pool's first try falls while the host is busy (another thread compiles): 3 s against
  // the caller's 2; afterwards the pool takes 1.
  HandOffChoice choice;
  const auto seconds = [](bool threads, unsigned i) { return threads ? (i < 3 ? 3.0 : 1.0) : 2.0; };
  run(choice, 2 * HandOffChoice::kProbeRuns, seconds);
  EXPECT_FALSE(choice.useThreads());
  choice.record(false, 2.0);
  // The pool is tried again after kFirstProbe executions and wins at once; from then on only
  // the caller's tries (3 executions after 8, 16, 32, ... 512) run without it.
  run(choice, HandOffChoice::kFirstProbe + HandOffChoice::kProbeRuns, seconds);
  EXPECT_TRUE(choice.useThreads());
  choice.record(true, 1.0);
  EXPECT_GE(run(choice, 1000, seconds), 1000u - 7 * HandOffChoice::kProbeRuns);
}

TEST(HandOffChoice, OnePreemptedExecutionOfATryDoesNotDecide) {
  HandOffChoice choice;
  // The pool's try: a warm-up, then one execution preempted (5 s) and one at its speed (1 s).
  unsigned i = 0;
  const auto seconds = [&i](bool threads, unsigned) {
    ++i;
    return threads ? (i == 2 ? 5.0 : 1.0) : 2.0;
  };
  run(choice, 2 * HandOffChoice::kProbeRuns, seconds);
  EXPECT_TRUE(choice.useThreads());
}

} // namespace
