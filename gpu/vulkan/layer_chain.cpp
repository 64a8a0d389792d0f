// The decode step on a Vulkan device: every weight matrix of every layer multiplied by a batch×k activation, one
// after another, through the shared-tile GEMM shader (step 2 of the ladder: any size, strided rows). Wiring follows
// the plan the CPU and CUDA backends use (gpulab/layer_chain_plan.hpp), so all three time the same chain.
//
// Weights are random from the seed per product, scaled by sqrt(3/k) so the activations keep their size through any
// depth, generated on the host (kept there for the check) and uploaded through a staging buffer. verify() runs the
// products one by one and compares sampled columns of the first and last batch rows with FP64 dot products.
#include "backend_internal.hpp"

#include "gpulab/harness.hpp"
#include "gpulab/layer_chain_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab::vk {
namespace {

constexpr double kMaxHostWeightBytes = 1024.0 * 1024 * 1024;  // the host keeps an FP32 copy for the check

class LayerChainOp final : public TimedOp {
 public:
  LayerChainOp(Ctx ctx, const LayerChainSpec& spec) : m_ctx(std::move(ctx)), m_spec(spec), m_stream(*m_ctx.device) {
    m_steps = plan_layer_chain(spec, m_width);
    m_fp16 = spec.precision == Precision::fp16;
    m_elem = m_fp16 ? 2 : 4;
    std::size_t weights = 0;
    for (const auto& s : m_steps) weights += static_cast<std::size_t>(s.k * s.n);
    const std::string what = "a layer chain of " + std::to_string(spec.layers) + " layer(s)";
    require_buffer_fits(m_ctx.facts(), static_cast<double>(weights) * m_elem, what + "'s weights");

    m_hw.resize(weights);
    for (std::size_t si = 0; si < m_steps.size(); ++si) {
      const ChainStep& s = m_steps[si];
      float* w = m_hw.data() + s.weight;
      const std::size_t count = static_cast<std::size_t>(s.k * s.n);
      fill_random(w, count, spec.seed + 7919 * (si + 1));
      const float scale = static_cast<float>(std::sqrt(3.0 / static_cast<double>(s.k)));
      for (std::size_t i = 0; i < count; ++i) w[i] *= scale;
    }
    const long long k0 = m_steps.front().k;
    std::vector<float> x(static_cast<std::size_t>(spec.batch * k0));
    fill_random(x.data(), x.size(), spec.seed);
    m_weights = Buffer(*m_ctx.device, weights * m_elem, Memory::device);
    m_input = Buffer(*m_ctx.device, x.size() * m_elem, Memory::device);
    upload_values(m_weights, m_hw);
    upload_values(m_input, x);
    for (long long w : m_width)
      m_buffers.emplace_back(*m_ctx.device, static_cast<std::size_t>(spec.batch * std::max(1LL, w)) * m_elem,
                             Memory::device);

    m_program = std::make_unique<Program>(*m_ctx.device, spirv(std::string("gemm_02_shared_tiles") +
                                                                (m_fp16 ? "_fp16" : "_fp32")),
                                          3, static_cast<std::uint32_t>(sizeof(GemmShape)),
                                          static_cast<int>(m_steps.size()));
    for (const auto& s : m_steps) {
      m_sets.push_back(m_program->bind({&input_of(s), &m_weights, &m_buffers[static_cast<std::size_t>(s.out_buffer)]}));
      m_flops += 2.0 * static_cast<double>(spec.batch) * static_cast<double>(s.k) * static_cast<double>(s.n);
      m_bytes += (static_cast<double>(s.k) * s.n + static_cast<double>(spec.batch) * (s.k + s.n)) * m_elem;
    }
  }

  Check verify() override {
    m_stream.run([&](VkCommandBuffer cb) {
      for (const auto& b : m_buffers) poison(cb, b);
    });
    Check total;
    total.passed = true;
    std::vector<long long> rows{0};
    if (m_spec.batch > 1) rows.push_back(m_spec.batch - 1);
    for (std::size_t si = 0; si < m_steps.size(); ++si) {
      const ChainStep& s = m_steps[si];
      m_stream.run([&](VkCommandBuffer cb) {
        Stream::barrier(cb);
        dispatch(cb, si);
      });
      for (long long r : rows) {
        const std::vector<float> in = read_row(input_of(s), r * s.lda, s.k);
        const std::vector<float> out = read_row(m_buffers[static_cast<std::size_t>(s.out_buffer)], r * s.n, s.n);
        check_chain_row(
            total, si, r, in.data(), out.data(), s.k, s.n,
            [&](long long i, long long col) { return double(m_hw[s.weight + static_cast<std::size_t>(i * s.n + col)]); },
            [&](double mag, double) {
                          // FP32 sums in both precisions; FP16 adds the weights' rounding (the host keeps FP32
                          // values) and the output's: 2^-10 of the sum of magnitudes covers both.
                          return (m_fp16 ? 0x1p-10 : 32.0 * 0x1p-24 * static_cast<double>(s.k)) * mag + 1e-30;
                        });
      }
    }
    return total;
  }

  double run_once() override {
    return m_stream.run([&](VkCommandBuffer cb) {
      m_stream.time_begin(cb);
      for (std::size_t si = 0; si < m_steps.size(); ++si) {
        if (si) Stream::barrier(cb);  // each product reads the one before
        dispatch(cb, si);
      }
      m_stream.time_end(cb);
    });
  }

  double flops() const override { return m_flops; }
  double bytes() const override { return m_bytes; }

 private:
  const Buffer& input_of(const ChainStep& s) const {
    return s.in_buffer < 0 ? m_input : m_buffers[static_cast<std::size_t>(s.in_buffer)];
  }

  void dispatch(VkCommandBuffer cb, std::size_t si) {
    const ChainStep& s = m_steps[si];
    const auto m = static_cast<std::uint32_t>(m_spec.batch), n = static_cast<std::uint32_t>(s.n),
               k = static_cast<std::uint32_t>(s.k);
    const GemmShape shape{m, n, k, static_cast<std::uint32_t>(s.lda), n, n, 0, static_cast<std::uint32_t>(s.weight), 0};
    Stream::dispatch(cb, *m_program, m_sets[si], &shape, (n + 15) / 16, (m + 15) / 16);
  }

  // Rounds to FP16 in place when the chain is FP16, so the host's copy is what the device multiplies.
  void upload_values(const Buffer& dst, std::vector<float>& values) {
    if (!m_fp16) {
      upload(m_ctx, m_stream, dst, values.data(), values.size() * 4);
      return;
    }
    std::vector<_Float16> bits(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      bits[i] = static_cast<_Float16>(values[i]);
      values[i] = static_cast<float>(bits[i]);
    }
    upload(m_ctx, m_stream, dst, bits.data(), bits.size() * 2);
  }

  std::vector<float> read_row(const Buffer& b, long long first, long long count) {
    std::vector<float> out(static_cast<std::size_t>(count));
    const std::size_t offset = static_cast<std::size_t>(first) * m_elem, bytes = static_cast<std::size_t>(count) * m_elem;
    if (!m_fp16) {
      download(m_ctx, m_stream, b, out.data(), bytes, offset);
    } else {
      std::vector<_Float16> bits(static_cast<std::size_t>(count));
      download(m_ctx, m_stream, b, bits.data(), bytes, offset);
      for (std::size_t i = 0; i < bits.size(); ++i) out[i] = static_cast<float>(bits[i]);
    }
    return out;
  }

  Ctx m_ctx;
  LayerChainSpec m_spec;
  Stream m_stream;
  std::vector<ChainStep> m_steps;
  std::vector<long long> m_width;
  bool m_fp16 = false;
  std::size_t m_elem = 4;
  std::vector<float> m_hw;  // every weight, as the device holds it
  Buffer m_weights, m_input;
  std::vector<Buffer> m_buffers;
  std::unique_ptr<Program> m_program;
  std::vector<VkDescriptorSet> m_sets;
  double m_flops = 0, m_bytes = 0;
};

}  // namespace

Support layer_chain_support(const DeviceFacts& f, bool fp16_enabled, const LayerChainSpec& spec) {
  if (spec.matrices.empty() || spec.layers < 1 || spec.batch < 1) return Support::no("the chain is empty");
  if (spec.precision == Precision::fp16 && !fp16_enabled)
    return Support::no("this Vulkan device does not offer FP16 arithmetic and 16-bit storage buffers");
  if (spec.precision != Precision::fp16 && spec.precision != Precision::fp32)
    return Support::no("the Vulkan layer chain runs in FP32 or FP16");
  double weights = 0;
  for (const auto& m : spec.matrices) weights += static_cast<double>(m.k) * static_cast<double>(m.n);
  weights *= spec.layers;
  const double elem = spec.precision == Precision::fp16 ? 2 : 4;
  const double limit = std::min<double>(f.max_storage_buffer_range > 0 ? f.max_storage_buffer_range : 1e18,
                                        f.max_allocation_bytes > 0 ? f.max_allocation_bytes : 1e18);
  if (weights * elem > limit)
    return Support::no("the chain's weights (" + number_text(weights * elem / (1 << 20), 4) +
                       " MiB) do not fit one Vulkan shader buffer on this device (at most " +
                       number_text(limit / (1 << 20), 4) + " MiB): choose fewer layers");
  if (weights * 4 > kMaxHostWeightBytes)
    return Support::no("the Vulkan layer chain keeps a host copy of its weights for the check; " +
                       number_text(weights * 4 / (1 << 30), 3) + " GiB is more than the 1 GiB it allows");
  return Support::yes();
}

std::unique_ptr<TimedOp> make_layer_chain_op(Ctx ctx, const LayerChainSpec& spec) {
  const Support s = layer_chain_support(ctx.facts(), ctx.device->fp16_enabled(), spec);
  if (!s.ok) throw std::invalid_argument(s.reason);
  return std::make_unique<LayerChainOp>(std::move(ctx), spec);
}

}  // namespace gpulab::vk
