// Whether a step worth handing to the worker pool is handed to it: each way timed on the step.
#pragma once

namespace poplar::detail {

/// On a machine busier than it has cores, a worker is often descheduled holding a chunk and the
/// caller waits for it, so handing off can lose however much work a step has. So each step that
/// could use the pool times both ways on itself and keeps the faster, retrying the other after
/// kFirstProbe executions, and after twice as many each time the choice holds (up to
/// kMaxProbe). A try is kProbeRuns executions: the first is not timed (the first of the pool's
/// after a spell without it wakes its sleeping workers and moves the step's tile memory into
/// their caches, a cost the choice would otherwise always hold against the pool), and the
/// fastest of the others is the way's time, so one preempted execution does not decide. A try's
/// time replaces what the way had: it may be from long before (a first try while the native
/// tier compiled on one of the cores would otherwise keep a step off the pool for good). The
/// way in use is timed on every execution, half the latest, half the history. Only which thread
/// runs a chunk depends on it, never a result.
class HandOffChoice {
public:
  static constexpr unsigned kFirstProbe = 8, kMaxProbe = 512, kProbeRuns = 3;

  /// Whether this execution uses the pool.
  bool useThreads();
  /// How long the execution that useThreads() chose took.
  void record(bool threads, double seconds);

private:
  double seconds_[2] = {0, 0}; // smoothed time alone [0] and with the pool [1]; 0: not yet timed
  unsigned sinceProbe_ = 0, probeEvery_ = kFirstProbe;
  unsigned probeLeft_ = 0; // executions left of the current try of probeThreads_
  double probeBest_ = 0;   // the fastest timed execution of the current try
  bool probeThreads_ = false;
  bool fasterWithThreads() const { return seconds_[1] < seconds_[0]; }
  void startProbe(bool threads);
};

} // namespace poplar::detail
