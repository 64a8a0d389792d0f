// Amdahl's law measured on CPU threads: a dependent chain (serial), then many independent chains (parallel).
// See gpulab/amdahl_scaling.hpp for the shape of the job and why both parts use the same step.
#include "gpulab/result_views.hpp"
#include "gpulab/amdahl_scaling.hpp"

#include "gpulab/harness.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace gpulab {
namespace {

// One step of a chain: a xorshift-multiply mix. Integer arithmetic, so a threaded run and the one-thread
// reference agree bit for bit; the mix has no closed form, so the compiler cannot skip steps.
inline std::uint64_t mix_step(std::uint64_t x) {
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ULL;
  return x;
}

// n dependent steps. The empty asm keeps x in a register each step, so the compiler cannot interleave or
// vectorise the parallel part's chains: then a parallel step costs what a serial step costs, and the serial
// share of the steps is the serial share of the one-thread time.
inline std::uint64_t chain(std::uint64_t x, long long n) {
  for (long long i = 0; i < n; ++i) {
    x = mix_step(x);
#if defined(__GNUC__)
    asm volatile("" : "+r"(x));
#endif
  }
  return x;
}

inline std::uint64_t item_start(std::uint64_t serial_out, int item) {
  return mix_step(serial_out + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(item + 1));
}

std::string num(double v) { return format_fixed(v, v == static_cast<long long>(v) ? 0 : 3); }

Provenance scaling_provenance(const Backend& backend, const MeasurePolicy& policy) {
  Provenance p = backend.provenance();
  for (auto& [k, v] : base_provenance()) p[k] = v;
  p["policy_min_samples"] = std::to_string(policy.min_samples);
  p["policy_max_samples"] = std::to_string(policy.max_samples);
  p["policy_target_rel_spread"] = num(policy.target_rel_spread);
  p["policy_time_budget_s"] = num(policy.time_budget_s);
  p["warmup"] = "the check run, then " + std::to_string(policy.warmup_runs) + " untimed run(s)";
  return p;
}


}  // namespace

std::vector<int> amdahl_thread_ladder(int max_threads) {
  max_threads = std::max(1, max_threads);
  std::vector<int> out;
  for (int t = 1; t < max_threads; t *= 2) out.push_back(t);
  out.push_back(max_threads);
  return out;
}

AmdahlJob::AmdahlJob(const AmdahlScalingSpec& spec, int threads) : m_threads(threads), m_seed(spec.seed) {
  if (threads < 1 || threads > 4096)
    throw std::invalid_argument("threads must be 1…4096 (got " + std::to_string(threads) + ")");
  if (!(spec.serial_share >= 0 && spec.serial_share <= 1))
    throw std::invalid_argument("serial_share must be between 0 and 1");
  if (spec.total_steps < 1000 || spec.parallel_items < 1)
    throw std::invalid_argument("total_steps must be at least 1000 and parallel_items at least 1");
  m_serial_steps = std::llround(spec.serial_share * static_cast<double>(spec.total_steps));
  const long long parallel_steps = spec.total_steps - m_serial_steps;
  m_steps_per_item = parallel_steps / spec.parallel_items;
  // A share of 100 % leaves no parallel work at all: keep the items but give them nothing to do.
  m_out.assign(static_cast<std::size_t>(m_steps_per_item > 0 ? spec.parallel_items : 0), 0);
}

void AmdahlJob::run_parallel(std::uint64_t start) {
  const int items = static_cast<int>(m_out.size());
  if (items == 0) return;
  const int workers = std::min(m_threads, items);
  auto work = [this, start, items, workers](int w) {
    // Contiguous blocks of items, sizes differing by at most one: balanced without any coordination.
    const int lo = static_cast<int>(static_cast<long long>(items) * w / workers);
    const int hi = static_cast<int>(static_cast<long long>(items) * (w + 1) / workers);
    for (int i = lo; i < hi; ++i) m_out[static_cast<std::size_t>(i)] = chain(item_start(start, i), m_steps_per_item);
  };
  // Threads are started inside the timed region on purpose: starting them is part of what parallel work
  // really costs (tens of microseconds each, small against the ~10 ms of work).
  std::vector<std::jthread> pool;
  pool.reserve(static_cast<std::size_t>(workers - 1));
  for (int w = 1; w < workers; ++w) pool.emplace_back(work, w);
  work(0);
}  // the jthreads join here

double AmdahlJob::run_once() {
  std::fill(m_out.begin(), m_out.end(), 0);  // poison: a chain that did not run cannot pass the check
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  m_serial_out = chain(m_seed, m_serial_steps);  // the parallel part cannot start before this ends
  const auto t1 = clock::now();
  run_parallel(m_serial_out);
  const auto t2 = clock::now();
  m_last_serial_s = std::chrono::duration<double>(t1 - t0).count();
  m_serial_history.push_back(m_last_serial_s);
  return std::chrono::duration<double>(t2 - t0).count();
}

Check AmdahlJob::verify() {
  run_once();
  Check c;
  const std::uint64_t serial_ref = chain(m_seed, m_serial_steps);
  c.checked = static_cast<long long>(m_out.size()) + 1;
  if (serial_ref != m_serial_out) {
    c.first_bad_index = 0;
    c.message = "the serial chain ended on a different value than the reference";
    return c;
  }
  for (std::size_t i = 0; i < m_out.size(); ++i) {
    if (m_out[i] != chain(item_start(serial_ref, static_cast<int>(i)), m_steps_per_item)) {
      c.first_bad_index = static_cast<long long>(i) + 1;
      c.message = "parallel chain " + std::to_string(i) + " differs from the one-thread reference";
      return c;
    }
  }
  c.passed = true;
  return c;
}

std::vector<double> AmdahlJob::serial_seconds(std::size_t n) const {
  n = std::min(n, m_serial_history.size());
  return {m_serial_history.end() - static_cast<std::ptrdiff_t>(n), m_serial_history.end()};
}

double implied_serial_share(double speedup, double threads) {
  if (!(threads > 1) || !(speedup > 0)) return std::numeric_limits<double>::quiet_NaN();
  return (1.0 / speedup - 1.0 / threads) / (1.0 - 1.0 / threads);
}

std::vector<Result> run_amdahl_scaling(Backend& cpu, const AmdahlScalingSpec& spec, const RunContext& ctx) {
  if (spec.threads.empty()) throw std::invalid_argument("no thread counts to run");
  // Every thread count is prepared first (bad specs throw std::invalid_argument, as the other experiments do),
  // then all are timed in the same rounds: the speed-up is a ratio, and on a shared machine a ratio of two
  // runs taken seconds apart can say anything (a slow moment during the 1-thread run once gave 2.06× on two
  // threads with 30 % serial work, above Amdahl's 1.54× limit).
  std::vector<std::unique_ptr<AmdahlJob>> jobs;
  std::vector<TimedOp*> ops;
  for (int threads : spec.threads) {
    jobs.push_back(std::make_unique<AmdahlJob>(spec, threads));
    ops.push_back(jobs.back().get());
  }
  std::string counts;
  for (int t : spec.threads) counts += (counts.empty() ? "" : ", ") + std::to_string(t);
  const std::string label = "Amdahl job, serial " + format_fixed(spec.serial_share * 100, 1) + " %, " + counts +
                            (spec.threads.size() == 1 && spec.threads[0] == 1 ? " thread" : " threads");
  ctx.report(0, label + ": checking");
  double spent = 0;
  auto on_round = [&](int round, double seconds) {
    spent += seconds;
    const double by_time = ctx.policy.time_budget_s > 0 ? spent / ctx.policy.time_budget_s : 0;
    const double by_count = double(round + 1) / std::max(1, ctx.policy.min_samples);
    ctx.report(std::min(1.0, std::max(by_time, by_count)),
               label + ": round " + std::to_string(round + 1) + ", " + format_seconds(seconds));
  };
  std::vector<Measurement> ms;
  std::string failure;
  try {
    ms = measure_interleaved(ops, ctx.policy, ctx.stop, on_round);
  } catch (const std::exception& e) {  // e.g. a thread that could not start
    failure = e.what();
  }

  // The reference for every speed-up: the one-thread run's samples, paired round by round.
  const auto one = std::find(spec.threads.begin(), spec.threads.end(), 1);
  const std::size_t ref = static_cast<std::size_t>(one - spec.threads.begin());
  std::vector<Result> out;
  for (std::size_t i = 0; i < spec.threads.size(); ++i) {
    const int threads = spec.threads[i];
    Result r;
    r.experiment = experiment_name::amdahl_scaling;
    r.backend = cpu.kind();
    r.variant = "threads";
    r.precision = Precision::fp64;  // not a float experiment; the field needs a value
    r.provenance = scaling_provenance(cpu, ctx.policy);
    r.provenance["job"] = "serial prefix: one dependent chain; parallel part: independent chains over std::threads";
    r.provenance["timing"] = "all thread counts timed in the same rounds, alternating order; speed-up is the "
                             "median of the per-round ratios to the 1-thread time";
    r.params = {{"threads", double(threads)}, {"serial_share", spec.serial_share},
                {"total_steps", double(spec.total_steps)}, {"serial_steps", double(jobs[i]->serial_steps())}};
    if (!failure.empty()) {
      r.error = failure;
    } else {
      const Measurement& m = ms[i];
      r.check = m.check;
      r.stats = m.stats;
      r.samples_s = m.samples_s;
      if (!m.check.passed && !m.cancelled) {
        r.error = "Result check failed, so it was not timed: " + m.check.message;
      } else if (m.samples_s.empty()) {
        r.error = "cancelled before any sample was timed";
      } else {
        if (m.cancelled) r.provenance["cancelled"] = "yes, after " + std::to_string(m.samples_s.size()) + " round(s)";
        r.params["serial_s"] = summarize(jobs[i]->serial_seconds(m.samples_s.size())).median_s;
        if (ref < ms.size() && !ms[ref].samples_s.empty()) {
          const double s = paired_median_ratio(ms[ref].samples_s, m.samples_s);
          if (s > 0) {
            r.params["speedup"] = s;
            if (threads > 1) r.params["implied_serial_share"] = implied_serial_share(s, threads);
          }
        }
      }
    }
    if (ctx.on_result) ctx.on_result(r);
    out.push_back(r);
  }
  return out;
}

Result run_launch_overhead(Backend& backend, const LaunchOverheadSpec& spec, const RunContext& ctx) {
  if (spec.kernels < 1) throw std::invalid_argument("kernels must be at least 1");
  Result r;
  r.experiment = experiment_name::launch_overhead;
  r.backend = backend.kind();
  r.variant = "tiny_kernels";
  r.precision = Precision::fp32;
  r.params = {{"kernels", double(spec.kernels)}, {"elements", double(spec.elements)}};
  r.provenance = scaling_provenance(backend, ctx.policy);
  const Support ok = backend.supports(spec);
  if (!ok.ok) {
    r.error = ok.reason;
  } else {
    const std::string label = std::to_string(spec.kernels) + " tiny kernels";
    ctx.report(0, label + ": preparing");
    try {
      auto op = backend.make_launch_overhead(spec);
      if (!op) throw std::runtime_error("the backend returned no launch-overhead operation");
      Measurement m = measure(*op, ctx.policy, ctx.stop, [&](int sample, double seconds) {
        ctx.report(std::min(1.0, double(sample + 1) / std::max(1, ctx.policy.min_samples)),
                   label + ": sample " + std::to_string(sample + 1) + ", " + format_seconds(seconds));
      });
      r.check = m.check;
      r.stats = m.stats;
      r.samples_s = m.samples_s;
      r.flops = op->flops();
      r.bytes = op->bytes();
      finalize_rates(r);
      if (!m.check.passed && !m.cancelled) r.error = "Result check failed, so it was not timed: " + m.check.message;
      else if (m.samples_s.empty()) r.error = "cancelled before any sample was timed";
      else r.params["per_launch_s"] = r.stats.median_s / spec.kernels;
    } catch (const std::invalid_argument&) {
      throw;
    } catch (const std::exception& e) {
      r.error = e.what();
    }
  }
  if (ctx.on_result) ctx.on_result(r);
  return r;
}

// The typed views of the results written above (result_views.hpp).
std::optional<AmdahlStep> as_amdahl_step(const Result& r) {
  if (r.experiment != experiment_name::amdahl_scaling) return std::nullopt;
  AmdahlStep s;
  s.head = result_header(r);
  s.threads = static_cast<int>(std::lround(r.param("threads")));
  s.serial_share = r.param("serial_share");
  s.speedup = r.param("speedup");
  s.implied_serial_share = r.param("implied_serial_share", -1);
  s.serial_s = r.param("serial_s");
  return s;
}

std::optional<LaunchOverhead> as_launch_overhead(const Result& r) {
  if (r.experiment != experiment_name::launch_overhead) return std::nullopt;
  LaunchOverhead l;
  l.head = result_header(r);
  l.kernels = static_cast<int>(std::lround(r.param("kernels")));
  l.elements = r.param("elements");
  l.per_launch_s = r.param("per_launch_s");
  return l;
}

}  // namespace gpulab
