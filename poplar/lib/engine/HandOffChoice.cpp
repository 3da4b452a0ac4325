// Timing both ways of running a step, and retrying the slower now and then.
#include "engine/HandOffChoice.hpp"

#include <algorithm>

namespace poplar::detail {

void HandOffChoice::startProbe(bool threads) {
  probeThreads_ = threads;
  probeLeft_ = kProbeRuns;
  probeBest_ = 0;
  sinceProbe_ = 0;
}

bool HandOffChoice::useThreads() {
  if (probeLeft_ == 0) {
    if (seconds_[1] == 0)
      startProbe(true); // first the pool, then the caller alone
    else if (seconds_[0] == 0)
      startProbe(false);
    else if (++sinceProbe_ >= probeEvery_)
      startProbe(!fasterWithThreads());
    else
      return fasterWithThreads();
  }
  return probeThreads_;
}

void HandOffChoice::record(bool threads, double seconds) {
  if (probeLeft_ == 0) {
    // Half the latest time, half the history: one preempted execution does not flip the choice.
    double &t = seconds_[threads];
    t = t == 0 ? seconds : (t + seconds) / 2;
    return;
  }
  if (--probeLeft_ + 1 == kProbeRuns)
    return; // the try's warm-up execution
  probeBest_ = probeBest_ == 0 ? seconds : std::min(probeBest_, seconds);
  if (probeLeft_ > 0)
    return;
  const bool compared = seconds_[0] != 0 && seconds_[1] != 0, before = fasterWithThreads();
  seconds_[threads] = probeBest_;
  if (compared)
    probeEvery_ =
        fasterWithThreads() == before ? std::min(kMaxProbe, probeEvery_ * 2) : kFirstProbe;
}

} // namespace poplar::detail
