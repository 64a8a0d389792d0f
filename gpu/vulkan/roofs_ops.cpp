// The roofs on a Vulkan device (experiments "peak" and "overhead", gpulab/roofs.hpp):
//  - FMA peak: shaders/fma_peak.comp, eight vec4 FMA chains per invocation in registers, FP32 (FP16 where
//    shaderFloat16 is on). Timed with the device's timestamps; the iterations are calibrated once, on a warm device,
//    so a run lasts about spec.target_s (never over 0.1 s: the cancel window). Every invocation's sum is checked against the
//    closed form of its chains' recurrence.
//  - Overhead: an empty dispatch (shaders/empty.comp), or the triad over `elements` floats, recorded, submitted and
//    waited for on a fence, timed on the host clock: what a framework pays per op. A batch of them per timed run,
//    so a few-microsecond submit is not lost in the clock's resolution.
#include "backend_internal.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/units.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gpulab::vk {
namespace {

// Recurrence constants: far enough from 1 that rounding parks a chain near its limit (FP32: within ~1e-4 of
// 10; FP16: within ~0.5 % of 1), so the host's closed form holds after any number of iterations.
struct Recurrence {
  float m, a;
  double tolerance;  // relative, on one invocation's sum of 32 lanes
};
Recurrence recurrence(bool fp16) { return fp16 ? Recurrence{0.9f, 0.1f, 0.02} : Recurrence{0.9999f, 1e-3f, 2e-3}; }

// The value the shader's constants take at the shader's precision.
double as_stored(float v, bool fp16) {
  if (!fp16) return static_cast<double>(v);
  // Round to the nearest FP16 (11 significant bits): enough for the two constants used here.
  int e = 0;
  const double f = std::frexp(static_cast<double>(v), &e);
  return std::ldexp(std::nearbyint(f * 2048.0) / 2048.0, e);
}

class FmaPeakOp final : public TimedOp {
 public:
  FmaPeakOp(Ctx ctx, const PeakSpec& spec)
      : m_ctx(std::move(ctx)), m_fp16(spec.precision == Precision::fp16), m_stream(*m_ctx.device) {
    // A CPU-type device (lavapipe) runs a workgroup per core at a time: a few groups per core keep it busy with
    // many iterations each. A GPU needs hundreds of thousands of invocations in flight.
    m_groups = m_ctx.facts().is_cpu ? 64 : 4096;
    m_count = static_cast<std::size_t>(m_groups) * 256;
    m_out = Buffer(*m_ctx.device, m_count * sizeof(float), Memory::device);
    m_program = std::make_unique<Program>(*m_ctx.device, spirv(m_fp16 ? "fma_peak_fp16" : "fma_peak_fp32"), 1, 12, 1);
    m_set = m_program->bind({&m_out});
    const Recurrence r = recurrence(m_fp16);
    m_push = {64, r.m, r.a};
    // Calibrate on the device the samples will meet: an untimed first run (pipeline creation, the driver's shader
    // compile), the loop grown until a run is well above the timer's noise, then a GPU warms up by time so its clock
    // has left idle (calibrated cold, the loop would be several times too short and the roof read low). A CPU-type
    // device (lavapipe) has no GPU clock to ramp.
    (void)run_once();
    double t = run_once();
    while (t < 2e-3 && m_push.iterations < (1u << 24)) {
      m_push.iterations *= 4;
      t = run_once();
    }
    if (!m_ctx.facts().is_cpu) warm_up_for(kDeviceWarmupS, [this] { return run_once(); });
    t = std::min(run_once(), run_once());  // the faster of two: a slow moment must not shorten the loop
    const double target = std::min(spec.target_s, 0.08);
    m_push.iterations = static_cast<std::uint32_t>(
        std::clamp(static_cast<double>(m_push.iterations) * target / std::max(t, 1e-9), 64.0, 4.0e9));
  }

  Check verify() override {
    m_stream.run([&](VkCommandBuffer cb) {
      poison(cb, m_out);
      Stream::barrier(cb);
      dispatch(cb);
    });
    std::vector<float> host(m_count);
    download(m_ctx, m_stream, m_out, host.data(), m_count * sizeof(float));
    const Recurrence r = recurrence(m_fp16);
    const double m = as_stored(r.m, m_fp16), a = as_stored(r.a, m_fp16);
    const double limit = a / (1 - m), decay = std::pow(m, static_cast<double>(m_push.iterations));
    Check c;
    c.checked = static_cast<long long>(m_count);
    long long bad = 0;
    for (std::size_t i = 0; i < m_count; ++i) {
      const double seed = static_cast<double>(i & 7u) * 0.25;
      double want = 0;
      for (int chain = 0; chain < 8; ++chain) want += 4 * (limit + decay * (as_stored(static_cast<float>(seed + chain), m_fp16) - limit));
      const double err = std::fabs(host[i] - want), rel = err / std::max(std::fabs(want), 1e-30);
      if (!(rel <= r.tolerance)) {
        if (c.first_bad_index < 0) {
          c.first_bad_index = static_cast<long long>(i);
          c.message = "invocation " + std::to_string(i) + " summed to " + format_fixed(host[i], 5) +
                      ", the closed form says " + format_fixed(want, 5);
        }
        ++bad;
      }
      if (std::isfinite(err)) {
        c.max_abs_err = std::max(c.max_abs_err, err);
        c.max_rel_err = std::max(c.max_rel_err, rel);
      }
    }
    c.passed = bad == 0;
    if (bad > 0) c.message = format_count(bad) + " invocations wrong; first: " + c.message;
    return c;
  }

  double run_once() override {
    return m_stream.run([&](VkCommandBuffer cb) {
      m_stream.time_begin(cb);
      dispatch(cb);
      m_stream.time_end(cb);
    });
  }
  double flops() const override { return static_cast<double>(m_count) * 8 * 4 * 2 * m_push.iterations; }
  double bytes() const override { return static_cast<double>(m_count) * sizeof(float); }
  void describe(Params& params, Provenance& prov) const override {
    params["chains"] = 8;
    params["lanes"] = 4;
    params["invocations"] = static_cast<double>(m_count);
    params["iterations"] = m_push.iterations;
    prov["kernel"] = std::string("shaders/fma_peak.comp: 8 independent ") + (m_fp16 ? "f16vec4" : "vec4") +
                     " FMA chains per invocation in registers, " + std::to_string(m_groups) + " workgroups of 256";
    prov["timer"] = "the device's timestamps around the dispatch";
  }

 private:
  struct Push {
    std::uint32_t iterations;
    float m, a;
  };
  void dispatch(VkCommandBuffer cb) { Stream::dispatch(cb, *m_program, m_set, &m_push, m_groups); }

  Ctx m_ctx;
  bool m_fp16;
  Stream m_stream;
  std::uint32_t m_groups = 1;
  std::size_t m_count = 0;
  Buffer m_out;
  std::unique_ptr<Program> m_program;
  VkDescriptorSet m_set = VK_NULL_HANDLE;
  Push m_push{};
};

// Small integers over 8: exact in FP32 through an FMA, so the triad's output is checked for equality.
float pattern(std::size_t i, std::uint32_t salt) {
  return static_cast<float>(static_cast<int>((static_cast<std::uint32_t>(i) * 2654435761u ^ salt) % 2001u) - 1000) / 8.0f;
}

class OverheadOp final : public TimedOp {
 public:
  static constexpr float kScalar = 3.0f;
  OverheadOp(Ctx ctx, const OverheadSpec& spec)
      : m_ctx(std::move(ctx)), m_requested(spec.elements), m_stream(*m_ctx.device) {
    m_count = (spec.elements + 3) / 4 * 4;  // the triad works on whole vec4s
    const std::size_t bytes = std::max<std::size_t>(16, m_count * sizeof(float));
    require_buffer_fits(m_ctx.facts(), static_cast<double>(bytes), "the elementwise op's arrays");
    m_x = Buffer(*m_ctx.device, bytes, Memory::device);
    if (m_count == 0) {
      m_program = std::make_unique<Program>(*m_ctx.device, spirv("empty"), 1, 0, 1);
      m_set = m_program->bind({&m_x});
    } else {
      m_y = Buffer(*m_ctx.device, bytes, Memory::device);
      m_z = Buffer(*m_ctx.device, bytes, Memory::device);
      std::vector<float> host(m_count);
      for (std::size_t i = 0; i < m_count; ++i) host[i] = pattern(i, 0xB0Bu);
      upload(m_ctx, m_stream, m_y, host.data(), bytes);
      for (std::size_t i = 0; i < m_count; ++i) host[i] = pattern(i, 0xC0FFEEu);
      upload(m_ctx, m_stream, m_z, host.data(), bytes);
      m_program = std::make_unique<Program>(*m_ctx.device, spirv("triad"), 3, 12, 1);
      m_set = m_program->bind({&m_x, &m_y, &m_z});
      const auto count4 = static_cast<std::uint32_t>(m_count / 4);
      m_groups = std::min<std::uint32_t>((count4 + 255) / 256, 65535);
      m_push = {count4, m_groups * 256, kScalar};
    }
    // About 2 ms of submits per timed run.
    const auto t0 = std::chrono::steady_clock::now();
    submit_one();
    submit_one();
    const double one = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 2;
    m_batch = static_cast<int>(std::clamp(2e-3 / std::max(one, 1e-9), 1.0, 2000.0));
  }

  Check verify() override {
    Check c;
    if (m_count == 0) {  // nothing to compute: the check is that the submission completed
      submit_one();
      c.passed = true;
      c.message = "empty dispatch: nothing to compare; the fence signalled";
      return c;
    }
    m_stream.run([&](VkCommandBuffer cb) {
      poison(cb, m_x);
      Stream::barrier(cb);
      record(cb);
    });
    std::vector<float> host(m_count);
    download(m_ctx, m_stream, m_x, host.data(), m_count * sizeof(float));
    return check_stream_output(host.data(), m_count, [](std::size_t i) {
      return std::fmaf(kScalar, pattern(i, 0xC0FFEEu), pattern(i, 0xB0Bu));
    }, "elementwise triad");
  }

  double run_once() override {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < m_batch; ++i) submit_one();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / m_batch;
  }
  double flops() const override { return 2.0 * static_cast<double>(m_count); }
  double bytes() const override { return 12.0 * static_cast<double>(m_count); }
  void describe(Params& params, Provenance& prov) const override {
    params["batch"] = m_batch;
    params["elements_run"] = static_cast<double>(m_count);
    prov["kernel"] = m_count == 0 ? "shaders/empty.comp, one workgroup of one invocation"
                                  : "shaders/triad.comp over " + std::to_string(m_count) + " floats (the request rounded up to whole vec4s)";
    prov["timer"] = "steady_clock around record + vkQueueSubmit + vkWaitForFences, " + std::to_string(m_batch) +
                    " back to back, divided by " + std::to_string(m_batch);
  }

 private:
  struct Push {
    std::uint32_t count4, stride;
    float s;
  };
  void record(VkCommandBuffer cb) { Stream::dispatch(cb, *m_program, m_set, m_count ? &m_push : nullptr, m_groups); }
  void submit_one() { m_stream.run([&](VkCommandBuffer cb) { record(cb); }); }

  Ctx m_ctx;
  std::size_t m_requested, m_count = 0;
  Stream m_stream;
  Buffer m_x, m_y, m_z;
  std::unique_ptr<Program> m_program;
  VkDescriptorSet m_set = VK_NULL_HANDLE;
  std::uint32_t m_groups = 1;
  Push m_push{};
  int m_batch = 1;
};

}  // namespace

Support fma_peak_support(bool fp16_enabled, const PeakSpec& spec) {
  if (spec.precision == Precision::fp32) return Support::yes();
  if (spec.precision == Precision::fp16)
    return fp16_enabled ? Support::yes() : Support::no("this Vulkan device offers no shaderFloat16");
  return Support::no("the Vulkan FMA peak is measured in FP32 and FP16 (shaderFloat64 is not used here)");
}

std::unique_ptr<TimedOp> make_fma_peak_op(Ctx ctx, const PeakSpec& spec) {
  const Support s = fma_peak_support(ctx.device->fp16_enabled(), spec);
  if (!s.ok) throw std::invalid_argument(s.reason);
  return std::make_unique<FmaPeakOp>(std::move(ctx), spec);
}

std::unique_ptr<TimedOp> make_overhead_op(Ctx ctx, const OverheadSpec& spec) {
  if (spec.graph) throw std::invalid_argument("CUDA graphs exist only on a CUDA GPU");
  return std::make_unique<OverheadOp>(std::move(ctx), spec);
}

}  // namespace gpulab::vk
