// The measurement method: check first (the untimed first launch), warm up (by time on a GPU), then time until
// successive samples agree or the budget is spent. Cancel is honoured between runs and, through the current
// StopScope, inside long ones.
#include "gpulab/harness.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace gpulab {

namespace {
thread_local std::stop_token t_current_stop;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The warm-up after the check: policy.warmup_runs untimed runs, then more until they add up to warmup_min_s (a
// GPU's clock ramps with busy time, not with a count of runs). Twice that in wall time ends it too: an op whose
// timer counts less than a run takes (a batch's average) must not warm up for ever. False when cancelled.
bool warm_up(TimedOp& op, const MeasurePolicy& policy, const std::stop_token& stop, Measurement& m) {
  const auto t0 = Clock::now();
  for (int i = 0;; ++i) {
    const bool by_count = i < policy.warmup_runs;
    const bool by_time = m.warmup_s < policy.warmup_min_s && seconds_since(t0) < 2 * policy.warmup_min_s;
    if (!by_count && !by_time) return true;
    if (stop.stop_requested()) return false;
    try {
      m.warmup_s += op.run_once();
    } catch (const Cancelled&) {
      return false;
    }
    ++m.warmup_count;
  }
}

// When each device last finished timed work (MeasurePolicy::device): one that worked moments ago is still at its
// boost clock, so the next measurement on it need not warm up by time again (kDeviceStaysWarmS).
std::mutex g_warmth_mutex;
std::map<const void*, Clock::time_point> g_last_busy;

bool still_warm(const void* device) {
  if (!device) return false;
  const std::lock_guard lock(g_warmth_mutex);
  const auto it = g_last_busy.find(device);
  return it != g_last_busy.end() && seconds_since(it->second) < kDeviceStaysWarmS;
}

void mark_busy(const void* device) {
  if (!device) return;
  const std::lock_guard lock(g_warmth_mutex);
  g_last_busy[device] = Clock::now();
}

// The last `window` samples agree: their spread is within the target.
bool tail_agrees(const std::vector<double>& samples, int window, double target) {
  if (static_cast<int>(samples.size()) < window) return false;
  const std::vector<double> tail(samples.end() - window, samples.end());
  return summarize(tail).rel_spread <= target;
}

// Samples at the start that are slower than every one of the agreeing samples at the end, by more than the target
// spread, were taken on a device still warming up (a clock leaving idle, caches filling): they are dropped, and
// counted, rather than pulling the median towards the cold device.
void drop_settling(Measurement& m, int window, double target) {
  auto& s = m.samples_s;
  if (static_cast<int>(s.size()) <= window || !tail_agrees(s, window, target)) return;
  const double tail_max = *std::max_element(s.end() - window, s.end());
  std::size_t lead = 0;
  while (lead < s.size() - static_cast<std::size_t>(window) && s[lead] > tail_max * (1 + target)) ++lead;
  m.settling_samples = static_cast<int>(lead);
  s.erase(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(lead));
}
}  // namespace

std::string describe_warmup(const MeasurePolicy& policy, const Measurement& m) {
  auto fixed = [](double v) {
    std::string t = std::to_string(v);
    return t.substr(0, t.find('.') + 4);  // three decimals, '.' in every locale (std::to_string uses "C")
  };
  std::string words = "the check run, then " + std::to_string(m.warmup_count) + " untimed run(s), " +
                      fixed(m.warmup_s) + " s";
  if (m.warm_already)
    words += " (no warm-up by time: the device had finished timed work under " + fixed(kDeviceStaysWarmS) +
             " s before)";
  else if (policy.warmup_min_s > 0)
    words += " (warm-up by time: at least " + fixed(policy.warmup_min_s) + " s)";
  return words;
}

std::string describe_settling(const Measurement& m) {
  if (m.settling_samples == 0) return {};
  return std::to_string(m.settling_samples) + " leading sample(s) slower than every one of the agreeing samples " +
         "after them were dropped (the device was still warming up)";
}

void warm_up_for(double seconds, const std::function<double()>& run) {
  const auto t0 = Clock::now();
  double spent = 0;
  while (spent < seconds && seconds_since(t0) < 2 * seconds) {
    throw_if_cancelled();
    spent += run();
  }
}

StopScope::StopScope(std::stop_token stop) : m_previous(std::move(t_current_stop)) { t_current_stop = std::move(stop); }
StopScope::~StopScope() { t_current_stop = std::move(m_previous); }
std::stop_token current_stop() { return t_current_stop; }
void throw_if_cancelled() {
  if (t_current_stop.stop_requested()) throw Cancelled();
}

Measurement measure(TimedOp& op, const MeasurePolicy& policy, std::stop_token stop,
                    const std::function<void(int sample, double seconds)>& on_sample) {
  Measurement m;
  const StopScope scope(stop);  // the op's long loops poll this token (see throw_if_cancelled)
  auto cancelled_in = [&m](std::string phase) {
    m.cancelled = true;
    m.cancelled_in = std::move(phase);
  };
  if (stop.stop_requested()) {
    cancelled_in("the check");
    m.check.message = "cancelled before the check";
    return m;
  }
  try {
    m.check = op.verify();
  } catch (const Cancelled&) {
    m.check = Check{};
    m.check.message = "cancelled during the check";
    cancelled_in("the check");
    return m;
  }
  if (!m.check.passed) return m;  // a wrong answer is shown, never timed

  MeasurePolicy warm = policy;
  if (policy.warmup_min_s > 0 && still_warm(policy.device)) {
    warm.warmup_min_s = 0;  // the count of warm-up runs still applies
    m.warm_already = true;
  }
  if (!warm_up(op, warm, stop, m)) {
    cancelled_in("the warm-up");
    return m;
  }

  const int min_samples = std::max(1, policy.min_samples);
  const int max_samples = std::max(min_samples, policy.max_samples);
  double spent = 0;
  while (true) {
    const std::string phase = "sample " + std::to_string(m.samples_s.size() + 1);
    if (stop.stop_requested()) {
      cancelled_in(phase);
      break;
    }
    double t = 0;
    try {
      t = op.run_once();
    } catch (const Cancelled&) {
      cancelled_in(phase);  // the half-done sample is dropped; the finished ones are kept
      break;
    }
    m.samples_s.push_back(t);
    spent += t;
    if (on_sample) on_sample(static_cast<int>(m.samples_s.size()) - 1, t);

    const int n = static_cast<int>(m.samples_s.size());
    if (n >= max_samples) break;
    if (n < min_samples) continue;
    if (spent >= policy.time_budget_s) break;
    // Successive samples agree: the last min_samples of them, not all since the first (which may have been taken
    // while a clock was still ramping).
    if (tail_agrees(m.samples_s, min_samples, policy.target_rel_spread)) break;
  }
  drop_settling(m, min_samples, policy.target_rel_spread);
  m.stats = summarize(m.samples_s);
  if (!m.samples_s.empty()) mark_busy(policy.device);
  return m;
}

std::vector<Measurement> measure_interleaved(const std::vector<TimedOp*>& ops, const MeasurePolicy& policy,
                                             std::stop_token stop,
                                             const std::function<void(int round, double seconds)>& on_round) {
  std::vector<Measurement> out(ops.size());
  const StopScope scope(stop);
  std::vector<std::size_t> live;  // the ops that passed their check, in the order given
  for (std::size_t i = 0; i < ops.size(); ++i) {
    bool stopped = stop.stop_requested();
    if (!stopped) {
      try {
        out[i].check = ops[i]->verify();
      } catch (const Cancelled&) {
        stopped = true;
      }
    }
    if (stopped) {
      for (std::size_t j = i; j < ops.size(); ++j) {
        out[j].check = Check{};
        out[j].cancelled = true;
        out[j].cancelled_in = "the check";
        out[j].check.message = j == i ? "cancelled during the check" : "cancelled before the check";
      }
      for (std::size_t j : live) {
        out[j].cancelled = true;
        out[j].cancelled_in = "the check of another op";
      }
      return out;
    }
    if (out[i].check.passed) live.push_back(i);
  }
  for (std::size_t i : live)
    if (!warm_up(*ops[i], policy, stop, out[i])) {
      for (std::size_t j : live) {
        out[j].cancelled = true;
        out[j].cancelled_in = "the warm-up";
      }
      return out;
    }

  const int min_samples = std::max(1, policy.min_samples);
  const int max_samples = std::max(min_samples, policy.max_samples);
  double spent = 0;
  for (int round = 0; !live.empty(); ++round) {
    bool cancelled = false;
    double this_round = 0;
    // Forward on even rounds, backward on odd ones: no op always runs first (cold) or right after another.
    for (std::size_t k = 0; k < live.size(); ++k) {
      if (stop.stop_requested()) {
        cancelled = true;
        break;
      }
      const std::size_t i = round % 2 == 0 ? live[k] : live[live.size() - 1 - k];
      double t = 0;
      try {
        t = ops[i]->run_once();
      } catch (const Cancelled&) {
        cancelled = true;
        break;
      }
      out[i].samples_s.push_back(t);
      this_round += t;
    }
    if (cancelled) {
      // A half-done round would leave the ops with unequal samples: drop it, keep the complete rounds.
      for (std::size_t i : live) {
        out[i].cancelled = true;
        out[i].cancelled_in = "round " + std::to_string(round + 1);
        out[i].samples_s.resize(static_cast<std::size_t>(round));
      }
      break;
    }
    spent += this_round;
    if (on_round) on_round(round, this_round);
    const int n = round + 1;
    if (n >= max_samples) break;
    if (n < min_samples) continue;
    if (spent >= policy.time_budget_s) break;
    const bool all_tight = std::all_of(live.begin(), live.end(), [&](std::size_t i) {
      return summarize(out[i].samples_s).rel_spread <= policy.target_rel_spread;
    });
    if (all_tight) break;
  }
  for (auto& m : out) m.stats = summarize(m.samples_s);
  return out;
}

double paired_median_ratio(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = std::min(a.size(), b.size());
  std::vector<double> r;
  r.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    if (b[i] > 0) r.push_back(a[i] / b[i]);
  return summarize(std::move(r)).median_s;  // 0 for no pairs
}

}  // namespace gpulab
