// Whether a step worth handing to the worker pool is handed to it: each way timed on the step.
#pragma once

namespace poplar::detail {

/// On a machine busier than it has cores, a worker is often descheduled holding a chunk and the
/// caller waits for it, so handing off can lose however much work a step has. So each step that
/// could use the pool times both ways on itself and keeps the faster, retrying the other after
/// kFirstProbe executions, and after twice as many each time the choice holds (up to
/// kMaxProbe). Only which thread runs a chunk depends on it, never a result.
class HandOffChoice {
public:
  static constexpr unsigned kFirstProbe = 8, kMaxProbe = 512;

  /// Whether this execution uses the pool.
  bool useThreads();
  /// How long the execution that useThreads() chose took.
  void record(bool threads, double seconds);

private:
  double seconds_[2] = {0, 0}; // smoothed time alone [0] and with the pool [1]; 0: not yet timed
  unsigned sinceProbe_ = 0, probeEvery_ = kFirstProbe;
  bool probing_ = false;
  bool fasterWithThreads() const { return seconds_[1] < seconds_[0]; }
};

} // namespace poplar::detail
