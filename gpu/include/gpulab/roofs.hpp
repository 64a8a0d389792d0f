#pragma once
// The three regimes every device has, measured (issue 27): the compute roof (experiment "peak": FMA chains held
// in registers), and the overhead floor (experiment "overhead": one launch and wait, then one elementwise op
// swept from one element to past the last-level cache, whose time is flat at the floor, then grows with bytes).
// The memory roof is the triad the bandwidth and roofline suites already measure. `gpulab bench --suite roofs`
// runs roofs_plan for the CPU and the GPU slot's device.
#include "gpulab/backend.hpp"
#include "gpulab/experiments.hpp"
#include "gpulab/plan.hpp"
#include "gpulab/result_views.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace gpulab {

namespace plan_name {
inline constexpr const char* roofs = "roofs";
}

// experiment "peak", variant "fma"; params chains, lanes, invocations, iterations, threads; gflops set.
// The check compares every chain's result with the host's closed form. Error set when the device lacks it.
Result run_peak(Backend& backend, const PeakSpec& spec, const RunContext& ctx);
// experiment "overhead", variant "empty" (elements = 0), "graph" (CUDA graph replay) or "elementwise"; params
// elements, bytes, per_op_s (the median seconds of one launch + wait).
Result run_overhead(Backend& backend, const OverheadSpec& spec, const RunContext& ctx);

// The sweep's sizes: 1 element, then x16 up to 1 Mi floats, then 8 Mi (32 MiB an array, 96 MiB for the three:
// past a 32 MiB L3 and an H200's 50 MB L2, and within lavapipe's largest binding of 128 MiB). Larger would only
// make the suite slower on a CPU-type device: the curve is already on the memory roof there.
std::vector<std::size_t> overhead_sweep_elements();

struct RoofsControls {
  bool sweep = true;  // the elementwise sweep too, not only the empty launch
  bool triad = true;  // the memory roof too (the roofline page measures its own)
};
// For the CPU and the GPU slot's device: the FMA peak in FP32 (and FP64, FP16 where the device runs them), the
// empty launch (and a CUDA graph's), the elementwise sweep, and a triad past the caches (the memory roof). Beside
// the launch + wait, the pace of launches issued back to back with no wait (experiment "launch_overhead",
// amdahl_scaling.hpp: a CUDA stream, one Vulkan command buffer of dispatches, a CPU worker's task queue; issue 36).
Plan roofs_plan(const Backends& backends, const RoofsControls& controls = {});

// Typed views (written by experiments/roofs.cpp).
struct PeakPoint {
  ResultHeader head;
  double gflops = 0;
  int chains = 0, lanes = 0, threads = 0;
  double invocations = 0, iterations = 0;
};
std::optional<PeakPoint> as_peak(const Result& r);

struct OverheadPoint {
  ResultHeader head;
  double elements = 0;  // 0: the empty launch
  bool graph = false;
  double bytes = 0;     // per op (read + written)
  double per_op_s = 0;  // median seconds of one launch + wait
};
std::optional<OverheadPoint> as_overhead(const Result& r);

// `gpulab bench --check`: a point measured above its own device's measured roof is a units or counting error, not
// a win. Each problem names the point and the roof. A GEMM is held against the FMA peak of its precision only where
// both run on the same units (the CPU's FP32 and FP64; a Vulkan device's FP32; a CUDA GPU's FP32 — its FP16, BF16,
// TF32 and FP64 GEMMs use tensor cores the SIMT FMA chains do not), by more than the noise: the larger of 10 % and
// the peak's own spread.
struct Recording;
// Whether a GEMM in `p` on a `kind` backend runs on the units the FMA chains of `p` measure, so its share of that
// FMA peak means something (the check above, and the pages' "% of measured peak").
bool gemm_on_fma_units(BackendKind kind, Precision p);
std::vector<std::string> roof_problems(const Recording& rec);
// One line per device and roof for the bench's summary: "roofs, cpu (AMD EPYC …): FP32 FMA peak 230 GFLOP/s …".
std::vector<std::string> roofs_summary(const Recording& rec);

}  // namespace gpulab
