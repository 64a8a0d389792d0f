#include "models/gemm_csv.h"

#include "models/measured_spread.h"
#include "models/series_csv.h"

#include <cstdio>

namespace gpulab::models {

namespace {
std::string num(double v, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}
}  // namespace

std::string gemm_bars_csv(const std::vector<GemmBarRow>& rows, double naive_gflops) {
  std::string out =
      "variant,backend,threads,m,k,n,source,gflops,gflops_low,gflops_high,median_s,speedup_vs_naive,check,max_rel_err\n";
  for (const GemmBarRow& row : rows) {
    if (!row.result) continue;
    const Result& r = *row.result;
    const RateRange range = gflops_range(r);
    const bool here = row.source == "measured here";
    out += csv_field(row.name) + ',' + r.backend + ',' + std::to_string(row.threads) + ',' +
           num(r.param("m"), 12) + ',' + num(r.param("k"), 12) + ',' + num(r.param("n"), 12) + ',' +
           csv_field(row.source) + ',' + num(r.gflops, 6) + ',' + num(range.low, 6) + ',' + num(range.high, 6) + ',' +
           num(r.stats.median_s, 6) + ',' + num(here && naive_gflops > 0 ? r.gflops / naive_gflops : 0.0, 4) + ',' +
           (!r.error.empty() ? "not run" : r.check.passed ? "pass" : "FAIL") + ',' + num(r.check.max_rel_err, 3) + '\n';
  }
  return out;
}

}  // namespace gpulab::models
