// The time of a suite's planned jobs on a catalogue card (plan_estimate.hpp): each job is priced by what its op does
// on the device (the datasheet's bandwidth, peak and PCIe link, at the shares below) and on the host (making inputs,
// reading outputs back, checking them, page-locking buffers), then by the measurement policy's sample count. The
// host-side terms follow the ops as they are now (issue 35): patterns made and checked on every core, arrays made on
// the device, references kept in pageable memory.
//
// Where the rates come from (leads, not measurements): the device shares are what a good kernel reaches (a streaming
// copy ~90 % of the datasheet bandwidth, cuBLAS 60-80 % of the dense peak, PCIe ~85 % of its per-direction figure);
// the host rates in HostModel are a 2020s server core's, set against the host times measured on this project's CI
// machine (one core: FP32 8192² inputs made in 0.28 s, the 4,100-cell FP64 check at k = 8192 in 0.93 s).
#include "gpulab/plan_estimate.hpp"

#include "gpulab/decode_experiments.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/gemm_ladder.hpp"
#include "gpulab/suite_registry.hpp"
#include "gpulab/units.hpp"
#include "plans/bandwidth.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace gpulab {
namespace {

constexpr double kGpuJobOverheadS = 0.01;     // allocations, streams, events, frees of one op
constexpr double kCudaStartS = 2.0;           // context, module load, cuBLAS and cuBLASLt handles
constexpr double kVulkanStartS = 1.5;         // instance, device, the first pipelines
constexpr double kProcessS = 0.6;             // start, the CPU backend, the summary and the CPU peak it prints
// A GPU suite's warm-up by time (kDeviceWarmupS of device work): once per suite, since a device that finished
// timed work under kDeviceStaysWarmS before is still warm (gpu/harness/measure.cpp); a job whose host-side check
// idles the device longer warms up again, inside the margin the caps keep.
constexpr double kWarmupByTimeS = 0.25;

// Terms of one estimate, kept for --jobs: "check 0.12 + 14 × 21 ms".
class Terms {
 public:
  void add(const char* what, double s) {
    if (!(s > 0)) return;
    m_total += s;
    std::ostringstream o;
    o.precision(2);
    o << what << " " << s;
    m_text += (m_text.empty() ? "" : " + ") + o.str();
  }
  double total() const { return m_total; }
  const std::string& text() const { return m_text; }

 private:
  double m_total = 0;
  std::string m_text;
};

int samples_for(double run_s, const MeasurePolicy& p) {
  const int lo = std::max(1, p.min_samples), hi = std::max(lo, p.max_samples);
  const double by_budget = run_s > 0 ? std::ceil(std::max(0.0, p.time_budget_s) / run_s) : hi;
  return static_cast<int>(std::clamp(by_budget, double(lo), double(hi)));
}

// Check run + warm-up runs + samples, the timed part of measure().
void add_timing(Terms& t, double run_s, const MeasurePolicy& p) {
  t.add("check run", run_s);
  t.add("warm-up", std::max(0, p.warmup_runs) * run_s);
  t.add("samples", samples_for(run_s, p) * run_s);
}

double param(const PlanJob& j, const char* name, double fallback = 0) {
  const auto it = j.params.find(name);
  return it == j.params.end() ? fallback : it->second;
}
double hint(const PlanJob& j, const char* name, double fallback = 0) {
  const auto it = j.estimate_hints.find(name);
  return it == j.estimate_hints.end() ? fallback : it->second;
}

bool on_gpu(const PlanJob& j) { return j.backend && j.backend->kind() != "cpu"; }

double peak_flops(const models::GpuSpec& card, Precision p) {
  if (const auto f = card.peak_flops_for(p)) return *f;
  return card.fp32_tflops.value_or(10) * 1e12;
}

// A share of the FP32 peak for gpulab's own kernels: the capped steps' (cuda/peak_model.hpp), then the faster steps
// as SGEMM_CUDA's measurements rank them.
double ladder_share(const std::string& variant) {
  switch (ladder_step_of(variant).value_or(LadderStep::cublas)) {
    case LadderStep::naive: return 0.008;
    case LadderStep::coalesced: return 0.05;
    case LadderStep::smem: return 0.075;
    case LadderStep::blocktile1d: return 0.2;
    case LadderStep::blocktile2d: return 0.4;
    case LadderStep::vectorized: return 0.5;
    case LadderStep::warptile: return 0.55;
    default: return 0.7;
  }
}

// Host nanoseconds per input element to make and round it (one core): FP32 0.28 s for 134 M on one CI core, the
// 8-bit formats' rounding and transpose about ten times that.
double host_ns_per_input(Precision p) {
  switch (p) {
    case Precision::fp32:
    case Precision::fp64: return 2;
    case Precision::int8:
    case Precision::fp8: return 20;
    default: return 6;
  }
}

void gemm_terms(Terms& t, const PlanJob& j, const models::GpuSpec& card, const MeasurePolicy& p, const HostModel& h) {
  const double m = param(j, "m"), n = param(j, "n"), k = param(j, "k");
  const double flops = 2 * m * n * k, inputs = m * k + k * n, cells = m * n;
  if (!on_gpu(j)) {
    const double threads = param(j, "threads") == 1 ? 1 : h.cores;
    const double gflops = j.variant == "naive" ? 1 : j.variant == "reordered" ? 8 : h.blas_gflops_core * threads * 0.8;
    const double run = flops / (gflops * 1e9);
    t.add("inputs", inputs * 2e-9);
    if (j.variant == "blas-direct") {
      t.add("repeats", (n <= 512 ? 30 : n <= 1024 ? 10 : 5) * run);
      return;
    }
    t.add("reference", cells <= 65536 ? 2 * cells * k / 1e9 : 4100 * k * 5e-9 / h.cores);
    add_timing(t, run, p);
    return;
  }
  const bool library = ladder_step_of(j.variant) == LadderStep::cublas;
  const double rate = library ? peak_flops(card, j.precision) * (j.precision == Precision::fp32 ||
                                                                     j.precision == Precision::fp64 ? 0.8 : 0.6)
                              : ladder_share(j.variant) * card.fp32_tflops.value_or(10) * 1e12;
  const double run = flops / rate + 10e-6;
  const double elem = bytes_per_element(j.precision);
  t.add("inputs made", inputs * host_ns_per_input(j.precision) * 1e-9 / h.cores);
  t.add("host copies", inputs * 12 / h.memcpy_bytes_s);  // generated, rounded, kept for the reference: serial
  t.add("upload", inputs * elem / (h.pageable_link_gbs * 1e9));
  // The FP64 reference of ~4,100 sampled cells, a cache miss a term, on every core; C read back and scanned.
  t.add("reference", cells <= 65536 ? 2 * cells * k / 1e9 : 4100 * k * 5e-9 / h.cores);
  t.add("read-back", cells * std::max(elem, 2.0) / (h.pageable_link_gbs * 1e9) + cells * 0.5e-9 / h.cores);
  add_timing(t, run, p);
}

void bandwidth_terms(Terms& t, const PlanJob& j, const models::GpuSpec& card, const MeasurePolicy& p,
                     const HostModel& h) {
  const double arrays = j.variant == "triad" ? 3 : 2;
  double bytes = param(j, "bytes");
  if (!on_gpu(j)) {
    const double threads = param(j, "threads") == 1 ? 1 : h.cores;
    const double bw = std::min(80e9, 12e9 * threads);  // one core ~12 GB/s; a socket's DRAM ~80 GB/s
    // cpu/bandwidth.cpp: the arrays first-touched by the run's threads; the check recomputes each double on one.
    t.add("fill", arrays * bytes / (h.memcpy_bytes_s * threads));
    t.add("check", bytes / 8 * 1e-9);
    add_timing(t, arrays * bytes / bw, p);
    return;
  }
  // The size that runs: raised to the backend's floor (4x L2 through CUDA, 256 MiB through Vulkan).
  bytes = std::max(bytes, double(device_bandwidth_floor_bytes(*j.backend)));
  const double elems = bytes / 4;
  t.add("fill (device)", (arrays - 1) * bytes / card.bandwidth_bytes_s());
  // verify(): the output read back into an uninitialised host array, then every element recomputed and compared.
  t.add("read-back", bytes / (h.pageable_link_gbs * 1e9));
  t.add("check", elems / (h.check_elems_s_core * h.cores));
  add_timing(t, arrays * bytes / (0.9 * card.bandwidth_bytes_s()) + 5e-6, p);
}

void transfer_terms(Terms& t, const PlanJob& j, const models::GpuSpec& card, const MeasurePolicy& p,
                    const HostModel& h) {
  const double bytes = param(j, "bytes");
  const bool pinned = param(j, "pinned") != 0;
  const double pattern = bytes / (h.fill_bytes_s_core * h.cores);
  const double compare = bytes / (h.memcpy_bytes_s * h.cores / 4);  // memcmp, memory-bound across the cores
  if (!on_gpu(j)) {
    t.add("pattern", 2 * pattern);
    t.add("compare", compare);
    add_timing(t, 2 * bytes / h.memcpy_bytes_s, p);
    return;
  }
  const double link = std::min(0.85 * card.host_link_gbs, pinned ? 1e9 : h.pageable_link_gbs) * 1e9;
  const double run = j.variant == "d2d" ? 2 * bytes / (0.9 * card.bandwidth_bytes_s()) : bytes / link;
  t.add("pattern", pattern);
  if (j.variant == "h2d" || j.variant == "d2h") {
    t.add(pinned ? "pin host end" : "touch host end", bytes / (pinned ? h.pin_bytes_s : h.memcpy_bytes_s));
  }
  if (j.variant != "h2d") t.add("upload source", bytes / (h.pageable_link_gbs * 1e9));
  if (j.variant != "d2h") t.add("read-back", bytes / (h.pageable_link_gbs * 1e9));
  t.add("compare", compare);
  add_timing(t, run + 10e-6, p);
}

void chain_terms(Terms& t, const PlanJob& j, const models::GpuSpec& card, const MeasurePolicy& p,
                 const HostModel& h) {
  const LayerChainSpec spec = layer_chain_for(TransformerShape{}, static_cast<int>(param(j, "layers", 1)),
                                              static_cast<long long>(param(j, "batch", 1)), j.precision);
  const double weights = layer_chain_weight_bytes(spec);
  const double flops = 2 * double(spec.batch) * layer_chain_params_per_layer(spec) * spec.layers;
  if (!on_gpu(j)) {
    t.add("weights", weights / 4 * 4e-9 / h.cores);
    add_timing(t, std::max(weights / 60e9, flops / (h.blas_gflops_core * h.cores * 1e9)), p);
    return;
  }
  // Weights made on the device by a hash (CUDA's fill_scaled, Vulkan's fill shader); the check recomputes the
  // sampled columns' weights on the host: two rows of every product, a few thousand columns of k terms each.
  t.add("weights (device)", weights / card.bandwidth_bytes_s());
  t.add("check", 7.0 * spec.layers * 2 * 64 * 11008 * 20e-9 / h.cores);
  const double run = std::max(weights / (0.8 * card.bandwidth_bytes_s()),
                              flops / (0.5 * peak_flops(card, j.precision))) + spec.layers * 7 * 5e-6;
  add_timing(t, run, p);
}

void hold_terms(Terms& t, const PlanJob& j, const models::GpuSpec& card) {
  const double steps = hint(j, "steps", 8);
  t.add("steps (alloc, write, read)", steps * 5e-3 + hint(j, "bytes") / card.bandwidth_bytes_s());
  t.add("pauses", steps * hint(j, "step_pause_s"));
  t.add("hold", hint(j, "hold_s"));
  t.add("free", 0.1);
}

}  // namespace

JobEstimate estimate_job(const PlanJob& j, const models::GpuSpec& card, const MeasurePolicy& p, const HostModel& h) {
  Terms t;
  const std::string& e = j.experiment;
  // A job the plan records as not runnable here is a note: it costs nothing.
  if (j.label.size() >= 9 && j.label.compare(j.label.size() - 9, 9, "(skipped)") == 0) {
    t.add("note", 1e-4);
  } else if (e == experiment_name::gemm) {
    gemm_terms(t, j, card, p, h);
  } else if (e == experiment_name::bandwidth) {
    bandwidth_terms(t, j, card, p, h);
  } else if (e == experiment_name::transfer) {
    transfer_terms(t, j, card, p, h);
  } else if (e == experiment_name::layer_chain) {
    chain_terms(t, j, card, p, h);
  } else if (e == experiment_name::hold_memory) {
    hold_terms(t, j, card);
  } else if (e == experiment_name::peak) {
    // Calibration, then at most 12 runs of ~20 ms within 0.4 s (roofs.cpp short_policy).
    t.add("calibrate + runs", 0.1 + std::min(0.4, 12 * 0.02) + 0.02);
  } else if (e == experiment_name::overhead) {
    const double elems = param(j, "elements");
    t.add("runs", 15 * (on_gpu(j) ? 20e-6 : 5e-6) + elems * 12 / (on_gpu(j) ? card.bandwidth_bytes_s() : 20e9) * 18);
    t.add("inputs and check", elems * 3 * 4e-9);
  } else if (e == experiment_name::launch_overhead) {
    const double run = param(j, "kernels", 1000) * 4e-6;
    add_timing(t, run, p);
  } else if (e == experiment_name::amdahl_scaling) {
    // 8 M steps of ~3 ns on each of 1, 2, 4 … threads, each count measured under the policy.
    const int most = std::max<int>(static_cast<int>(param(j, "max_threads", 1)), h.cores);
    for (int threads = 1; threads <= most; threads *= 2) add_timing(t, 8e6 * 3e-9 / threads + 50e-6, p);
  } else if (e == experiment_name::precision_error || e == experiment_name::underflow) {
    t.add("emulated", 0.25);  // 64×64 outputs of k = 4096 in software, one core
  } else {
    t.add("unpriced", 0.5);  // an experiment this model does not know: a visible half second, not zero
  }
  if (on_gpu(j) && e != experiment_name::hold_memory) t.add("op set-up", kGpuJobOverheadS);
  return {j.label, t.total(), t.text()};
}

SuiteEstimate estimate_suite(const std::string& suite, const models::GpuSpec& card, ModelDevice device,
                             const MeasurePolicy& policy, bool gpu_only, const HostModel& host) {
  const std::unique_ptr<Backend> cpu = make_model_host_backend(host);
  const std::unique_ptr<Backend> gpu = make_model_gpu_backend(card, device);
  Backends backends;
  backends.cpu = cpu.get();
  backends.gpu = gpu.get();
  Plan plan = suite_plan(suite, backends);
  if (gpu_only) std::erase_if(plan.jobs, [&](const PlanJob& j) { return j.backend != backends.gpu; });

  SuiteEstimate out;
  out.suite = suite;
  out.fixed_s = kProcessS + (device == ModelDevice::cuda ? kCudaStartS : kVulkanStartS);
  bool any_gpu = false;
  for (const PlanJob& j : plan.jobs) {
    out.jobs.push_back(estimate_job(j, card, policy, host));
    out.seconds += out.jobs.back().seconds;
    any_gpu = any_gpu || j.backend == backends.gpu;
  }
  if (any_gpu) out.fixed_s += kWarmupByTimeS;
  out.seconds += out.fixed_s;
  return out;
}

}  // namespace gpulab
