// Timing both ways of running a step, and retrying the slower now and then.
#include "engine/HandOffChoice.hpp"

#include <algorithm>

namespace poplar::detail {

bool HandOffChoice::useThreads() {
  if (seconds_[1] == 0)
    return true; // first the pool, then the caller alone
  if (seconds_[0] == 0)
    return false;
  bool best = fasterWithThreads();
  if (++sinceProbe_ < probeEvery_)
    return best;
  sinceProbe_ = 0;
  probing_ = true;
  return !best;
}

void HandOffChoice::record(bool threads, double seconds) {
  bool before = fasterWithThreads();
  double &t = seconds_[threads];
  // Half the latest time, half the history: one preempted execution does not flip the choice.
  t = t == 0 ? seconds : (t + seconds) / 2;
  if (probing_) {
    probing_ = false;
    probeEvery_ =
        fasterWithThreads() == before ? std::min(kMaxProbe, probeEvery_ * 2) : kFirstProbe;
  }
}

} // namespace poplar::detail
