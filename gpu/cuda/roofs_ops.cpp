// The roofs on a CUDA GPU (experiments "peak" and "overhead", gpulab/roofs.hpp; kernels in kernels/roofs.cu):
//  - FMA peak: eight FMA chains per thread in registers, FP32, FP64 and FP16 (half2 pairs, kernels/roofs_fp16.cu)
//    on the SMs (tensor-core roofs stay the best cuBLAS result, labelled so on the pages). Timed with CUDA events;
//    iterations calibrated once, after an untimed first launch and a warm-up by time, so a run lasts about
//    spec.target_s on the warm device (under 0.1 s: the cancel window). Every thread's sum is checked against the
//    closed form.
//  - Overhead: an empty kernel launched and synchronised, or the triad over `elements` floats; timed on the host
//    clock around launch + cudaStreamSynchronize (what a framework's eager op pays), a batch per timed run. The
//    same empty launch through a CUDA graph is graph_overhead_op.cpp.
// The CPU emulator's module compiles this file too (GPULAB_CUDA_EMULATED_MODULE): its half type is storage only,
// so there the FP16 peak is refused with that reason.
#include "backend_internal.hpp"
#include "gpulab/harness.hpp"

#include "kernels/kernels.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace gpulab::cuda {
namespace {

// The chains' recurrence x -> m·x + a per format. FP16: 0.9999 would round to 1 in half (spacing 2^-11 below 1),
// so m = 0.875 and a = 0.375 (both exact), whose fixed point 3 is exact too; a half chain may still settle up to
// 4 ulps (0.26 %) from it, where rounding holds it, hence FP16's wider tolerance.
struct ChainForm {
  double m, a, tolerance;
  int lanes;  // values per chain register: 2 for half2
};
ChainForm chain_form(Precision p) {
  switch (p) {
    case Precision::fp64: return {0.9999, 1e-3, 2e-3, 1};
    case Precision::fp16: return {0.875, 0.375, 1e-2, 2};
    default:  // the float constants the kernel receives, widened: the closed form uses what the chains used
      return {static_cast<double>(static_cast<float>(0.9999)), static_cast<double>(static_cast<float>(1e-3)), 2e-3, 1};
  }
}

class FmaPeakOp final : public TimedOp {
 public:
  FmaPeakOp(DeviceCtx ctx, const PeakSpec& spec)
      : m_ctx(std::move(ctx)), m_precision(spec.precision), m_form(chain_form(spec.precision)) {
    // Several blocks per SM so every scheduler has warps to switch between while an FMA's result is pending.
    m_blocks = static_cast<unsigned>(std::max(1, m_ctx.sms) * 8);
    m_count = static_cast<std::size_t>(m_blocks) * kernels::fma_threads_per_block();
    m_out = DeviceBuffer(m_count * sizeof(float));
    m_iterations = 64;
    // Calibrated on the device the samples will meet, not a cold one. The first launch is untimed: it pays the
    // module's load and the kernel's lazy loading or JIT, which its events would span. Then the loop grows until a
    // run is well above the timer's noise, and the device warms up by time: at the idle clock (345 of 1980 MHz on
    // an H200) every run is ~6x slower, the scaled loop would be ~6x too short, and in a run that short the launch
    // and the grid's tail weigh more, so the roof would read low, below cuBLAS SGEMM.
    (void)run_once();
    double t = run_once();
    while (t < 2e-3 && m_iterations < (1u << 24)) {
      m_iterations *= 4;
      t = run_once();
    }
    warm_up_for(kDeviceWarmupS, [this] { return run_once(); });
    t = std::min(run_once(), run_once());  // the faster of two: a slow moment must not shorten the loop
    const double target = std::min(spec.target_s, 0.08);
    m_iterations = static_cast<unsigned>(std::clamp(m_iterations * target / std::max(t, 1e-9), 64.0, 2.0e9));
  }

  Check verify() override {
    use_device(m_ctx.device);
    GPULAB_CUDA_CHECK(cudaMemsetAsync(m_out.get(), 0xFF, m_out.bytes(), m_stream.get()));  // NaN until written
    launch();
    m_stream.synchronize();
    std::vector<float> host(m_count);
    download(m_stream, host.data(), m_out.get(), m_out.bytes());
    const double m = m_form.m, a = m_form.a;
    const double limit = a / (1 - m), decay = std::pow(m, static_cast<double>(m_iterations));
    const int chains = kernels::fma_chains_per_thread();
    Check c;
    c.checked = static_cast<long long>(m_count);
    for (std::size_t i = 0; i < m_count; ++i) {
      const double seed = static_cast<double>(i & 7u) * 0.25;
      double want = 0;
      for (int k = 0; k < chains; ++k) want += m_form.lanes * (limit + decay * (seed + k - limit));
      const double err = std::fabs(host[i] - want), rel = err / std::max(std::fabs(want), 1e-30);
      if (!(rel <= m_form.tolerance)) {
        if (c.first_bad_index < 0) {
          c.first_bad_index = static_cast<long long>(i);
          c.message = "thread " + std::to_string(i) + " summed to " + number_text(host[i]) + ", the closed form says " +
                      number_text(want);
        }
      }
      if (std::isfinite(err)) {
        c.max_abs_err = std::max(c.max_abs_err, err);
        c.max_rel_err = std::max(c.max_rel_err, rel);
      }
    }
    c.passed = c.first_bad_index < 0;
    return c;
  }

  double run_once() override {
    use_device(m_ctx.device);
    m_timer.start(m_stream.get());
    launch();
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }
  double flops() const override {
    return static_cast<double>(m_count) * kernels::fma_chains_per_thread() * m_form.lanes * 2.0 * m_iterations;
  }
  double bytes() const override { return static_cast<double>(m_count) * sizeof(float); }
  void describe(Params& params, Provenance& prov) const override {
    params["chains"] = kernels::fma_chains_per_thread();
    params["lanes"] = m_form.lanes;  // per thread (half2: 2); a warp's 32 threads are the SIMD lanes
    params["invocations"] = static_cast<double>(m_count);
    params["iterations"] = m_iterations;
    const bool half = m_precision == Precision::fp16;
    prov["kernel"] = std::string(half ? "kernels/roofs_fp16.cu: 8 independent half2 (__hfma2)"
                                      : m_precision == Precision::fp64 ? "kernels/roofs.cu: 8 independent FP64"
                                                                       : "kernels/roofs.cu: 8 independent FP32") +
                     " FMA chains per thread in registers, " + std::to_string(m_blocks) + " blocks of " +
                     std::to_string(kernels::fma_threads_per_block()) + " (8 per SM); SIMT units, not tensor cores";
    prov["timer"] = "CUDA events around the launch";
  }

 private:
  void launch() {
    const float m = static_cast<float>(m_form.m), a = static_cast<float>(m_form.a);
    switch (m_precision) {
      case Precision::fp64:
        kernels::fma_chains_fp64(m_out.as<float>(), m_blocks, m_iterations, m_form.m, m_form.a, m_stream.get());
        break;
#if !defined(GPULAB_CUDA_EMULATED_MODULE)
      case Precision::fp16:
        kernels::fma_chains_fp16x2(m_out.as<float>(), m_blocks, m_iterations, m, a, m_stream.get());
        break;
#endif
      default: kernels::fma_chains_fp32(m_out.as<float>(), m_blocks, m_iterations, m, a, m_stream.get());
    }
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  Precision m_precision;
  ChainForm m_form;
  unsigned m_blocks = 1, m_iterations = 64;
  std::size_t m_count = 0;
  Stream m_stream;
  EventTimer m_timer;
  DeviceBuffer m_out;
};

class OverheadOp final : public TimedOp {
 public:
  static constexpr float kScalar = 3.0f;
  OverheadOp(DeviceCtx ctx, const OverheadSpec& spec) : m_ctx(std::move(ctx)), m_count(spec.elements) {
    if (m_count > 0) {
      require_fits(m_ctx, 12.0 * static_cast<double>(m_count), "The elementwise op");
      m_x = DeviceBuffer(m_count * sizeof(float));
      m_y = DeviceBuffer(m_count * sizeof(float));
      m_z = DeviceBuffer(m_count * sizeof(float));
      kernels::fill_pattern(m_y.as<float>(), m_count, 0xB0Bu, m_ctx.sms, m_stream.get());
      kernels::fill_pattern(m_z.as<float>(), m_count, 0xC0FFEEu, m_ctx.sms, m_stream.get());
      m_stream.synchronize();
    }
    one();  // untimed: a first launch pays the module's load and the kernel's lazy loading, ~30 ms, not an op's cost
    const auto t0 = std::chrono::steady_clock::now();
    one();
    one();
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 2;
    m_batch = static_cast<int>(std::clamp(2e-3 / std::max(t, 1e-9), 1.0, 5000.0));
  }

  Check verify() override {
    use_device(m_ctx.device);
    Check c;
    if (m_count == 0) {
      one();
      c.passed = true;
      c.message = "empty kernel: nothing to compare; the stream synchronised";
      return c;
    }
    GPULAB_CUDA_CHECK(cudaMemsetAsync(m_x.get(), 0xFF, m_x.bytes(), m_stream.get()));
    one();
    std::vector<float> host(m_count);
    download(m_stream, host.data(), m_x.get(), m_x.bytes());
    return check_stream_output(host.data(), m_count, [](std::size_t i) {
      return std::fmaf(kScalar, kernels::pattern_value(i, 0xC0FFEEu), kernels::pattern_value(i, 0xB0Bu));
    }, "elementwise triad");
  }

  double run_once() override {
    use_device(m_ctx.device);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < m_batch; ++i) one();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / m_batch;
  }
  double flops() const override { return 2.0 * static_cast<double>(m_count); }
  double bytes() const override { return 12.0 * static_cast<double>(m_count); }
  void describe(Params& params, Provenance& prov) const override {
    params["batch"] = m_batch;
    prov["kernel"] = m_count == 0 ? "kernels/roofs.cu empty_kernel, one thread"
                                  : "kernels/streams.cu triad over " + std::to_string(m_count) + " floats";
    prov["timer"] = "steady_clock around launch + cudaStreamSynchronize, " + std::to_string(m_batch) +
                    " back to back, divided by " + std::to_string(m_batch);
  }

 private:
  void one() {
    if (m_count == 0) kernels::empty_launch(m_stream.get());
    else
      kernels::stream_triad(m_x.as<float>(), m_y.as<const float>(), m_z.as<const float>(), kScalar, m_count, m_ctx.sms,
                            m_stream.get());
    m_stream.synchronize();
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  std::size_t m_count;
  Stream m_stream;
  DeviceBuffer m_x, m_y, m_z;
  int m_batch = 1;
};

}  // namespace

Support fma_peak_support(const PeakSpec& spec) {
  if (spec.precision == Precision::fp32 || spec.precision == Precision::fp64) return Support::yes();
#if defined(GPULAB_CUDA_EMULATED_MODULE)
  if (spec.precision == Precision::fp16)
    return Support::no("not available on the CPU emulator: its half type is storage only (no half2 arithmetic)");
#else
  if (spec.precision == Precision::fp16) return Support::yes();  // half2 FMA from compute capability 5.3; built for 7.5+
#endif
  return Support::no("the CUDA FMA peak is measured in FP32, FP64 and FP16 on the SMs; the tensor-core formats' "
                     "roofs are the best cuBLAS GEMM");
}

std::unique_ptr<TimedOp> make_fma_peak_op(DeviceCtx ctx, const PeakSpec& spec) {
  const Support s = fma_peak_support(spec);
  if (!s.ok) throw std::invalid_argument(s.reason);
  return std::make_unique<FmaPeakOp>(std::move(ctx), spec);
}

std::unique_ptr<TimedOp> make_overhead_op(DeviceCtx ctx, const OverheadSpec& spec) {
  if (spec.graph) return make_graph_overhead_op(std::move(ctx), spec);
  return std::make_unique<OverheadOp>(std::move(ctx), spec);
}

}  // namespace gpulab::cuda
