// The decode step on the GPU: every weight matrix of every layer multiplied by a batch×k activation, one after
// another, through cuBLAS (m = batch). At batch 1 each weight is read once for two FLOPs, so the step time is set by
// memory bandwidth; larger batches reuse every weight read until the tensor cores are the limit (decode page).
//
// Which activation feeds which matrix follows the CPU backend's rule (gpu/cpu/layer_chain.cpp), so both backends
// time the same chain: the most recent activation of width k (this layer's outputs, then the layer's input),
// failing that the first k columns of the most recent wider one.
//
// Weights are generated on the GPU from a hash of their index (kernels::fill_scaled), scaled by sqrt(3/k) so the
// activations keep their size through any depth. The host recomputes any weight the same way, so verify() checks
// every product of the chain at sampled columns against FP64 dot products without copying the weights back.
#include "backend_internal.hpp"
#include "gpulab/layer_chain_plan.hpp"
#include "convert.hpp"
#include "kernels/blas.hpp"
#include "kernels/kernels.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gpulab::cuda {
namespace {

constexpr std::uint32_t kWeightSalt = 0x3E1A7u, kInputSalt = 0x1A9E7u;

using Step = ChainStep;  // the shared wiring rule, gpulab/layer_chain_plan.hpp

float weight_scale(long long k) { return static_cast<float>(std::sqrt(3.0 / static_cast<double>(k))); }

class LayerChainOp final : public TimedOp {
 public:
  LayerChainOp(DeviceCtx ctx, const LayerChainSpec& spec) : m_ctx(std::move(ctx)), m_spec(spec) {
    m_steps = plan_layer_chain(spec, m_width);
    switch (spec.precision) {
      case Precision::fp16: m_format = kernels::Format::fp16; m_type = CUDA_R_16F; m_elem = 2; break;
      case Precision::bf16: m_format = kernels::Format::bf16; m_type = CUDA_R_16BF; m_elem = 2; break;
      default: m_format = kernels::Format::fp32; m_type = CUDA_R_32F; m_elem = 4; break;
    }
    m_tf32 = spec.precision == Precision::tf32;
    std::size_t weights = 0;
    for (const auto& s : m_steps) weights += static_cast<std::size_t>(s.k * s.n);
    const long long k0 = m_steps.front().k;
    double act = static_cast<double>(spec.batch) * static_cast<double>(k0);
    for (long long w : m_width) act += static_cast<double>(spec.batch) * static_cast<double>(std::max(1LL, w));
    require_fits(m_ctx, (static_cast<double>(weights) + act) * m_elem,
                 "A layer chain of " + std::to_string(spec.layers) + " layer(s) in " +
                     std::string(display_name(spec.precision)));

    m_weights = DeviceBuffer(weights * m_elem);
    m_input = DeviceBuffer(static_cast<std::size_t>(spec.batch * k0) * m_elem);
    for (long long w : m_width) m_buffers.emplace_back(static_cast<std::size_t>(spec.batch * std::max(1LL, w)) * m_elem);
    for (const auto& s : m_steps)
      kernels::fill_scaled(static_cast<char*>(m_weights.get()) + s.weight * m_elem, m_format,
                           static_cast<std::size_t>(s.k * s.n), s.weight, weight_scale(s.k), kWeightSalt, m_ctx.sms,
                           m_stream.get());
    kernels::fill_scaled(m_input.get(), m_format, static_cast<std::size_t>(spec.batch * k0), 0, 1.0f, kInputSalt,
                         m_ctx.sms, m_stream.get());
    GPULAB_CUBLAS_CHECK(cublasSetStream(m_handle.get(), m_stream.get()));
    blas::set_math_mode(m_handle.get());  // FP16/BF16 outputs: FP32 sums to the end (no 16-bit split-K)
    m_stream.synchronize();

    for (const auto& s : m_steps) {
      m_flops += 2.0 * static_cast<double>(spec.batch) * static_cast<double>(s.k) * static_cast<double>(s.n);
      m_bytes += (static_cast<double>(s.k) * s.n + static_cast<double>(spec.batch) * (s.k + s.n)) * m_elem;
    }
  }

  Check verify() override {
    use_device(m_ctx.device);
    for (auto& b : m_buffers) GPULAB_CUDA_CHECK(cudaMemsetAsync(b.get(), 0xFF, b.bytes(), m_stream.get()));
    // Step by step: after each product, read back its input and output rows (first and last of the batch) and
    // compare sampled columns with FP64 dot products of exactly those inputs and the recomputed weights. Every
    // product is judged on its own, so rounding does not pile up through the depth of the chain.
    Check total;
    total.passed = true;
    std::vector<long long> rows{0};
    if (m_spec.batch > 1) rows.push_back(m_spec.batch - 1);
    for (std::size_t si = 0; si < m_steps.size(); ++si) {
      const Step& s = m_steps[si];
      enqueue_step(s);
      m_stream.synchronize();
      for (long long r : rows) {
        const std::vector<float> in = read_row(input_ptr(s), r * s.lda, s.k);
        const std::vector<float> out = read_row(m_buffers[static_cast<std::size_t>(s.out_buffer)].get(), r * s.n, s.n);
        check_chain_row(
            total, si, r, in.data(), out.data(), s.k, s.n,
            [&](long long i, long long col) { return weight_value(s, i, col); },
            [&](double mag, double ref) { return atol(mag) + rtol() * std::fabs(ref); });
      }
    }
    // The final output must hold no poison anywhere.
    if (total.passed) {
      const Step& last = m_steps.back();
      const std::vector<float> out = read_row(m_buffers[static_cast<std::size_t>(last.out_buffer)].get(), 0,
                                              m_spec.batch * last.n);
      for (float v : out)
        if (!std::isfinite(v)) {
          total.passed = false;
          total.message = "the chain's output still holds NaN or Inf: some product did not write its cells";
          break;
        }
    }
    return total;
  }

  double run_once() override {
    use_device(m_ctx.device);
    m_ctx.flush->flush(m_stream.get());
    m_timer.start(m_stream.get());
    for (const auto& s : m_steps) enqueue_step(s);
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }

  double flops() const override { return m_flops; }
  // Every weight once per step plus the activations read and written (the CPU backend's count).
  double bytes() const override { return m_bytes; }

 private:
  const void* input_ptr(const Step& s) const {
    return s.in_buffer < 0 ? m_input.get() : m_buffers[static_cast<std::size_t>(s.in_buffer)].get();
  }

  void enqueue_step(const Step& s) {
    blas::chain_gemm(m_handle.get(), m_type, m_tf32, static_cast<int>(m_spec.batch), static_cast<int>(s.n),
                     static_cast<int>(s.k), input_ptr(s), static_cast<int>(s.lda),
                     static_cast<const char*>(m_weights.get()) + s.weight * m_elem,
                     m_buffers[static_cast<std::size_t>(s.out_buffer)].get());
  }

  // `count` elements from element `offset` of a device activation, as floats.
  std::vector<float> read_row(const void* base, long long offset, long long count) const {
    std::vector<float> out(static_cast<std::size_t>(count));
    const char* src = static_cast<const char*>(base) + static_cast<std::size_t>(offset) * m_elem;
    if (m_elem == 4) {
      download(m_stream, out.data(), src, out.size() * 4);
    } else {
      std::vector<std::uint16_t> bits(out.size());
      download(m_stream, bits.data(), src, bits.size() * 2);
      if (m_format == kernels::Format::fp16)
        convert::fp16_to_float(bits.data(), out.data(), out.size());
      else
        convert::bf16_to_float(bits.data(), out.data(), out.size());
    }
    return out;
  }

  // The weight W[i][j] of step s exactly as the GPU holds it.
  double weight_value(const Step& s, long long i, long long j) const {
    const std::size_t idx = s.weight + static_cast<std::size_t>(i * s.n + j);
    const float v = kernels::pattern_value(idx, kWeightSalt) * weight_scale(s.k);
    float r = v;
    std::uint16_t bits = 0;
    if (m_format == kernels::Format::fp16)
      convert::to_fp16(&v, &bits, &r, 1);
    else if (m_format == kernels::Format::bf16)
      convert::to_bf16(&v, &bits, &r, 1);
    return r;
  }

  // Per product: FP32 accumulation (or TF32 input rounding) scaled by Σ|a·w|, plus rounding the output.
  double atol(double magnitude) const {
    const double u = m_tf32 ? 0x1p-11 : 0x1p-22;
    return 8.0 * u * magnitude + 1e-30;
  }
  double rtol() const {
    switch (m_format) {
      case kernels::Format::fp16: return 0x1p-10;
      case kernels::Format::bf16: return 0x1p-7;
      default: return m_tf32 ? 0x1p-10 : 0x1p-21;
    }
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  LayerChainSpec m_spec;
  std::vector<Step> m_steps;
  std::vector<long long> m_width;
  kernels::Format m_format = kernels::Format::fp32;
  cudaDataType m_type = CUDA_R_32F;
  std::size_t m_elem = 4;
  bool m_tf32 = false;
  Stream m_stream;
  EventTimer m_timer;
  CublasHandle m_handle;
  DeviceBuffer m_weights, m_input;
  std::vector<DeviceBuffer> m_buffers;
  double m_flops = 0, m_bytes = 0;
};

}  // namespace

Support layer_chain_support(const DeviceCtx& ctx, const LayerChainSpec& spec) {
  const int cc = ctx.cc_major * 10 + ctx.cc_minor;
  switch (spec.precision) {
    case Precision::fp32:
    case Precision::fp16: break;
    case Precision::tf32:
    case Precision::bf16:
      if (cc < 80)
        return Support::no(std::string(display_name(spec.precision)) +
                           " tensor cores need compute capability 8.0 (Ampere) or newer");
      break;
    default:
      return Support::no("The GPU runs the layer chain in FP32, TF32, FP16 or BF16 (cuBLAS), not " +
                         std::string(display_name(spec.precision)));
  }
  if (spec.matrices.empty()) return Support::no("Layer chain: a layer needs at least one weight matrix");
  if (spec.layers < 1) return Support::no("Layer chain: at least one layer");
  if (spec.batch < 1 || spec.batch > INT_MAX) return Support::no("Layer chain: batch must be at least 1");
  for (const auto& m : spec.matrices)
    if (m.k < 1 || m.n < 1 || m.k > INT_MAX || m.n > INT_MAX)
      return Support::no("Layer chain: matrix sizes must be between 1 and 2^31");
  return Support::yes();
}

std::unique_ptr<TimedOp> make_layer_chain_op(DeviceCtx ctx, const LayerChainSpec& spec) {
  const Support s = layer_chain_support(ctx, spec);
  if (!s.ok) throw std::invalid_argument(s.reason);
  return std::make_unique<LayerChainOp>(std::move(ctx), spec);
}

}  // namespace gpulab::cuda
