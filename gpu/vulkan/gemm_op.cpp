// GEMM on a Vulkan device: the compute-shader ladder (shaders/gemm_0*.comp) in FP32 everywhere and in FP16 storage
// with FP32 sums where the device offers shaderFloat16 and 16-bit storage buffers.
//
// Measurement method (DESIGN.md): inputs are random from the spec's seed, rounded on the host to the precision (the
// reference multiplies the rounded values), uploaded through a staging buffer; the output is poisoned (0xFF: NaN)
// before every run, outside the timed region; verify() runs once, reads the output back and compares it with an
// FP64 reference (gpulab::check_gemm); runs are timed with timestamp queries around the dispatch alone.
#include "backend_internal.hpp"
#include "device_choices.hpp"

#include "gpulab/gemm_ladder.hpp"
#include "gpulab/half_bits.hpp"
#include "gpulab/harness.hpp"

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab::vk {
namespace {

// Vulkan's shaders for the steps of gpulab/gemm_ladder.hpp it offers (kVulkanLadder), in that order.
struct Step {
  LadderStep id;
  const char* shader;   // build name without the precision suffix
  ShaderKind kind;
  std::uint32_t tile_m, tile_n;  // outputs per workgroup
  bool needs_multiple_of_4;      // vec4 loads of A and B
};

const Step kSteps[] = {
    {LadderStep::naive, "gemm_01_naive", ShaderKind::gemm_naive, 16, 16, false},
    {LadderStep::smem, "gemm_02_shared_tiles", ShaderKind::gemm_smem, 16, 16, false},
    {LadderStep::blocktile2d, "gemm_03_register_blocking", ShaderKind::gemm_blocktile, 64, 64, false},
    {LadderStep::vectorized, "gemm_04_vectorized", ShaderKind::gemm_vectorized, 64, 64, true},
};
static_assert(std::size(kSteps) == kVulkanLadder.size(), "one shader per step of kVulkanLadder");

const Step* find_step(const std::string& variant) {
  const std::optional<LadderStep> id = ladder_step_of(variant);
  for (const auto& s : kSteps)
    if (id == s.id) return &s;
  return nullptr;
}

ShaderKind shader_kind(const Step& s) { return s.kind; }

}  // namespace

// Row bands of whole tiles, each estimated at no more than kMaxDispatchSeconds (device_choices.hpp): an integrated
// GPU may take seconds over one large GEMM, past the cancel window and a desktop driver's GPU timeout, if it is
// one dispatch.
std::vector<RowBand> gemm_row_bands(const DeviceProperties& p, const std::string& variant, long long m, long long n,
                                    long long k) {
  const Step* step = find_step(variant);
  if (!step) throw std::invalid_argument("no Vulkan GEMM variant " + variant);
  const double seconds = estimated_seconds(p, shader_kind(*step), 2.0 * m * static_cast<double>(n) * k, 0);
  const long long tile = step->tile_m;
  const long long parts = dispatch_parts(seconds, m, tile);
  const long long rows = std::max(tile, ((m + parts - 1) / parts + tile - 1) / tile * tile);
  std::vector<RowBand> bands;
  for (long long r = 0; r < m; r += rows) bands.push_back({r, std::min(rows, m - r)});
  return bands;
}

namespace {

class GemmOp final : public TimedOp {
 public:
  GemmOp(Ctx ctx, const GemmSpec& spec)
      : m_ctx(std::move(ctx)), m_spec(spec), m_step(find_step(spec.variant)), m_stream(*m_ctx.device) {
    m_fp16 = spec.precision == Precision::fp16;
    m_elem = m_fp16 ? 2 : 4;
    const std::size_t mk = static_cast<std::size_t>(spec.m * spec.k), kn = static_cast<std::size_t>(spec.k * spec.n),
                      mn = static_cast<std::size_t>(spec.m * spec.n);
    const std::string what = "GEMM " + std::to_string(spec.m) + "x" + std::to_string(spec.n) + "x" +
                             std::to_string(spec.k) + " in " + std::string(display_name(spec.precision));
    for (std::size_t count : {mk, kn, mn}) require_buffer_fits(m_ctx.facts(), static_cast<double>(count) * m_elem, what);

    // Inputs uniform in [-1, 1) from the seed (two streams for A and B), rounded to the precision on the host.
    m_ha.resize(mk);
    m_hb.resize(kn);
    fill_random(m_ha.data(), mk, spec.seed);
    fill_random(m_hb.data(), kn, spec.seed ^ 0x9E3779B97F4A7C15ull);
    m_a = Buffer(*m_ctx.device, mk * m_elem, Memory::device);
    m_b = Buffer(*m_ctx.device, kn * m_elem, Memory::device);
    m_c = Buffer(*m_ctx.device, mn * m_elem, Memory::device);
    upload_matrix(m_a, m_ha);
    upload_matrix(m_b, m_hb);

    m_program = std::make_unique<Program>(*m_ctx.device,
                                          spirv(std::string(m_step->shader) + (m_fp16 ? "_fp16" : "_fp32")), 3,
                                          static_cast<std::uint32_t>(sizeof(GemmShape)), 1);
    m_set = m_program->bind({&m_a, &m_b, &m_c});
    const auto m = static_cast<std::uint32_t>(spec.m), n = static_cast<std::uint32_t>(spec.n),
               k = static_cast<std::uint32_t>(spec.k);
    m_shape = {m, n, k, k, n, n, 0, 0, 0};
    m_bands = gemm_row_bands(m_ctx.facts().props, spec.variant, spec.m, spec.n, spec.k);
  }

  Check verify() override {
    m_stream.run([&](VkCommandBuffer cb) {
      poison(cb, m_c);
      Stream::barrier(cb);
      dispatch(cb);
    });
    const std::size_t mn = static_cast<std::size_t>(m_spec.m * m_spec.n);
    std::vector<float> c(mn);
    if (m_fp16) {
      std::vector<std::uint16_t> bits(mn);
      download(m_ctx, m_stream, m_c, bits.data(), mn * 2);
      for (std::size_t i = 0; i < mn; ++i) c[i] = half_bits_to_float(bits[i]);
    } else {
      download(m_ctx, m_stream, m_c, c.data(), mn * 4);
    }
    return check_gemm(m_ha.data(), m_hb.data(), c.data(), m_spec.m, m_spec.n, m_spec.k, atol(), rtol());
  }

  double run_once() override {
    return m_stream.run([&](VkCommandBuffer cb) {
      poison(cb, m_c);
      m_stream.time_begin(cb);  // waits for the poison: it is not timed
      dispatch(cb);
      m_stream.time_end(cb);
    });
  }

  double flops() const override { return 2.0 * m_spec.m * m_spec.n * static_cast<double>(m_spec.k); }
  double bytes() const override {
    return (static_cast<double>(m_spec.m) * m_spec.k + static_cast<double>(m_spec.k) * m_spec.n +
            static_cast<double>(m_spec.m) * m_spec.n) * m_elem;
  }

 private:
  void upload_matrix(const Buffer& dst, std::vector<float>& values) {
    if (!m_fp16) {
      upload(m_ctx, m_stream, dst, values.data(), values.size() * 4);
      return;
    }
    std::vector<std::uint16_t> bits(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      bits[i] = float_to_half_bits(values[i]);  // round to nearest even
      values[i] = half_bits_to_float(bits[i]);  // the reference multiplies what the device multiplies
    }
    upload(m_ctx, m_stream, dst, bits.data(), bits.size() * 2);
  }

  // One dispatch per row band (gemm_row_bands); the bands write disjoint rows of C and need no barrier between.
  void dispatch(VkCommandBuffer cb) {
    const auto gx = (m_shape.n + m_step->tile_n - 1) / m_step->tile_n;
    for (const RowBand& band : m_bands) {
      GemmShape shape = m_shape;
      shape.m = static_cast<std::uint32_t>(band.rows);
      shape.a_off = static_cast<std::uint32_t>(band.row0 * m_spec.k);
      shape.c_off = static_cast<std::uint32_t>(band.row0 * m_spec.n);
      const auto gy = (shape.m + m_step->tile_m - 1) / m_step->tile_m;
      Stream::dispatch(cb, *m_program, m_set, &shape, gx, gy);
    }
  }

  // |out − ref| <= atol + rtol·|ref|, ref in FP64 from the rounded inputs: sums are FP32 in both precisions, so
  // atol allows 32× the expected FP32 accumulation error of a length-k dot product of values in [-1, 1); rtol is the
  // output's rounding (FP32, or 2 units of FP16).
  double atol() const { return 32.0 * 0x1p-24 * static_cast<double>(m_spec.k) / 3.0 + 1e-30; }
  double rtol() const { return m_fp16 ? 0x1p-10 : 0x1p-22; }

  Ctx m_ctx;
  GemmSpec m_spec;
  const Step* m_step;
  Stream m_stream;
  bool m_fp16 = false;
  std::size_t m_elem = 4;
  std::vector<float> m_ha, m_hb;  // what the device multiplies (rounded), row-major
  Buffer m_a, m_b, m_c;
  std::unique_ptr<Program> m_program;
  VkDescriptorSet m_set = VK_NULL_HANDLE;
  GemmShape m_shape{};
  std::vector<RowBand> m_bands;
};

}  // namespace

const std::vector<std::string>& ladder_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (LadderStep s : kVulkanLadder) out.emplace_back(ladder_variant(s));
    return out;
  }();
  return names;
}

Support gemm_support(const DeviceFacts& f, bool fp16_enabled, const GemmSpec& spec) {
  if (spec.m < 1 || spec.n < 1 || spec.k < 1) return Support::no("matrix sizes must be at least 1");
  constexpr long long kMaxDim = 1 << 16;
  if (spec.m > kMaxDim || spec.n > kMaxDim || spec.k > kMaxDim)
    return Support::no("each matrix dimension is limited to " + std::to_string(kMaxDim) + " on the Vulkan backend");
  const Step* step = find_step(spec.variant);
  if (!step) {
    std::string all;
    for (const auto& v : ladder_names()) all += (all.empty() ? "" : ", ") + v;
    return Support::no("the Vulkan backend has no GEMM variant '" + spec.variant + "' (it has " + all + ")");
  }
  if (spec.precision == Precision::fp16) {
    if (!fp16_enabled)
      return Support::no("this Vulkan device does not offer FP16 arithmetic and 16-bit storage buffers "
                         "(shaderFloat16, storageBuffer16BitAccess), so its GEMM runs in FP32 only");
  } else if (spec.precision != Precision::fp32) {
    return Support::no(std::string("the Vulkan shaders compute in FP32 (and FP16 where offered), not ") +
                       std::string(display_name(spec.precision)) +
                       "; cooperative-matrix (tensor-core) GEMM is not built: the Vulkan 1.3.239 headers this was "
                       "built with have no VK_KHR_cooperative_matrix");
  }
  if (step->needs_multiple_of_4 && (spec.n % 4 || spec.k % 4))
    return Support::no("the vectorised step loads 4 values at once, so n and k must be multiples of 4");
  if (f.max_invocations < 256 || f.max_shared_bytes < 8192)
    return Support::no("this Vulkan device allows fewer than 256 invocations or 8 KiB of shared memory per workgroup");
  const double flops = 2.0 * static_cast<double>(spec.m) * static_cast<double>(spec.n) * static_cast<double>(spec.k);
  const double seconds = estimated_seconds(f.props, shader_kind(*step), flops, 0);
  if (seconds > kMaxRunSeconds)
    return Support::no("the " + spec.variant + " shader is limited to " +
                       number_text(kMaxRunSeconds * assumed_rate(f.props, shader_kind(*step)).flops_per_s / 1e9, 3) +
                       " GFLOP per run on " + (f.is_cpu ? std::string("a CPU-type Vulkan device") : f.label()) +
                       ", so one run ends within Cancel's window: choose a smaller size or a faster step");
  return Support::yes();
}

std::unique_ptr<TimedOp> make_gemm_op(Ctx ctx, const GemmSpec& spec) {
  const Support s = gemm_support(ctx.facts(), ctx.device->fp16_enabled(), spec);
  if (!s.ok) throw std::invalid_argument(s.reason);
  return std::make_unique<GemmOp>(std::move(ctx), spec);
}

}  // namespace gpulab::vk
