#include "models/recording_contents.h"

#include "gpulab/page_plans.hpp"
#include "gpulab/result_views.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace recording_contents {

namespace {

// The page that draws `r`; see the header for the rule.
std::string pageOf(const gpulab::Result& r) {
  if (gpulab::as_gemm(r) && gpulab::is_matmul_page_plan(r.plan)) return "matmul";
  const bool crossPageSuite = r.plan.empty() || r.plan == gpulab::plan_name::quick ||
                              r.plan == gpulab::plan_name::estimate || r.plan == gpulab::plan_name::bandwidth ||
                              r.plan == gpulab::plan_name::transfer;
  if (!crossPageSuite) return r.plan;
  if (gpulab::as_gemm(r)) return "matmul";
  if (gpulab::as_bandwidth(r)) return "roofline";
  if (gpulab::as_transfer(r)) return "pcie";
  return r.plan.empty() ? "other" : r.plan;
}

struct Tally {
  int ok = 0, failed = 0;
  std::vector<std::pair<std::string, int>> kinds;                 // experiment -> results, in order met
  std::map<std::pair<double, std::string>, std::vector<std::string>> sizes;  // matmul: (FLOPs, size) -> ways
};

template <typename T>
T& entry(std::vector<std::pair<std::string, T>>& list, const std::string& key) {
  auto it = std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.first == key; });
  if (it != list.end()) return it->second;
  list.emplace_back(key, T{});
  return list.back().second;
}

}  // namespace

std::string shape_text(long long m, long long k, long long n) {
  if (m == k && k == n) return std::to_string(n) + "\u00b3";
  return std::to_string(m) + "\u00d7" + std::to_string(k) + "\u00d7" + std::to_string(n);
}

std::vector<PageHolding> holdings(const gpulab::Recording& recording) {
  std::vector<std::pair<std::string, Tally>> pages;
  for (const gpulab::Result& r : recording.results) {
    Tally& t = entry(pages, pageOf(r));
    const auto gemm = gpulab::as_gemm(r);
    const bool ok = r.ok();
    (ok ? t.ok : t.failed)++;
    if (!ok) continue;
    ++entry(t.kinds, r.experiment);
    // The matmul page is driven by sizes: say which, and how many ways each (the FP32 bars it draws).
    if (gemm && gemm->head.precision == gpulab::Precision::fp32 && !gemm->direct_control &&
        gpulab::is_matmul_page_plan(r.plan)) {
      const double flops = 2.0 * double(gemm->m) * double(gemm->k) * double(gemm->n);  // smallest first
      std::vector<std::string>& ways = t.sizes[{flops, shape_text(gemm->m, gemm->k, gemm->n)}];
      const std::string way = gemm->head.backend + "/" + gemm->head.variant + "/" + std::to_string(gemm->threads);
      if (std::find(ways.begin(), ways.end(), way) == ways.end()) ways.push_back(way);
    }
  }
  std::vector<PageHolding> out;
  for (auto& [page, t] : pages) {
    PageHolding h;
    h.page_id = page;
    h.results = t.ok;
    h.failed = t.failed;
    if (!t.sizes.empty()) {
      for (const auto& [size, ways] : t.sizes) {
        if (!h.what.empty()) h.what += " \u00b7 ";
        h.what += size.second + ": " + std::to_string(ways.size()) + (ways.size() == 1 ? " way" : " ways");
      }
    } else {
      h.what = std::to_string(t.ok) + (t.ok == 1 ? " result" : " results");
      std::string kinds;
      for (const auto& [kind, count] : t.kinds) kinds += (kinds.empty() ? "" : ", ") + kind + " \u00d7" + std::to_string(count);
      if (!kinds.empty()) h.what += " (" + kinds + ")";
    }
    if (t.failed) h.what += ", " + std::to_string(t.failed) + " did not run or failed the check";
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace recording_contents
