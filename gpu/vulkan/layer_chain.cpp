// The decode step on a Vulkan device: every weight matrix of every layer multiplied by a batch×k activation, one
// after another. Wiring follows the plan the CPU and CUDA backends use (gpulab/layer_chain_plan.hpp), so all three
// time the same chain. Where the weights live and how each product is dispatched is chain_layout.hpp's: blocks of
// whole columns in as many buffers as the device's limits need, one or more dispatches per block; up to 8 batch
// rows through the weight-streaming shader (shaders/chain_stream.comp), more through the shared-tile GEMM (step 2,
// built to read the weights transposed).
//
// Weights are a hash of their place per product, of variance 1/k so the activations keep their size through any
// depth, made on the device by shaders/fill_weights.comp (weight_hash.hpp): a 7B chain's 6.5 G FP16 weights were
// made on one host thread and staged across the bus for every job. The host recomputes only the columns the check
// samples (gpulab::chain_check_columns), so the chain's size is bounded by the device, not by a host copy.
// verify() runs the products one by one and compares those columns of the first and last batch rows with FP64 dot
// products.
#include "backend_internal.hpp"
#include "chain_layout.hpp"
#include "heap_reading.hpp"
#include "weight_hash.hpp"

#include "gpulab/half_bits.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/layer_chain_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab::vk {
namespace {

class LayerChainOp final : public TimedOp {
 public:
  LayerChainOp(Ctx ctx, const LayerChainSpec& spec) : m_ctx(std::move(ctx)), m_spec(spec), m_stream(*m_ctx.device) {
    m_steps = plan_layer_chain(spec, m_width);
    m_fp16 = spec.precision == Precision::fp16;
    m_elem = m_fp16 ? 2 : 4;
    m_layout = plan_chain_layout(m_ctx.facts().props, m_steps, spec.batch, m_elem);
    for (double bytes : m_layout.buffer_bytes)
      m_weights.emplace_back(*m_ctx.device, static_cast<std::size_t>(bytes), Memory::device);

    m_check.resize(m_steps.size());
    {
      Program filler(*m_ctx.device, spirv(m_fp16 ? "fill_weights_fp16" : "fill_weights_fp32"), 1,
                     static_cast<std::uint32_t>(sizeof(FillPush)), static_cast<int>(count_blocks()));
      for (std::size_t si = 0; si < m_steps.size(); ++si) {
        throw_if_cancelled();
        make_weights(si, filler);
      }
    }
    const long long k0 = m_steps.front().k;
    std::vector<float> x(static_cast<std::size_t>(spec.batch * k0));
    fill_random(x.data(), x.size(), spec.seed);
    m_input = Buffer(*m_ctx.device, x.size() * m_elem, Memory::device);
    upload_values(m_input, x);
    for (long long w : m_width)
      m_buffers.emplace_back(*m_ctx.device, static_cast<std::size_t>(spec.batch * std::max(1LL, w)) * m_elem,
                             Memory::device);

    const bool stream = m_layout.shader == ShaderKind::chain_stream;
    std::size_t sets = 0;
    for (const auto& blocks : m_layout.blocks) sets += blocks.size();
    m_program = std::make_unique<Program>(
        *m_ctx.device, spirv(std::string(stream ? "chain_stream" : "chain_tiles") + (m_fp16 ? "_fp16" : "_fp32")),
        3, static_cast<std::uint32_t>(sizeof(GemmShape)), static_cast<int>(sets));
    for (std::size_t si = 0; si < m_steps.size(); ++si) {
      const ChainStep& s = m_steps[si];
      m_sets.emplace_back();
      for (const WeightBlock& b : m_layout.blocks[si])
        m_sets.back().push_back(m_program->bind({&input_of(s), &m_weights[static_cast<std::size_t>(b.buffer)],
                                                 &m_buffers[static_cast<std::size_t>(s.out_buffer)]}));
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
      throw_if_cancelled();  // a product at a time: on lavapipe one 7B layer's check takes seconds
      const ChainStep& s = m_steps[si];
      m_stream.run([&](VkCommandBuffer cb) {
        Stream::barrier(cb);
        for (const ChainDispatch& d : m_layout.dispatches)
          if (d.step == si) dispatch(cb, d);
      });
      const auto& columns = m_check[si];
      for (long long r : rows) {
        const std::vector<float> in = read_row(input_of(s), r * s.lda, s.k);
        const std::vector<float> out = read_row(m_buffers[static_cast<std::size_t>(s.out_buffer)], r * s.n, s.n);
        check_chain_row(
            total, si, r, in.data(), out.data(), s.k, s.n,
            [&](long long i, long long col) { return double(columns.at(col)[static_cast<std::size_t>(i)]); },
            [&](double mag, double) {
              // FP32 sums in both precisions; FP16 adds the output's rounding (the weights kept here are the
              // FP16-rounded values the device multiplies): 2^-10 of the sum of magnitudes covers it.
              return (m_fp16 ? 0x1p-10 : 32.0 * 0x1p-24 * static_cast<double>(s.k)) * mag + 1e-30;
            });
      }
    }
    return total;
  }

  double run_once() override {
    if (m_layout.estimated_run_seconds > kMaxRunSeconds) return run_in_pieces();
    return m_stream.run([&](VkCommandBuffer cb) {
      m_stream.time_begin(cb);
      std::size_t previous = m_layout.dispatches.empty() ? 0 : m_layout.dispatches.front().step;
      for (const ChainDispatch& d : m_layout.dispatches) {
        // Each product reads the one before; the dispatches of one product write disjoint columns and need none.
        if (d.step != previous) Stream::barrier(cb);
        previous = d.step;
        dispatch(cb, d);
      }
      m_stream.time_end(cb);
    });
  }

  // A chain longer than one submission should be: each dispatch (estimated at most kMaxDispatchSeconds) in its own
  // submission, timed on the device, the times summed; the gaps between submissions are not counted, and Cancel is
  // looked at between them.
  double run_in_pieces() {
    double total = 0;
    for (const ChainDispatch& d : m_layout.dispatches) {
      throw_if_cancelled();
      total += m_stream.run([&](VkCommandBuffer cb) {
        m_stream.time_begin(cb);  // its barrier orders this product after the one before (same queue)
        dispatch(cb, d);
        m_stream.time_end(cb);
      });
    }
    return total;
  }

  double flops() const override { return m_flops; }
  double bytes() const override { return m_bytes; }

 private:
  const Buffer& input_of(const ChainStep& s) const {
    return s.in_buffer < 0 ? m_input : m_buffers[static_cast<std::size_t>(s.in_buffer)];
  }

  void dispatch(VkCommandBuffer cb, const ChainDispatch& d) {
    const ChainStep& s = m_steps[d.step];
    const WeightBlock& b = m_layout.blocks[d.step][d.block];
    const auto u32 = [](long long v) { return static_cast<std::uint32_t>(v); };
    // The block holds columns [b.col0, b.col0 + b.cols), each column's k weights in a row (Bᵀ, row stride k); this
    // dispatch writes its columns
    // [d.col0, d.col0 + d.cols) of the product's full-width output.
    const GemmShape shape{u32(m_spec.batch), u32(d.cols), u32(s.k), u32(s.lda), u32(s.k), u32(s.n), 0,
                          u32(static_cast<long long>(b.offset) + (d.col0 - b.col0) * s.k), u32(d.col0)};
    const VkDescriptorSet set = m_sets[d.step][d.block];
    if (m_layout.shader == ShaderKind::chain_stream)
      Stream::dispatch(cb, *m_program, set, &shape, u32((d.cols + kStreamColumnsPerGroup - 1) / kStreamColumnsPerGroup));
    else
      Stream::dispatch(cb, *m_program, set, &shape, u32((d.cols + kTileSize - 1) / kTileSize),
                       u32((m_spec.batch + kTileSize - 1) / kTileSize));
  }

  struct FillPush {
    std::uint32_t count, stride, k, n, col0, first, seed, range, min_abs;
    float scale;
  };
  std::size_t count_blocks() const {
    std::size_t blocks = 0;
    for (const auto& b : m_layout.blocks) blocks += b.size();
    return blocks;
  }

  // One product's weights: made on the device block by block (one submission a product), the checked columns
  // recomputed here from the same hash.
  void make_weights(std::size_t si, Program& filler) {
    const ChainStep& s = m_steps[si];
    const WeightHash h = weight_hash_for(s.k, m_spec.seed, si);
    if (static_cast<double>(s.k) * static_cast<double>(s.n) >= 4294967296.0)
      throw std::invalid_argument("a chain product of more than 2^32 weights is not made here");
    if (m_fp16 && s.k % 2 != 0)
      throw std::invalid_argument("the FP16 chain needs an even k (its weights are written two to a word)");
    for (long long col : chain_check_columns(s.n)) {
      std::vector<float>& column = m_check[si][col];
      column.resize(static_cast<std::size_t>(s.k));
      for (long long i = 0; i < s.k; ++i)
        column[static_cast<std::size_t>(i)] = weight_value(h, static_cast<std::uint32_t>(i * s.n + col));
    }
    m_stream.run([&](VkCommandBuffer cb) {
      for (const WeightBlock& b : m_layout.blocks[si]) {
        const double count = static_cast<double>(s.k) * static_cast<double>(b.cols);
        if (b.offset + count >= 4294967296.0 || (m_fp16 && b.offset % 2 != 0))
          throw std::logic_error("a weight block the fill shader cannot address (chain_layout.cpp)");
        const auto groups = static_cast<std::uint32_t>(std::min(65535.0, std::ceil(count / 256 / (m_fp16 ? 2 : 1))));
        const FillPush push{static_cast<std::uint32_t>(count), groups * 256, static_cast<std::uint32_t>(s.k),
                            static_cast<std::uint32_t>(s.n), static_cast<std::uint32_t>(b.col0),
                            static_cast<std::uint32_t>(b.offset), h.seed, h.range, h.min_abs, h.scale};
        Stream::dispatch(cb, filler, filler.bind({&m_weights[static_cast<std::size_t>(b.buffer)]}), &push, groups);
      }
    });
  }

  // Values already rounded to the precision where they are weights; FP16 rounds here otherwise (the input), in
  // place, so the host's copy is what the device multiplies.
  void upload_values(const Buffer& dst, std::vector<float>& values, std::size_t byte_offset = 0) {
    if (!m_fp16) {
      upload(m_ctx, m_stream, dst, values.data(), values.size() * 4, byte_offset);
      return;
    }
    std::vector<std::uint16_t> bits(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      bits[i] = float_to_half_bits(values[i]);
      values[i] = half_bits_to_float(bits[i]);
    }
    upload(m_ctx, m_stream, dst, bits.data(), bits.size() * 2, byte_offset);
  }

  std::vector<float> read_row(const Buffer& b, long long first, long long count) {
    std::vector<float> out(static_cast<std::size_t>(count));
    const std::size_t offset = static_cast<std::size_t>(first) * m_elem, bytes = static_cast<std::size_t>(count) * m_elem;
    if (!m_fp16) {
      download(m_ctx, m_stream, b, out.data(), bytes, offset);
    } else {
      std::vector<std::uint16_t> bits(static_cast<std::size_t>(count));
      download(m_ctx, m_stream, b, bits.data(), bytes, offset);
      for (std::size_t i = 0; i < bits.size(); ++i) out[i] = half_bits_to_float(bits[i]);
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
  ChainLayout m_layout;
  std::vector<std::map<long long, std::vector<float>>> m_check;  // per product: checked column -> its k weights
  std::vector<Buffer> m_weights;
  Buffer m_input;
  std::vector<Buffer> m_buffers;
  std::unique_ptr<Program> m_program;
  std::vector<std::vector<VkDescriptorSet>> m_sets;  // per product, per block
  double m_flops = 0, m_bytes = 0;
};

std::string gib(double bytes) { return number_text(bytes / (1024.0 * 1024 * 1024), 3) + " GiB"; }

}  // namespace

Support layer_chain_support(const DeviceFacts& f, bool fp16_enabled, const LayerChainSpec& spec) {
  if (spec.matrices.empty() || spec.layers < 1 || spec.batch < 1) return Support::no("the chain is empty");
  if (spec.precision == Precision::fp16 && !fp16_enabled)
    return Support::no("this Vulkan device does not offer FP16 arithmetic and 16-bit storage buffers");
  if (spec.precision != Precision::fp16 && spec.precision != Precision::fp32)
    return Support::no("the Vulkan layer chain runs in FP32 or FP16");
  const std::size_t elem = spec.precision == Precision::fp16 ? 2 : 4;
  std::vector<long long> widths;
  ChainLayout layout;
  try {
    layout = plan_chain_layout(f.props, plan_layer_chain(spec, widths), spec.batch, elem);
  } catch (const std::invalid_argument& e) {
    return Support::no(e.what());
  }
  double weights = 0;
  for (double b : layout.buffer_bytes) weights += b;
  // The budget the driver gave when the device was listed (VK_EXT_memory_budget), where it gives one, of the heap
  // the weights go on (an APU's shared heap, not its small device-local carve-out).
  const HeapReading heap = heap_reading(f.props.heaps, 0, hold_heap(f.props));
  const double free = heap.from_budget ? heap.free_bytes : -1;
  if (free >= 0 && weights > free)
    return Support::no("the chain's weights (" + gib(weights) + ") are more than this Vulkan device's free memory (" +
                       gib(free) + " by its memory budget): choose fewer layers");
  for (long long w : widths)
    if (static_cast<double>(spec.batch * w * static_cast<long long>(elem)) > layout.buffer_limit_bytes)
      return Support::no("one activation of " + std::to_string(spec.batch) + " rows does not fit one buffer on "
                         "this Vulkan device: choose fewer users");
  if (layout.estimated_run_seconds > kMaxChainRunSeconds)
    return Support::no("one step of this chain (" + std::to_string(spec.layers) + " layer(s), " +
                       std::to_string(spec.batch) + " user(s)) is estimated at " +
                       number_text(layout.estimated_run_seconds, 3) + " s on " +
                       (f.is_cpu ? std::string("a CPU-type Vulkan device") : f.label()) + ", past the " +
                       number_text(kMaxChainRunSeconds, 2) + " s a step may take here: choose fewer layers or users");
  return Support::yes();
}

std::unique_ptr<TimedOp> make_layer_chain_op(Ctx ctx, const LayerChainSpec& spec) {
  const Support s = layer_chain_support(ctx.facts(), ctx.device->fp16_enabled(), spec);
  if (!s.ok) throw std::invalid_argument(s.reason);
  return std::make_unique<LayerChainOp>(std::move(ctx), spec);
}

}  // namespace gpulab::vk
