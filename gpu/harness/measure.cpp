// The measurement method: check first (it doubles as the warm-up), then time until the spread is small or the
// budget is spent. Cancel is honoured between samples, never inside one.
#include "gpulab/harness.hpp"

#include <algorithm>

namespace gpulab {

Measurement measure(TimedOp& op, const MeasurePolicy& policy, std::stop_token stop,
                    const std::function<void(int sample, double seconds)>& on_sample) {
  Measurement m;
  if (stop.stop_requested()) {
    m.cancelled = true;
    m.check.message = "cancelled before the check";
    return m;
  }
  m.check = op.verify();
  if (!m.check.passed) return m;  // a wrong answer is shown, never timed

  for (int i = 0; i < policy.warmup_runs; ++i) {
    if (stop.stop_requested()) {
      m.cancelled = true;
      return m;
    }
    op.run_once();
  }

  const int min_samples = std::max(1, policy.min_samples);
  const int max_samples = std::max(min_samples, policy.max_samples);
  double spent = 0;
  while (true) {
    if (stop.stop_requested()) {
      m.cancelled = true;
      break;
    }
    const double t = op.run_once();
    m.samples_s.push_back(t);
    spent += t;
    if (on_sample) on_sample(static_cast<int>(m.samples_s.size()) - 1, t);

    const int n = static_cast<int>(m.samples_s.size());
    if (n >= max_samples) break;
    if (n < min_samples) continue;
    if (spent >= policy.time_budget_s) break;
    if (summarize(m.samples_s).rel_spread <= policy.target_rel_spread) break;
  }
  m.stats = summarize(m.samples_s);
  return m;
}

}  // namespace gpulab
