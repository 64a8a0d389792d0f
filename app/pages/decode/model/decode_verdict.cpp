#include "pages/decode/model/decode_verdict.h"

#include <algorithm>
#include <cstdio>

namespace gpulab::models {

namespace {
std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}
}  // namespace

DecodeVerdict decode_verdict(std::vector<ChainStep> steps, double keep) {
  DecodeVerdict v;
  steps.erase(std::remove_if(steps.begin(), steps.end(), [](const ChainStep& s) { return !(s.median_s > 0); }),
              steps.end());
  std::sort(steps.begin(), steps.end(), [](const ChainStep& a, const ChainStep& b) { return a.users < b.users; });
  if (steps.size() < 2 || steps.front().users != 1) {
    v.text = "needs batch 1 and at least one larger batch";
    return v;
  }
  const ChainStep& one = steps.front();
  auto lo = [](const ChainStep& s) { return s.min_s > 0 ? s.min_s : s.median_s; };
  auto hi = [](const ChainStep& s) { return s.max_s > 0 ? s.max_s : s.median_s; };
  const ChainStep& last = steps.back();
  v.last_users = last.users;
  v.last_share = one.median_s / last.median_s;
  // Per-user speed ∝ 1 / step time. Its share of batch 1's, at the most favourable and least favourable ends.
  bool unclear = false;
  for (std::size_t i = 1; i < steps.size(); ++i) {
    const double best = hi(one) / lo(steps[i]), worst = lo(one) / hi(steps[i]);
    if (best < keep) {  // even the kindest reading of the samples has each user clearly slower
      v.bound = DecodeBound::compute;
      v.bend_users = steps[i].users;
      v.text = "per-user speed falls from about " + fixed(steps[i].users, 0) + " users (to " +
               fixed(100 * one.median_s / steps[i].median_s, 0) + " % of batch 1's; " +
               fixed(100 * v.last_share, 0) + " % at " + fixed(last.users, 0) +
               "): past there the arithmetic, not the weight read, sets the pace";
      return v;
    }
    if (worst < keep) unclear = true;
  }
  if (unclear) {
    v.bound = DecodeBound::unclear;
    v.text = "per-user speed at " + fixed(last.users, 0) + " users is " + fixed(100 * v.last_share, 0) +
             " % of batch 1's, but the samples spread too widely to say whether it fell: measure again";
    return v;
  }
  v.bound = DecodeBound::memory;
  v.text = "memory-bound up to " + fixed(last.users, 0) + " users: each keeps " + fixed(100 * v.last_share, 0) +
           " % of the batch-1 speed, since one read of the weights serves the whole batch";
  return v;
}

double chain_attention_factor(double weight_bytes, double kv_bytes_per_user, double users) {
  if (!(weight_bytes > 0) || !(kv_bytes_per_user > 0)) return 1.0;
  return (weight_bytes + std::max(1.0, users) * kv_bytes_per_user) / weight_bytes;
}

std::string chain_attention_note(double weight_bytes, double kv_bytes_per_user, double context, double users) {
  if (!(weight_bytes > 0) || !(kv_bytes_per_user > 0) || !(context > 0) || !(users >= 1)) return {};
  const double factor = chain_attention_factor(weight_bytes, kv_bytes_per_user, users);
  return "Left out: attention over the KV cache (the chain runs the weight products only). At " + fixed(context, 0) +
         " tokens each user's cache, " + fixed(kv_bytes_per_user / 1e9, 2) + " GB, is read every step too: at " +
         fixed(users, 0) + " users a step reads " + fixed(factor, 1) + "x the weights' bytes, so each user would get " +
         fixed(100 / factor, 0) + " % of the speed drawn — the verdict holds for short contexts only.";
}

std::string chain_scale_note(int layers_run, int full_layers) {
  if (layers_run <= 0) return {};
  if (layers_run >= full_layers) return "all " + std::to_string(full_layers) + " layers run";
  const double scale = double(full_layers) / layers_run;
  return std::to_string(layers_run) + " of " + std::to_string(full_layers) + " layers run, time scaled ×" +
         fixed(scale, scale == double(int(scale)) ? 0 : 1);
}

}  // namespace gpulab::models
