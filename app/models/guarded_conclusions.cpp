#include "models/guarded_conclusions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpulab::models {

namespace {
std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}
std::string times(double v) { return fixed(v, v < 10 ? 2 : 1) + "×"; }
std::string percent(double share) { return fixed(100 * share, std::abs(share) < 0.1 ? 1 : 0) + " %"; }
std::string count(double v) { return fixed(v, 0); }

double implied(double speedup, double threads) { return (1.0 / speedup - 1.0 / threads) / (1.0 - 1.0 / threads); }
}  // namespace

Conclusion threads_conclusion(const RateRange& one, const RateRange& all, int threads, bool busy) {
  Conclusion c;
  const std::string n = std::to_string(threads);
  if (one.samples == 0 || all.samples == 0 || threads < 2) return c;
  switch (compare_rates(all, one)) {
    case Ordering::a_faster:
      c.stated = true;
      c.text = n + " threads beat 1 by " + times(all.typical / one.typical) + ", beyond the spread of both runs.";
      break;
    case Ordering::b_faster:
      if (busy) {
        c.text = "1 thread came out faster than " + n + ", but the CPU was busy: the extra threads waited for a "
                 "core another program held. Not a property of BLAS; run again on a quiet machine.";
      } else {
        c.stated = true;
        c.text = "1 thread beat " + n + " beyond the spread: at this size sharing the work out costs more than it "
                 "saves.";
      }
      break;
    case Ordering::too_close:
      c.text = n + " threads and 1 thread overlap within their spread (" + fixed(all.low, 1) + "–" +
               fixed(all.high, 1) + " against " + fixed(one.low, 1) + "–" + fixed(one.high, 1) +
               "): no winner can be named" + (busy ? " — and the CPU was busy, so a core was missing." : ".");
      break;
  }
  return c;
}

SpeedupRange paired_speedup_range(const std::vector<double>& one_thread_s, const std::vector<double>& n_thread_s) {
  SpeedupRange s;
  std::vector<double> ratios;
  const std::size_t n = std::min(one_thread_s.size(), n_thread_s.size());
  for (std::size_t i = 0; i < n; ++i)
    if (one_thread_s[i] > 0 && n_thread_s[i] > 0) ratios.push_back(one_thread_s[i] / n_thread_s[i]);
  if (ratios.empty()) return s;
  std::sort(ratios.begin(), ratios.end());
  s.rounds = int(ratios.size());
  s.low = ratios.front();
  s.high = ratios.back();
  const std::size_t m = ratios.size() / 2;
  s.typical = ratios.size() % 2 ? ratios[m] : 0.5 * (ratios[m - 1] + ratios[m]);
  return s;
}

ShareInference infer_serial_share(const SpeedupRange& s, int threads, bool busy) {
  ShareInference out;
  if (threads < 2 || s.rounds == 0 || !(s.typical > 0)) return out;
  out.share = std::clamp(implied(s.typical, threads), 0.0, 1.0);
  out.low = std::clamp(implied(s.high, threads), 0.0, 1.0);
  out.high = std::clamp(implied(s.low, threads), 0.0, 1.0);
  const std::string sp = times(s.typical) + " (" + times(s.low) + "–" + times(s.high) + " over " +
                         std::to_string(s.rounds) + " rounds)";
  const std::string n = std::to_string(threads);
  if (busy) {
    out.conclusion.text = sp + " on " + n + " threads, but the CPU was busy: the threads queued for cores other "
                          "programs held, so no serial share can be read from it.";
  } else if (s.rounds < 3) {
    out.conclusion.text = sp + " on " + n + " threads: too few rounds to read a serial share.";
  } else if (s.low <= 1.0) {
    out.conclusion.text = sp + " on " + n + " threads: within its spread it may be no faster than 1 thread, so it "
                          "implies nothing about the serial share.";
  } else if (out.high - out.low > 0.15) {
    out.conclusion.text = sp + " on " + n + " threads would put the serial share anywhere from " +
                          percent(out.low) + " to " + percent(out.high) + ": too wide to name one.";
  } else {
    out.conclusion.stated = true;
    out.conclusion.text = sp + " on " + n + " threads implies a serial share of " + percent(out.share) + " (" +
                          percent(out.low) + "–" + percent(out.high) + ").";
  }
  return out;
}

GuardedCrossover guarded_crossover(std::vector<BatchPoint> points, double share) {
  GuardedCrossover g;
  points.erase(std::remove_if(points.begin(), points.end(),
                              [](const BatchPoint& p) { return p.rate.samples == 0 || !(p.rate.typical > 0); }),
               points.end());
  std::stable_sort(points.begin(), points.end(), [](const BatchPoint& a, const BatchPoint& b) { return a.batch < b.batch; });
  if (points.size() < 3) {
    g.conclusion.text = "need at least 3 measured batch sizes";
    return g;
  }
  // A zig-zag: a larger batch slower than a smaller one beyond both spreads. Reusing the weights can only help,
  // so such a dip is the machine (or the timing), and any crossover read from these points would be noise.
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t j = i + 1; j < points.size(); ++j)
      if (compare_rates(points[i].rate, points[j].rate, 0.10) == Ordering::a_faster) {
        g.conclusion.text = "B = " + count(points[j].batch) + " ran slower than B = " + count(points[i].batch) +
                            " beyond both spreads, so the curve is noise here: measure again (Careful timing, a "
                            "quiet machine) before reading a crossover";
        return g;
      }
  double plateau = 0;
  for (const BatchPoint& p : points) plateau = std::max(plateau, p.rate.typical);
  std::size_t i = 0;
  while (i < points.size() && points[i].rate.typical < share * plateau) ++i;
  const BatchPoint& c = points[i];
  bool slowerBefore = false;
  for (std::size_t k = 0; k < i; ++k) slowerBefore = slowerBefore || compare_rates(c.rate, points[k].rate) == Ordering::a_faster;
  if (i == 0 || !slowerBefore) {
    g.conclusion.text = "no smaller batch was slower beyond the spread: no memory-bound part was measured";
    return g;
  }
  if (i + 1 == points.size()) {
    g.conclusion.text = "still rising at the largest batch: the plateau was not reached";
    return g;
  }
  g.conclusion.stated = true;
  g.batch = c.batch;
  g.intensity = c.intensity;
  g.rate = c.rate.typical;
  g.conclusion.text = "compute-bound from B = " + count(c.batch) + ": the first batch within " +
                      percent(1 - share) + " of the plateau, clearly faster than the smaller ones";
  return g;
}

}  // namespace gpulab::models
