// A decode step on the CPU: every weight matrix of every layer multiplied by a batch×k activation, one after
// another, with OpenBLAS sgemm (m = batch). At batch 1 each weight is read once for two FLOPs, so the step time
// is the memory system's; larger batches reuse each weight read until the cores, not the memory, are the limit.
#include "layer_chain.hpp"

#include "cpu_internal.hpp"
#include "host_array.hpp"
#include "gpulab/layer_chain_plan.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/memory_hold.hpp"
#include "gpulab/units.hpp"

#include "vector_clones.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace gpulab::cpu {
namespace {

// Small batches: OpenBLAS 0.3.21's sgemm packs the weight panel for every call, and with m = 1…8 rows that
// packing, not the memory, sets the pace (measured on the dev machines: ~1.5 GB/s at m = 1 against ~7 GB/s for
// sgemv on the same matrix; newer OpenBLAS forwards such calls to GEMV for this reason). So up to
// k_stream_max_batch rows the chain uses this weight-streaming kernel instead: each weight row is read once and
// multiplied into every batch row's accumulators, which stay in L1/L2 — exactly the "read once, share it
// between users" of the lesson. Larger batches go to sgemm, which is then compute-efficient.
constexpr long long k_stream_max_batch = cpu_chain_stream_max_batch;  // the stack page reads the same limit
// Columns per tile: long contiguous runs of each weight row (what the hardware prefetcher streams well), while
// 8 batch rows × 4096 floats = 128 KiB of accumulators still sit in L2.
constexpr long long k_stream_cols = 4096;

#if GPULAB_USE_TARGET_CLONES  // vector_clones.hpp: x86-64-v3 with gcc 12, fma with gcc 11
#define GPULAB_CHAIN_KERNEL __attribute__((target_clones(GPULAB_VECTOR_CLONE, "default"), optimize("O3")))
#else
#define GPULAB_CHAIN_KERNEL
#endif

GPULAB_CHAIN_KERNEL
void stream_tile(const float* __restrict A, long long lda, const float* __restrict W, float* __restrict C,
                 float* __restrict acc, long long m, long long n, long long k, long long j0, long long j1) {
  const long long w = j1 - j0;
  for (long long x = 0; x < m * w; ++x) acc[x] = 0.0f;
  for (long long i = 0; i < k; ++i) {
    const float* __restrict wrow = W + i * n + j0;
    for (long long r = 0; r < m; ++r) {
      const float a = A[r * lda + i];
      float* __restrict out = acc + r * w;
      for (long long j = 0; j < w; ++j) out[j] += a * wrow[j];
    }
  }
  for (long long r = 0; r < m; ++r)
    for (long long j = 0; j < w; ++j) C[r * n + j0 + j] = acc[r * w + j];
}

// C (m×n) = A (m×k, rows lda apart) · W (k×n): each thread takes a contiguous range of columns.
void stream_gemm(const float* A, long long lda, const float* W, float* C, long long m, long long n, long long k,
                 int threads) {
  auto work = [&](int t) {
    thread_local std::vector<float> acc;
    acc.resize(static_cast<std::size_t>(k_stream_max_batch * k_stream_cols));
    const long long c0 = n * t / threads, c1 = n * (t + 1) / threads;
    for (long long j0 = c0; j0 < c1; j0 += k_stream_cols)
      stream_tile(A, lda, W, C, acc.data(), m, n, k, j0, std::min(c1, j0 + k_stream_cols));
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
}


using Step = ChainStep;  // the shared wiring rule, gpulab/layer_chain_plan.hpp

class LayerChainOp final : public TimedOp {
 public:
  explicit LayerChainOp(const LayerChainSpec& spec) : m_batch(spec.batch), m_threads(resolve_threads(0)) {
    m_steps = plan_layer_chain(spec, m_width);
    std::size_t weights = 0;
    for (const auto& s : m_steps) weights += static_cast<std::size_t>(s.k * s.n);
    m_weights = HostArray<float>(weights);
    // Uniform in ±sqrt(3/k): each output then has the input's variance, so a 32-layer chain neither explodes
    // nor fades to denormals (which would run at a different speed).
    fill_random(m_weights.data(), m_weights.size(), spec.seed);
    for (const auto& s : m_steps) {
      const float scale = static_cast<float>(std::sqrt(3.0 / static_cast<double>(s.k)));
      float* w = m_weights.data() + s.weight;
      for (long long i = 0; i < s.k * s.n; ++i) w[i] *= scale;
    }
    m_x.resize(static_cast<std::size_t>(m_batch * spec.matrices.front().k));
    fill_random(m_x.data(), m_x.size(), spec.seed ^ 0x5EED0FC4A14ULL);
    m_buffers.resize(m_width.size());
    for (std::size_t b = 0; b < m_width.size(); ++b)
      m_buffers[b].assign(static_cast<std::size_t>(m_batch * std::max(1LL, m_width[b])), 0.0f);
    for (const auto& s : m_steps) {
      m_flops += 2.0 * static_cast<double>(m_batch) * static_cast<double>(s.k) * static_cast<double>(s.n);
      m_bytes += (static_cast<double>(s.k) * s.n + static_cast<double>(m_batch) * (s.k + s.n)) * sizeof(float);
      m_depth += s.k;
    }
  }

  Check verify() override {
    poison();
    run_chain();
    const Step& last = m_steps.back();
    const std::vector<float>& out = m_buffers[static_cast<std::size_t>(last.out_buffer)];
    // The rows of a batch are independent, so checking the first and the last row against an FP64 run of the
    // same chain covers the indexing without paying for a reference of the whole batch.
    std::vector<long long> rows{0};
    if (m_batch > 1) rows.push_back(m_batch - 1);
    std::vector<double> got, ref;
    for (long long r : rows) {
      const std::vector<double> row = reference_row(r);
      for (long long j = 0; j < last.n; ++j) {
        got.push_back(out[static_cast<std::size_t>(r * last.n + j)]);
        ref.push_back(row[static_cast<std::size_t>(j)]);
      }
    }
    // FP32 rounding accumulates over the whole depth of the chain (Σk over every product); the outputs have
    // unit-ish size by construction, so the absolute tolerance is the relative one.
    const double rtol = default_rtol(Precision::fp32, m_depth);
    std::vector<float> gotf(got.begin(), got.end());
    Check c = compare(gotf.data(), ref.data(), static_cast<long long>(ref.size()), rtol, rtol);
    // NaN/Inf anywhere in the final output is a failure too (the poison must be gone).
    for (float v : out) {
      if (!std::isfinite(v)) {
        c.passed = false;
        c.message = "The chain's output still holds NaN or Inf: some product did not write its cells";
        break;
      }
    }
    return c;
  }

  double run_once() override {
    const auto t0 = std::chrono::steady_clock::now();
    run_chain();
    const auto t1 = std::chrono::steady_clock::now();
    m_sink = m_buffers[static_cast<std::size_t>(m_steps.back().out_buffer)][0];
    return std::chrono::duration<double>(t1 - t0).count();
  }

  double flops() const override { return m_flops; }
  double bytes() const override { return m_bytes; }

 private:
  const float* input_of(const Step& s) const {
    return s.in_buffer < 0 ? m_x.data() : m_buffers[static_cast<std::size_t>(s.in_buffer)].data();
  }

  void poison() {
    for (auto& b : m_buffers) std::fill(b.begin(), b.end(), std::numeric_limits<float>::quiet_NaN());
  }

  void run_chain() {
    for (const auto& s : m_steps) {
      throw_if_cancelled();  // one weight matrix per step: tens of ms, so a cancel lands within a step
      float* out = m_buffers[static_cast<std::size_t>(s.out_buffer)].data();
      if (m_batch <= k_stream_max_batch)
        stream_gemm(input_of(s), s.lda, m_weights.data() + s.weight, out, m_batch, s.n, s.k, m_threads);
      else
        gemm_blas_strided(input_of(s), s.lda, m_weights.data() + s.weight, out, m_batch, s.n, s.k);
    }
  }

  // C = A·B with A's rows lda apart (the first k columns of a wider activation).
  static void gemm_blas_strided(const float* A, long long lda, const float* B, float* C, long long m, long long n,
                                long long k) {
    if (lda == k) {
      gemm_blas(A, B, C, m, n, k, 0);
      return;
    }
    // Rare (only when an activation must be cut to width): gather into a contiguous copy first.
    thread_local std::vector<float> tmp;
    tmp.resize(static_cast<std::size_t>(m * k));
    for (long long r = 0; r < m; ++r) std::memcpy(tmp.data() + r * k, A + r * lda, static_cast<std::size_t>(k) * sizeof(float));
    gemm_blas(tmp.data(), B, C, m, n, k, 0);
  }

  // One row of the chain in FP64 from the same FP32 inputs and weights.
  std::vector<double> reference_row(long long r) const {
    std::vector<std::vector<double>> bufs(m_width.size());
    std::vector<double> x(m_x.begin() + r * m_steps.front().k, m_x.begin() + (r + 1) * m_steps.front().k);
    std::vector<double> acc;
    for (const auto& s : m_steps) {
      throw_if_cancelled();
      const double* in = s.in_buffer < 0 ? x.data() : bufs[static_cast<std::size_t>(s.in_buffer)].data();
      acc.assign(static_cast<std::size_t>(s.n), 0.0);
      const float* w = m_weights.data() + s.weight;
      for (long long i = 0; i < s.k; ++i) {
        const double a = in[i];
        const float* wrow = w + i * s.n;
        for (long long j = 0; j < s.n; ++j) acc[static_cast<std::size_t>(j)] += a * wrow[j];
      }
      bufs[static_cast<std::size_t>(s.out_buffer)] = acc;
    }
    return bufs[static_cast<std::size_t>(m_steps.back().out_buffer)];
  }

  long long m_batch;
  int m_threads;
  std::vector<Step> m_steps;
  std::vector<long long> m_width;
  // A decode chain's weights are hundreds of MB: HostArray hands them back in pieces, so the GUI thread is not held
  // up by one long unmap of them (platform.hpp, release_pages_before_free); every weight is written by the fill.
  HostArray<float> m_weights{0};
  std::vector<float> m_x;
  std::vector<std::vector<float>> m_buffers;
  double m_flops = 0, m_bytes = 0;
  long long m_depth = 0;
  volatile float m_sink = 0;
};

class HostHeld final : public HeldMemory {
 public:
  HostHeld(double bytes, MemoryInfo before) : m_block(static_cast<std::size_t>(bytes)), m_before(before) {
    const auto n = m_block.size();
    // Touch every page: untouched memory is only promised, not used, and the "after" reading would not move.
    for (std::size_t i = 0; i < n; i += 4096) m_block[i] = static_cast<unsigned char>(i >> 12);
    m_bytes = bytes;
    m_after = read_meminfo();
  }
  double bytes_held() const override { return m_bytes; }
  MemoryInfo before() const override { return m_before; }
  MemoryInfo after() const override { return m_after; }

 private:
  HostArray<unsigned char> m_block;  // handed back in pieces when freed (host_array.hpp)
  double m_bytes = 0;
  MemoryInfo m_before, m_after;
};

}  // namespace

Support layer_chain_support(const LayerChainSpec& spec) {
  if (spec.precision != Precision::fp32)
    return Support::no("The CPU runs the layer chain in FP32 only (OpenBLAS sgemm): it has no fast " +
                       std::string(display_name(spec.precision)) + " matrix path");
  if (!blas_available()) return Support::no("This build of gpulab has no OpenBLAS, so the layer chain cannot run");
  return Support::yes();
}

std::unique_ptr<TimedOp> make_layer_chain_op(const LayerChainSpec& spec) {
  const Support s = layer_chain_support(spec);
  if (!s.ok) throw std::invalid_argument(s.reason);
  if (spec.matrices.empty()) throw std::invalid_argument("Layer chain: a layer needs at least one weight matrix");
  if (spec.layers < 1) throw std::invalid_argument("Layer chain: at least one layer (got " + std::to_string(spec.layers) + ")");
  if (spec.batch < 1 || spec.batch > INT_MAX)
    throw std::invalid_argument("Layer chain: batch must be at least 1 (got " + std::to_string(spec.batch) + ")");
  double weights = 0;
  for (const auto& m : spec.matrices) {
    if (m.k < 1 || m.n < 1 || m.k > INT_MAX || m.n > INT_MAX)
      throw std::invalid_argument("Layer chain: matrix sizes must be between 1 and 2^31 (got " + std::to_string(m.k) +
                                  " -> " + std::to_string(m.n) + ")");
    weights += static_cast<double>(m.k) * static_cast<double>(m.n);
  }
  weights *= spec.layers;
  require_fits_in_memory(weights * sizeof(float), "Layer chain of " + std::to_string(spec.layers) +
                                                      " layer(s), " + format_count(static_cast<long long>(weights)) +
                                                      " FP32 weights");
  return std::make_unique<LayerChainOp>(spec);
}

std::unique_ptr<HeldMemory> hold_host_memory(double bytes, double safety_margin_bytes) {
  const MemoryInfo before = read_meminfo();
  const HoldDecision d = check_hold(bytes, safety_margin_bytes, before, "this computer's RAM");
  if (!d.ok) throw std::invalid_argument(d.reason);
  return std::make_unique<HostHeld>(bytes, before);
}

}  // namespace gpulab::cpu
