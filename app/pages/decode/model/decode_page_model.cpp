#include "pages/decode/model/decode_page_model.h"

#include "plans/decode.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/vram_model.hpp"
#include "gpulab/result_views.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace decode_page_model {
namespace {

bool ofThisPlan(const gpulab::ResultHeader& h) { return h.plan.empty() || h.plan == gpulab::plan_name::decode; }

// A streamed bandwidth and the array size it streamed (bytes/s; 0 when the result is none).
struct Stream {
  double bytesPerS = 0, arrayBytes = 0;
  bool copy = false, onGpu = false;
  std::string backend, device;
};
Stream streamOf(const gpulab::Result& r) {
  Stream s;
  if (const auto b = gpulab::as_bandwidth(r); b && b->head.ok && b->kernel == gpulab::StreamKernel::triad && b->gbps > 0) {
    s.bytesPerS = b->gbps * 1e9;
    s.arrayBytes = b->bytes_per_array;
    s.onGpu = b->head.on_gpu;
    s.backend = b->head.backend;
    s.device = b->head.device;
  } else if (const auto t = gpulab::as_transfer(r);
             t && t->head.ok && t->direction == gpulab::TransferDirection::d2d && t->gbps > 0) {
    s.bytesPerS = t->gbps * 1e9 * 2;  // a copy moves each byte once but reads and writes it, as the triad counts
    s.arrayBytes = t->bytes;
    s.copy = true;
    s.onGpu = t->head.on_gpu;
    s.backend = t->head.backend;
    s.device = t->head.device;
  }
  return s;
}
bool better(const Stream& a, const Stream& current) {
  return a.arrayBytes > current.arrayBytes || (a.arrayBytes == current.arrayBytes && a.bytesPerS > current.bytesPerS);
}

}  // namespace

std::vector<CeilingBandwidth> ceilingBandwidths(const std::vector<Input>& results) {
  // Each source's best stream: the largest arrays (DRAM, not cache), then the fastest. A recording's only if it
  // ran on its GPU: a GPU server's CPU triad says nothing about the card.
  std::map<int, std::pair<const Input*, Stream>> best;
  for (const Input& in : results) {
    const Stream s = streamOf(*in.result);
    if (!(s.bytesPerS > 0) || (in.source >= 0 && !s.onGpu)) continue;
    auto it = best.find(in.source);
    if (it == best.end() || better(s, it->second.second)) best[in.source] = {&in, s};
  }
  std::vector<CeilingBandwidth> out;  // here (-1) first, then the recordings in order: std::map's order
  for (const auto& [source, found] : best) {
    CeilingBandwidth c;
    c.bytesPerS = found.second.bytesPerS;
    c.source = source;
    c.copy = found.second.copy;
    c.device = gpulab::device_words(*found.first->result);
    out.push_back(c);
  }
  return out;
}

std::vector<ChainRun> chainRuns(const std::vector<Input>& results) {
  std::map<int, std::map<long long, std::pair<const gpulab::Result*, gpulab::LayerChainPoint>>> bySource;
  std::map<int, std::pair<const gpulab::Result*, gpulab::LayerChainPoint>> prefills;  // the newest per source
  for (const Input& in : results) {
    const auto c = gpulab::as_layer_chain(*in.result);
    if (!c || !c->head.ok || !(c->head.median_s > 0) || !ofThisPlan(c->head)) continue;
    // A prefill is a batch of prompt tokens, not of users: it stays off the users chart.
    if (c->prefill()) prefills[in.source] = {in.result, *c};
    else bySource[in.source][c->users] = {in.result, *c};
  }
  std::vector<ChainRun> out;
  for (const auto& [src, points] : bySource) {  // -1 (measured here) sorts first
    const auto& [firstResult, first] = points.begin()->second;
    ChainRun run;
    run.source = src;
    run.precision = first.head.precision;
    run.device = gpulab::device_words(*firstResult);
    run.layers = first.layers;
    run.paramsPerLayer = first.params_per_layer;
    run.weightBytes = first.weight_bytes;
    for (const auto& [users, rc] : points) {
      const gpulab::Result& r = *rc.first;
      const double scale = double(kFullLayers) / std::max(1, rc.second.layers);
      const double step = r.stats.median_s * scale;
      run.steps.push_back({double(users), step, r.stats.min_s > 0 ? r.stats.min_s * scale : step,
                           r.stats.max_s > 0 ? r.stats.max_s * scale : step});
      if (users == 1) run.batchOneGbps = rc.second.gbps;
    }
    if (const auto p = prefills.find(src); p != prefills.end()) {
      const gpulab::LayerChainPoint& c = p->second.second;
      Prefill f;
      f.tokens = c.users;
      f.promptTokens = std::max(c.prompt_tokens, c.users);
      f.layers = c.layers;
      f.passS = p->second.first->stats.median_s * double(kFullLayers) / std::max(1, c.layers);
      f.gflops = c.gflops;
      run.prefill = f;
    }
    // The ceiling for what ran: this source's triad on the same device (the largest arrays, then the fastest).
    Stream best;
    for (const Input& in : results) {
      if (in.source != src) continue;
      const Stream s = streamOf(*in.result);
      if (!(s.bytesPerS > 0) || s.copy || s.backend != first.head.backend || s.device != first.head.device) continue;
      if (better(s, best)) best = s;
    }
    run.bandwidth = best.bytesPerS;
    out.push_back(std::move(run));
  }
  return out;
}

int measuredChainCount(const std::vector<Input>& results) {
  int n = 0;
  for (const Input& in : results) {
    const auto c = gpulab::as_layer_chain(*in.result);
    n += in.source < 0 && c && c->head.ok && c->head.median_s > 0 && ofThisPlan(c->head) && !c->prefill();
  }
  return n;
}

double batchingGain(const std::vector<ChainRun>& runs, int users) {
  for (const ChainRun& run : runs) {
    double t1 = 0, tn = 0;
    for (const auto& s : run.steps) {
      if (s.users == 1) t1 = s.median_s;
      if (s.users == users) tn = s.median_s;
    }
    if (t1 > 0 && tn > 0) return (double(users) / tn) / (1.0 / t1);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

CeilingTable ceilingTable(const std::vector<Input>& results, double datasheetBytesPerS, double whatIfBytesPerS,
                          double activeParams) {
  CeilingTable t;
  if (datasheetBytesPerS > 0) t.bandwidths.push_back({CeilingColumn::Kind::datasheet, datasheetBytesPerS, {}});
  for (const CeilingBandwidth& c : ceilingBandwidths(results))
    t.bandwidths.push_back({CeilingColumn::Kind::measured, c.bytesPerS, c});
  t.bandwidths.push_back({CeilingColumn::Kind::whatIf, whatIfBytesPerS, {}});
  // The chain's own format gets bars too, named, so its run and its ceiling are compared in one precision.
  const std::vector<ChainRun> runs = chainRuns(results);
  const ChainRun* chain = runs.empty() ? nullptr : &runs.front();
  t.formats = gpulab::models::ceiling_formats(chain ? std::string(gpulab::display_name(chain->precision)) : "",
                                              chain ? gpulab::bytes_per_element(chain->precision) : 0);
  for (const auto& f : t.formats) t.bytesPerToken.push_back(gpulab::models::decode_bytes_per_token(activeParams, f.bytes));
  for (const CeilingColumn& b : t.bandwidths) {
    std::vector<double> row;
    for (double bytes : t.bytesPerToken) row.push_back(gpulab::models::decode_ceiling_tokens_per_s(b.bytesPerS, bytes));
    t.tokensPerS.push_back(std::move(row));
  }
  return t;
}

gpulab::models::ServingStep cardServing(const gpulab::models::GpuSpec& card, double params, const std::string& moeId,
                                        double context, double users) {
  using namespace gpulab::models;
  ServingInputs in;
  if (const MoeModel* m = find_moe_preset(moeId)) {
    in.shape = m->shape;
    in.active_params = m->active_params;
    in.experts = m->experts;
    in.active_experts = m->active_experts;
  } else {
    in.shape = nearest_preset(params);
    in.shape.params = params;
  }
  in.context = context;
  in.bandwidth_bytes_s = card.bandwidth_bytes_s();
  in.peak_flops = card.fp16_tflops.value_or(0) * 1e12;
  in.card_bytes = card.memory_bytes();
  return serving_step(in, users);
}

double chainKvBytesPerUser(const gpulab::TransformerShape& shape, double bytesPerValue, double context) {
  return gpulab::models::kv_cache_bytes(shape.layers, shape.kv_heads, shape.head_dim, context, 1, bytesPerValue);
}

double chainCeilingWithCache(const gpulab::TransformerShape& shape, double weightBytes, double bytesPerValue,
                             double bandwidth, double context, double users) {
  gpulab::models::DecodeInputs in;
  in.params = weightBytes;  // bytes_per_param 1: the weights' bytes as they ran
  in.bytes_per_param = 1;
  in.bandwidth_bytes_s = bandwidth;
  in.peak_flops = 0;  // the line is the memory's ceiling alone
  in.kv_bytes_per_user = chainKvBytesPerUser(shape, bytesPerValue, context);
  return gpulab::models::decode_step(in, users).aggregate_tokens_s;
}

}  // namespace decode_page_model
