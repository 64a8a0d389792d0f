// GEMM on the GPU in every precision: the hand-written ladder kernels (FP32), cuBLAS (FP64, FP32, TF32, FP16, BF16)
// and cuBLASLt (INT8, FP8), each checked against an FP64 reference and timed.
//
// Measurement method on the GPU (DESIGN.md "Measurement method"):
//  - inputs are random from the spec's seed, generated on the host with gpulab::fill_random and uploaded on the op's
//    own stream; for the low precisions they are rounded on the host and the rounded values are what the reference
//    multiplies;
//  - outputs are poisoned (0xFF bytes: NaN for floats) before every run, so an unwritten cell cannot pass;
//  - every timed run starts with the L2 flushed (outside the timed region) and is timed with CUDA events on the
//    op's own stream;
//  - verify() runs once, copies the output back and compares it with an FP64 reference (gpulab::check_gemm);
//  - FP16/BF16 (and FP8's BF16 output) are summed in FP32 to the end: cuBLAS may not add split-K partial sums in
//    the 16-bit output type, so the tolerances below (FP32 accumulation, one final rounding) are the right ones.
#include "backend_internal.hpp"

#include "convert.hpp"
#include "gpulab/gemm_ladder.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/parallel_chunks.hpp"
#include "kernels/blas.hpp"
#include "kernels/kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab::cuda {
namespace {

// What a precision stores per element on the GPU, for the traffic model.
double input_bytes(Precision p) {
  switch (p) {
    case Precision::fp64: return 8;
    case Precision::fp32:
    case Precision::tf32: return 4;
    case Precision::fp16:
    case Precision::bf16: return 2;
    case Precision::int8:
    case Precision::fp8: return 1;
  }
  return 4;
}
double output_bytes(Precision p) {
  switch (p) {
    case Precision::fp64: return 8;
    case Precision::fp32:
    case Precision::tf32:
    case Precision::int8: return 4;  // int32 accumulators
    case Precision::fp16:
    case Precision::bf16:
    case Precision::fp8: return 2;   // FP8 products are written as BF16
  }
  return 4;
}

constexpr const char* kSelftestVariant = "selftest-wrong";  // unlisted: a wrong kernel the tests must catch

kernels::SgemmLauncher ladder_launcher(const std::string& v) {
  if (v == kSelftestVariant) return kernels::sgemm_selftest_wrong;
  const std::optional<LadderStep> step = ladder_step_of(v);  // the spelling: gpulab/gemm_ladder.hpp
  if (!step) return nullptr;
  switch (*step) {
    case LadderStep::naive: return kernels::sgemm_naive;
    case LadderStep::coalesced: return kernels::sgemm_coalesced;
    case LadderStep::smem: return kernels::sgemm_smem;
    case LadderStep::blocktile1d: return kernels::sgemm_blocktile1d;
    case LadderStep::blocktile2d: return kernels::sgemm_blocktile2d;
    case LadderStep::vectorized: return kernels::sgemm_vectorized;
    case LadderStep::warptile: return kernels::sgemm_warptile;
    case LadderStep::cublas:     // a library, not a hand-written kernel
    case LadderStep::autotuned:  // published by others only
      break;
  }
  return nullptr;
}

// ---- GEMM ------------------------------------------------------------------------------------------------------------

enum class GemmPath { ladder, cublas_fp32, cublas_fp64, cublas_tf32, cublas_half, cublaslt };

class GemmOp final : public TimedOp {
 public:
  GemmOp(DeviceCtx ctx, const GemmSpec& spec) : m_ctx(std::move(ctx)), m_spec(spec) {
    use_device(m_ctx.device);
    m_m = static_cast<int>(spec.m);
    m_n = static_cast<int>(spec.n);
    m_k = static_cast<int>(spec.k);
    const Precision p = spec.precision;
    const std::size_t mk = static_cast<std::size_t>(m_m) * m_k, kn = static_cast<std::size_t>(m_k) * m_n,
                      mn = static_cast<std::size_t>(m_m) * m_n;
    const double need = (static_cast<double>(mk) + kn) * input_bytes(p) + static_cast<double>(mn) * output_bytes(p) +
                        (p == Precision::int8 || p == Precision::fp8 ? 32.0 * (1 << 20) : 0.0);
    const std::string what = "GEMM " + std::to_string(m_m) + "x" + std::to_string(m_n) + "x" + std::to_string(m_k) +
                             " in " + std::string(display_name(p));
    // Host first: the inputs are generated and rounded there, and the check reads the whole output back.
    require_host_fits(host_bytes(p, mk, kn, mn), what);
    require_fits(m_ctx, need, "GEMM " + std::to_string(m_m) + "x" + std::to_string(m_n) + "x" + std::to_string(m_k) +
                                  " in " + std::string(display_name(p)));

    m_launcher = ladder_launcher(spec.variant);
    if (m_launcher) {
      m_path = GemmPath::ladder;
    } else {
      switch (p) {
        case Precision::fp32: m_path = GemmPath::cublas_fp32; break;
        case Precision::fp64: m_path = GemmPath::cublas_fp64; break;
        case Precision::tf32: m_path = GemmPath::cublas_tf32; break;
        case Precision::fp16:
        case Precision::bf16: m_path = GemmPath::cublas_half; break;
        case Precision::int8:
        case Precision::fp8: m_path = GemmPath::cublaslt; break;
      }
    }

    // Inputs: uniform in [-1, 1) from the seed (two different streams for A and B), never zeros.
    const std::uint64_t seed_a = spec.seed, seed_b = spec.seed ^ 0x9E3779B97F4A7C15ull;
    m_a = DeviceBuffer(mk * static_cast<std::size_t>(input_bytes(p)));
    m_b = DeviceBuffer(kn * static_cast<std::size_t>(input_bytes(p)));
    m_c = DeviceBuffer(mn * static_cast<std::size_t>(output_bytes(p)));
    if (p == Precision::fp64) {
      m_ha64.resize(mk);
      m_hb64.resize(kn);
      fill_random(m_ha64.data(), mk, seed_a);
      fill_random(m_hb64.data(), kn, seed_b);
      upload(m_a, m_ha64.data(), mk * sizeof(double));
      upload(m_b, m_hb64.data(), kn * sizeof(double));
    } else {
      std::vector<float> ra(mk), rb(kn);
      fill_random(ra.data(), mk, seed_a);
      fill_random(rb.data(), kn, seed_b);
      m_ha.resize(mk);
      m_hb.resize(kn);
      prepare_inputs(p, ra, rb);
    }

    if (m_path != GemmPath::ladder) {
      if (m_path == GemmPath::cublaslt) {
        m_lt_handle = std::make_unique<CublasLtHandle>();
        m_lt = std::make_unique<blas::LtGemm>(m_lt_handle->get(),
                                              p == Precision::int8 ? blas::LtGemm::Kind::int8
                                                                   : blas::LtGemm::Kind::fp8_e4m3,
                                              m_m, m_n, m_k);
      } else {
        m_handle = std::make_unique<CublasHandle>();
        GPULAB_CUBLAS_CHECK(cublasSetStream(m_handle->get(), m_stream.get()));
        // FP32 math (no TF32) and reductions in the compute type: no split-K partial sums in FP16/BF16.
        blas::set_math_mode(m_handle->get());
      }
    }
    m_stream.synchronize();
  }

  Check verify() override {
    use_device(m_ctx.device);
    poison_output();
    enqueue();
    m_stream.synchronize();
    const Precision p = m_spec.precision;
    const std::size_t mn = static_cast<std::size_t>(m_m) * m_n;
    const double tol_a = atol(), tol_r = rtol();
    if (p == Precision::fp64) {
      std::vector<double> c(mn);
      download(m_stream, c.data(), m_c.get(), mn * sizeof(double));
      return check_gemm(m_ha64.data(), m_hb64.data(), c.data(), m_m, m_n, m_k, tol_a, tol_r);
    }
    std::vector<float> c(mn);
    switch (p) {
      case Precision::fp32:
      case Precision::tf32:
        download(m_stream, c.data(), m_c.get(), mn * sizeof(float));
        break;
      case Precision::fp16:
      case Precision::bf16:
      case Precision::fp8: {
        std::vector<std::uint16_t> bits(mn);
        download(m_stream, bits.data(), m_c.get(), mn * sizeof(std::uint16_t));
        if (p == Precision::fp16)
          convert::fp16_to_float(bits.data(), c.data(), mn);
        else
          convert::bf16_to_float(bits.data(), c.data(), mn);
        break;
      }
      case Precision::int8: {
        std::vector<std::int32_t> q(mn);
        download(m_stream, q.data(), m_c.get(), mn * sizeof(std::int32_t));
        // The poison reads as -1 here (not NaN); any cell left at it will be far from its reference.
        for (std::size_t i = 0; i < mn; ++i) c[i] = static_cast<float>(q[i]);
        break;
      }
      case Precision::fp64: break;
    }
    return check_gemm(m_ha.data(), m_hb.data(), c.data(), m_m, m_n, m_k, tol_a, tol_r);
  }

  double run_once() override {
    use_device(m_ctx.device);
    poison_output();
    m_ctx.flush->flush(m_stream.get());
    m_timer.start(m_stream.get());
    enqueue();
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }

  // Which cuBLASLt algorithm the heuristic chose (INT8 and FP8), "" for the other paths: a reader comparing two
  // recordings needs it, since another cuBLAS may pick another kernel for the same call.
  std::string algo_note() const { return m_lt ? m_lt->algo_note() : std::string(); }

  double flops() const override { return 2.0 * m_m * m_n * static_cast<double>(m_k); }
  double bytes() const override {
    // The minimum traffic: each input read once, the output written once.
    const Precision p = m_spec.precision;
    return (static_cast<double>(m_m) * m_k + static_cast<double>(m_k) * m_n) * input_bytes(p) +
           static_cast<double>(m_m) * m_n * output_bytes(p);
  }

 private:
  // On the op's stream, waited for (backend_internal.hpp): the first kernel must see the whole input.
  void upload(DeviceBuffer& dst, const void* src, std::size_t bytes) { cuda::upload(m_stream, dst.get(), src, bytes); }

  // The most host memory the op holds at once: the raw FP32 inputs and their rounded copies (kept for the
  // reference), the staged bits (plus Bᵀ for INT8/FP8), and the output read back in verify() with its raw bits.
  static double host_bytes(Precision p, std::size_t mk, std::size_t kn, std::size_t mn) {
    const double in = static_cast<double>(mk) + static_cast<double>(kn), out = static_cast<double>(mn);
    switch (p) {
      case Precision::fp64: return in * 8 + out * 8;
      case Precision::fp32:
      case Precision::tf32: return in * 8 + out * 4;
      case Precision::fp16:
      case Precision::bf16: return in * (8 + 2) + out * (4 + 2);
      case Precision::fp8: return in * (8 + 1) + static_cast<double>(kn) + out * (4 + 2);
      case Precision::int8: return in * (8 + 1) + static_cast<double>(kn) + out * (4 + 4);
    }
    return in * 10 + out * 8;
  }

  // Rounds the raw inputs to the precision, uploads the bits and keeps the rounded values for the reference.
  void prepare_inputs(Precision p, const std::vector<float>& ra, const std::vector<float>& rb) {
    const std::size_t mk = ra.size(), kn = rb.size();
    switch (p) {
      case Precision::fp32:
        m_ha = ra;
        m_hb = rb;
        upload(m_a, m_ha.data(), mk * sizeof(float));
        upload(m_b, m_hb.data(), kn * sizeof(float));
        break;
      case Precision::tf32:
        // Pre-rounded to TF32, so whatever rounding the tensor cores apply leaves the values unchanged.
        convert::to_tf32(ra.data(), m_ha.data(), mk);
        convert::to_tf32(rb.data(), m_hb.data(), kn);
        upload(m_a, m_ha.data(), mk * sizeof(float));
        upload(m_b, m_hb.data(), kn * sizeof(float));
        break;
      case Precision::fp16:
      case Precision::bf16: {
        std::vector<std::uint16_t> ba(mk), bb(kn);
        auto conv = p == Precision::fp16 ? convert::to_fp16 : convert::to_bf16;
        conv(ra.data(), ba.data(), m_ha.data(), mk);
        conv(rb.data(), bb.data(), m_hb.data(), kn);
        upload(m_a, ba.data(), mk * 2);
        upload(m_b, bb.data(), kn * 2);
        break;
      }
      case Precision::int8:
      case Precision::fp8: {
        std::vector<std::uint8_t> ba(mk), bb(kn);
        if (p == Precision::int8) {
          convert::to_int8(ra.data(), reinterpret_cast<std::int8_t*>(ba.data()), m_ha.data(), mk);
          convert::to_int8(rb.data(), reinterpret_cast<std::int8_t*>(bb.data()), m_hb.data(), kn);
        } else {
          convert::to_fp8_e4m3(ra.data(), ba.data(), m_ha.data(), mk);
          convert::to_fp8_e4m3(rb.data(), bb.data(), m_hb.data(), kn);
        }
        // cuBLASLt's tensor-core INT8/FP8 kernels want B transposed ("TN"): store Bᵀ (n×k row-major) on the GPU.
        // Split by columns of B over every core (67 M bytes at 8192², a cache miss each done naively), in
        // tiles of 64 rows so each core's writes stay within a few cache lines per output row.
        std::vector<std::uint8_t> bt(kn);
        const std::size_t rows = static_cast<std::size_t>(m_k), cols = static_cast<std::size_t>(m_n);
        parallel_chunks(cols, 64, [&](std::size_t c0, std::size_t c1) {
          for (std::size_t r0 = 0; r0 < rows; r0 += 64) {
            const std::size_t r1 = std::min(rows, r0 + 64);
            for (std::size_t c = c0; c < c1; ++c)
              for (std::size_t r = r0; r < r1; ++r) bt[c * rows + r] = bb[r * cols + c];
          }
        });
        upload(m_a, ba.data(), mk);
        upload(m_b, bt.data(), kn);
        break;
      }
      case Precision::fp64: break;  // handled by the caller
    }
  }

  void poison_output() { GPULAB_CUDA_CHECK(cudaMemsetAsync(m_c.get(), 0xFF, m_c.bytes(), m_stream.get())); }

  void enqueue() {
    const cudaStream_t s = m_stream.get();
    switch (m_path) {
      case GemmPath::ladder:
        m_launcher(m_m, m_n, m_k, m_a.as<const float>(), m_b.as<const float>(), m_c.as<float>(), s);
        break;
      case GemmPath::cublas_fp32:
        blas::sgemm(m_handle->get(), m_m, m_n, m_k, m_a.as<const float>(), m_b.as<const float>(), m_c.as<float>());
        break;
      case GemmPath::cublas_fp64:
        blas::dgemm(m_handle->get(), m_m, m_n, m_k, m_a.as<const double>(), m_b.as<const double>(), m_c.as<double>());
        break;
      case GemmPath::cublas_tf32:
        blas::tf32_gemm(m_handle->get(), m_m, m_n, m_k, m_a.as<const float>(), m_b.as<const float>(), m_c.as<float>());
        break;
      case GemmPath::cublas_half:
        blas::half_gemm(m_handle->get(), m_spec.precision == Precision::fp16 ? CUDA_R_16F : CUDA_R_16BF, m_m, m_n, m_k,
                        m_a.get(), m_b.get(), m_c.get());
        break;
      case GemmPath::cublaslt:
        m_lt->run(m_a.get(), m_b.get(), m_c.get(), s);
        break;
    }
  }

  // Tolerances for |out − ref| <= atol + rtol·|ref|, ref in FP64 from the *rounded* inputs, so only the kernel's
  // own arithmetic counts (tighter than gpulab::default_rtol, which also allows for unrounded references).
  // Inputs are uniform in [-1, 1) (INT8: integers in ±127): a dot product of length k has |ref| ~ sqrt(k)/3 and an
  // accumulation error ~ u·k/3 for the accumulator's unit roundoff u; atol allows 32× that, which still leaves a
  // single dropped term (~0.25) or a missing tile far outside. rtol covers rounding the output to its format.
  double accumulate_unit() const {
    switch (m_spec.precision) {
      case Precision::fp64: return 0x1p-53;
      case Precision::fp32: return 0x1p-24;
      case Precision::tf32:
      case Precision::fp16:
      case Precision::bf16: return 0x1p-22;  // tensor-core adders may truncate rather than round
      case Precision::fp8: return 0x1p-18;   // Hopper's FP8 MMA keeps fewer bits between promotions to FP32
      case Precision::int8: return 0.0;      // exact
    }
    return 0x1p-24;
  }
  double atol() const {
    if (m_spec.precision == Precision::int8) return 0.5;  // integer results: any real error is >= 1
    return 32.0 * accumulate_unit() * static_cast<double>(m_k) / 3.0 + 1e-30;
  }
  double rtol() const {
    switch (m_spec.precision) {
      case Precision::fp64: return 0x1p-50;
      case Precision::fp16: return 0x1p-10;              // 2 units of FP16 output rounding
      case Precision::bf16:
      case Precision::fp8: return 0x1p-7;                // 2 units of BF16 output rounding
      case Precision::int8: return 0x1p-23;              // int32 → float conversion on the host
      case Precision::fp32:
      case Precision::tf32: return 0x1p-22;
    }
    return 0x1p-22;
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  GemmSpec m_spec;
  int m_m = 0, m_n = 0, m_k = 0;
  GemmPath m_path = GemmPath::ladder;
  kernels::SgemmLauncher m_launcher = nullptr;
  Stream m_stream;
  EventTimer m_timer;
  DeviceBuffer m_a, m_b, m_c;
  std::vector<float> m_ha, m_hb;        // the values the GPU multiplies (already rounded), row-major
  std::vector<double> m_ha64, m_hb64;   // FP64 inputs
  std::unique_ptr<CublasHandle> m_handle;
  std::unique_ptr<CublasLtHandle> m_lt_handle;
  std::unique_ptr<blas::LtGemm> m_lt;
};

}  // namespace

const std::vector<std::string>& ladder_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (LadderStep s : kCudaLadder) out.emplace_back(ladder_variant(s));
    return out;
  }();
  return names;
}

bool is_ladder_variant(const std::string& variant) { return ladder_launcher(variant) != nullptr; }

std::unique_ptr<TimedOp> make_gemm_op(DeviceCtx ctx, const GemmSpec& spec) {
  return std::make_unique<GemmOp>(std::move(ctx), spec);
}

std::string gemm_algo_note(const TimedOp& op) {
  const auto* gemm = dynamic_cast<const GemmOp*>(&op);
  return gemm ? gemm->algo_note() : std::string();
}

}  // namespace gpulab::cuda
