// Timing both ways of running a step, and retrying the slower now and then.
#include "engine/HandOffChoice.hpp"

#include <algorithm>

namespace poplar::detail {

void HandOffChoice::startProbe(bool threads) {
  probeThreads_ = threads;
  probeLeft_ = kProbeRuns;
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
  if (probeLeft_ > 0 && --probeLeft_ > 0)
    return; // a try's warm-up execution
  const bool compared = seconds_[0] != 0 && seconds_[1] != 0, before = fasterWithThreads();
  double &t = seconds_[threads];
  // Half the latest time, half the history: one preempted execution does not flip the choice.
  t = t == 0 ? seconds : (t + seconds) / 2;
  if (compared && sinceProbe_ == 0)
    probeEvery_ =
        fasterWithThreads() == before ? std::min(kMaxProbe, probeEvery_ * 2) : kFirstProbe;
}

} // namespace poplar::detail
