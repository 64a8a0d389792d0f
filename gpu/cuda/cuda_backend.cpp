// The CUDA backend: device facts, and the prepared operations (GEMM in each precision, streaming bandwidth,
// host↔device transfers) that the experiments check and time.
//
// Measurement method on the GPU (DESIGN.md "Measurement method"):
//  - inputs are random from the spec's seed, generated on the host with gpulab::fill_random and copied over; for the
//    low precisions they are rounded on the host and the rounded values are what the reference multiplies;
//  - outputs are poisoned (0xFF bytes: NaN for floats) before every run, so an unwritten cell cannot pass;
//  - every timed run starts with the L2 flushed (outside the timed region) and is timed with CUDA events on the
//    op's own stream;
//  - verify() runs once, copies the output back and compares it with an FP64 reference (gpulab::check_gemm).
#include "cuda_backend.hpp"

#include "backend_internal.hpp"

#include "convert.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "gpulab/harness.hpp"
#include "gpulab/memory_hold.hpp"
#include "kernels/blas.hpp"
#include "kernels/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab::cuda {
namespace {

// ---- small helpers -------------------------------------------------------------------------------------------------

std::string version_string(int v) {  // 13000 → "13.0", 12080 → "12.8"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

int attribute(cudaDeviceAttr attr, int device) {
  int v = 0;
  GPULAB_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, device));
  return v;
}

// FP32 / FP64 lanes per SM by compute capability, from NVIDIA's architecture whitepapers. Used only for the
// labelled peak model; 0 = unknown.
int fp32_lanes_per_sm(int major, int minor) {
  if (major == 7) return 64;                 // Volta, Turing
  if (major == 8 && minor == 0) return 64;   // A100: 64 FP32 lanes per SM (19.5 TFLOP/s)
  if (major >= 8) return 128;                // GA10x, Ada, Hopper, Blackwell: 128
  return 0;
}
int fp64_lanes_per_sm(int major, int minor) {
  if (major == 7 && minor == 0) return 32;
  if (major == 8 && minor == 0) return 32;
  if (major == 9 && minor == 0) return 64;   // H100/H200
  if (major == 10 && minor == 0) return 64;  // B200
  if (major >= 7) return 2;                  // consumer parts: 1/64 of FP32
  return 0;
}

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

const std::vector<std::string>& ladder_names() {
  static const std::vector<std::string> names{"naive",       "coalesced",  "smem",     "blocktile1d",
                                              "blocktile2d", "vectorized", "warptile", "cublas"};
  return names;
}
constexpr const char* kSelftestVariant = "selftest-wrong";  // unlisted: a wrong kernel the tests must catch

kernels::SgemmLauncher ladder_launcher(const std::string& v) {
  if (v == "naive") return kernels::sgemm_naive;
  if (v == "coalesced") return kernels::sgemm_coalesced;
  if (v == "smem") return kernels::sgemm_smem;
  if (v == "blocktile1d") return kernels::sgemm_blocktile1d;
  if (v == "blocktile2d") return kernels::sgemm_blocktile2d;
  if (v == "vectorized") return kernels::sgemm_vectorized;
  if (v == "warptile") return kernels::sgemm_warptile;
  if (v == kSelftestVariant) return kernels::sgemm_selftest_wrong;
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
        blas::set_fp32_math(m_handle->get());
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
      GPULAB_CUDA_CHECK(cudaMemcpy(c.data(), m_c.get(), mn * sizeof(double), cudaMemcpyDeviceToHost));
      return check_gemm(m_ha64.data(), m_hb64.data(), c.data(), m_m, m_n, m_k, tol_a, tol_r);
    }
    std::vector<float> c(mn);
    switch (p) {
      case Precision::fp32:
      case Precision::tf32:
        GPULAB_CUDA_CHECK(cudaMemcpy(c.data(), m_c.get(), mn * sizeof(float), cudaMemcpyDeviceToHost));
        break;
      case Precision::fp16:
      case Precision::bf16:
      case Precision::fp8: {
        std::vector<std::uint16_t> bits(mn);
        GPULAB_CUDA_CHECK(cudaMemcpy(bits.data(), m_c.get(), mn * sizeof(std::uint16_t), cudaMemcpyDeviceToHost));
        if (p == Precision::fp16)
          convert::fp16_to_float(bits.data(), c.data(), mn);
        else
          convert::bf16_to_float(bits.data(), c.data(), mn);
        break;
      }
      case Precision::int8: {
        std::vector<std::int32_t> q(mn);
        GPULAB_CUDA_CHECK(cudaMemcpy(q.data(), m_c.get(), mn * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
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

  double flops() const override { return 2.0 * m_m * m_n * static_cast<double>(m_k); }
  double bytes() const override {
    // The minimum traffic: each input read once, the output written once.
    const Precision p = m_spec.precision;
    return (static_cast<double>(m_m) * m_k + static_cast<double>(m_k) * m_n) * input_bytes(p) +
           static_cast<double>(m_m) * m_n * output_bytes(p);
  }

 private:
  static void upload(DeviceBuffer& dst, const void* src, std::size_t bytes) {
    GPULAB_CUDA_CHECK(cudaMemcpy(dst.get(), src, bytes, cudaMemcpyHostToDevice));
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
        std::vector<std::uint8_t> bt(kn);
        for (int r = 0; r < m_k; ++r)
          for (int c = 0; c < m_n; ++c)
            bt[static_cast<std::size_t>(c) * m_k + r] = bb[static_cast<std::size_t>(r) * m_n + c];
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

// ---- streaming bandwidth -------------------------------------------------------------------------------------------

class BandwidthOp final : public TimedOp {
 public:
  static constexpr float kScalar = 3.0f;
  static constexpr std::uint32_t kSaltA = 0xA11CEu, kSaltB = 0xB0Bu, kSaltC = 0xC0FFEEu;

  BandwidthOp(DeviceCtx ctx, const BandwidthSpec& spec) : m_ctx(std::move(ctx)), m_triad(spec.kind == "triad") {
    use_device(m_ctx.device);
    // Arrays smaller than 4× the L2 would partly live in the cache (writes especially, which the L2 absorbs) and
    // "measure" more than the memory can do; such requests are raised to 4× L2 and bytes() reports what ran.
    const std::size_t floor_bytes = 4 * std::max<std::size_t>(m_ctx.l2_bytes, std::size_t{16} << 20);
    std::size_t bytes = std::max(spec.bytes_per_array, floor_bytes);
    m_count = (bytes / sizeof(float) + 3) / 4 * 4;
    const int arrays = m_triad ? 3 : 2;
    require_fits(m_ctx, static_cast<double>(arrays) * m_count * sizeof(float), "The " + spec.kind + " kernel");
    m_x = DeviceBuffer(m_count * sizeof(float));
    m_y = DeviceBuffer(m_count * sizeof(float));
    if (m_triad) m_z = DeviceBuffer(m_count * sizeof(float));
    // copy: y = x. triad: x = y + s·z. Inputs are hash patterns the check can recompute per element.
    if (m_triad) {
      kernels::fill_pattern(m_y.as<float>(), m_count, kSaltB, m_ctx.sms, m_stream.get());
      kernels::fill_pattern(m_z.as<float>(), m_count, kSaltC, m_ctx.sms, m_stream.get());
    } else {
      kernels::fill_pattern(m_x.as<float>(), m_count, kSaltA, m_ctx.sms, m_stream.get());
    }
    m_stream.synchronize();
  }

  Check verify() override {
    use_device(m_ctx.device);
    float* out = m_triad ? m_x.as<float>() : m_y.as<float>();
    GPULAB_CUDA_CHECK(cudaMemsetAsync(out, 0xFF, m_count * sizeof(float), m_stream.get()));
    enqueue();
    m_stream.synchronize();
    std::vector<float> host(m_count);
    GPULAB_CUDA_CHECK(cudaMemcpy(host.data(), out, m_count * sizeof(float), cudaMemcpyDeviceToHost));
    Check c;
    c.checked = static_cast<long long>(m_count);
    for (std::size_t i = 0; i < m_count; ++i) {
      // The device computes the triad as one fused multiply-add (__fmaf_rn); std::fmaf rounds identically, so
      // every element must match exactly.
      const float want = m_triad ? std::fmaf(kScalar, kernels::pattern_value(i, kSaltC), kernels::pattern_value(i, kSaltB))
                                 : kernels::pattern_value(i, kSaltA);
      const float got = host[i];
      if (!(got == want)) {
        const double err = std::isfinite(got) ? std::fabs(static_cast<double>(got) - want) : INFINITY;
        if (c.first_bad_index < 0) c.first_bad_index = static_cast<long long>(i);
        c.max_abs_err = std::max(c.max_abs_err, err);
        c.max_rel_err = std::max(c.max_rel_err, err / std::max(std::fabs(static_cast<double>(want)), 1e-30));
      }
    }
    c.passed = c.first_bad_index < 0;
    if (!c.passed) {
      std::ostringstream s;
      s << (m_triad ? "triad" : "copy") << " output differs from the expected values, first at element "
        << c.first_bad_index << " (max abs error " << c.max_abs_err << ")";
      c.message = s.str();
    }
    return c;
  }

  double run_once() override {
    use_device(m_ctx.device);
    m_ctx.flush->flush(m_stream.get());
    m_timer.start(m_stream.get());
    enqueue();
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }

  double flops() const override { return m_triad ? 2.0 * static_cast<double>(m_count) : 0.0; }
  double bytes() const override { return (m_triad ? 3.0 : 2.0) * static_cast<double>(m_count) * sizeof(float); }

 private:
  void enqueue() {
    if (m_triad)
      kernels::stream_triad(m_x.as<float>(), m_y.as<const float>(), m_z.as<const float>(), kScalar, m_count, m_ctx.sms,
                            m_stream.get());
    else
      kernels::stream_copy(m_x.as<const float>(), m_y.as<float>(), m_count, m_ctx.sms, m_stream.get());
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  bool m_triad;
  std::size_t m_count = 0;  // floats per array
  Stream m_stream;
  EventTimer m_timer;
  DeviceBuffer m_x, m_y, m_z;
};

// ---- transfers -----------------------------------------------------------------------------------------------------

// A host buffer that is either page-locked (cudaMallocHost) or ordinary pageable memory.
class HostBuffer {
 public:
  HostBuffer(std::size_t bytes, bool pinned) : m_pinned(pinned) {
    if (pinned)
      m_pinned_buf = PinnedBuffer(bytes);
    else
      m_pageable.reset(new std::uint8_t[bytes]);
  }
  std::uint8_t* data() { return m_pinned ? m_pinned_buf.as<std::uint8_t>() : m_pageable.get(); }

 private:
  bool m_pinned;
  PinnedBuffer m_pinned_buf;
  std::unique_ptr<std::uint8_t[]> m_pageable;
};

void fill_bytes(std::uint8_t* p, std::size_t n, std::uint64_t seed) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    std::memcpy(p + i, &x, 8);
  }
  for (; i < n; ++i) p[i] = static_cast<std::uint8_t>(i * 131u + 7u);
}

Check compare_bytes(const std::uint8_t* got, const std::uint8_t* want, std::size_t n, const std::string& what) {
  Check c;
  c.checked = static_cast<long long>(n);
  if (std::memcmp(got, want, n) == 0) {
    c.passed = true;
    return c;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      c.first_bad_index = static_cast<long long>(i);
      break;
    }
  c.passed = false;
  c.max_abs_err = 1;
  c.max_rel_err = 1;
  c.message = what + ": the destination differs from the source, first at byte " + std::to_string(c.first_bad_index);
  return c;
}

class TransferOp final : public TimedOp {
 public:
  TransferOp(DeviceCtx ctx, const TransferSpec& spec)
      : m_ctx(std::move(ctx)), m_dir(spec.direction), m_bytes(spec.bytes), m_pinned(spec.pinned),
        m_pattern(spec.bytes, true) {
    use_device(m_ctx.device);
    if (m_bytes == 0) throw std::invalid_argument("transfer size must be at least 1 byte");
    const double device_need = static_cast<double>(m_bytes) * (m_dir == "d2d" ? 2 : 1);
    require_fits(m_ctx, device_need, "A " + m_dir + " transfer of " + bytes_text(static_cast<double>(m_bytes)));
    fill_bytes(m_pattern.data(), m_bytes, 0x7E57);
    m_dev_a = DeviceBuffer(m_bytes);
    if (m_dir == "h2d") {
      m_host = std::make_unique<HostBuffer>(m_bytes, m_pinned);
      std::memcpy(m_host->data(), m_pattern.data(), m_bytes);  // also commits every pageable page before timing
    } else if (m_dir == "d2h") {
      m_host = std::make_unique<HostBuffer>(m_bytes, m_pinned);
      std::memset(m_host->data(), 0, m_bytes);
      GPULAB_CUDA_CHECK(cudaMemcpy(m_dev_a.get(), m_pattern.data(), m_bytes, cudaMemcpyHostToDevice));
    } else {  // d2d
      m_dev_b = DeviceBuffer(m_bytes);
      GPULAB_CUDA_CHECK(cudaMemcpy(m_dev_a.get(), m_pattern.data(), m_bytes, cudaMemcpyHostToDevice));
    }
  }

  Check verify() override {
    use_device(m_ctx.device);
    // Poison the destination, copy, then compare it byte for byte with the source pattern.
    if (m_dir == "d2h")
      std::memset(m_host->data(), 0xFF, m_bytes);
    else
      GPULAB_CUDA_CHECK(cudaMemsetAsync(destination(), 0xFF, m_bytes, m_stream.get()));
    enqueue();
    m_stream.synchronize();
    if (m_dir == "d2h") return compare_bytes(m_host->data(), m_pattern.data(), m_bytes, "d2h");
    std::vector<std::uint8_t> back(m_bytes);
    GPULAB_CUDA_CHECK(cudaMemcpy(back.data(), destination(), m_bytes, cudaMemcpyDeviceToHost));
    return compare_bytes(back.data(), m_pattern.data(), m_bytes, m_dir);
  }

  double run_once() override {
    use_device(m_ctx.device);
    if (m_dir == "d2d") m_ctx.flush->flush(m_stream.get());  // only the device-side copy could hit in L2
    m_timer.start(m_stream.get());
    enqueue();
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }

  double flops() const override { return 0; }
  // Host↔device: bytes moved over the link. Device-to-device: bytes read + written, like the bandwidth kernels.
  double bytes() const override { return static_cast<double>(m_bytes) * (m_dir == "d2d" ? 2.0 : 1.0); }

 private:
  void* destination() { return m_dir == "h2d" ? m_dev_a.get() : (m_dir == "d2d" ? m_dev_b.get() : m_host->data()); }
  void enqueue() {
    const cudaStream_t s = m_stream.get();
    if (m_dir == "h2d")
      GPULAB_CUDA_CHECK(cudaMemcpyAsync(m_dev_a.get(), m_host->data(), m_bytes, cudaMemcpyHostToDevice, s));
    else if (m_dir == "d2h")
      GPULAB_CUDA_CHECK(cudaMemcpyAsync(m_host->data(), m_dev_a.get(), m_bytes, cudaMemcpyDeviceToHost, s));
    else
      GPULAB_CUDA_CHECK(cudaMemcpyAsync(m_dev_b.get(), m_dev_a.get(), m_bytes, cudaMemcpyDeviceToDevice, s));
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  std::string m_dir;
  std::size_t m_bytes;
  bool m_pinned;
  HostBuffer m_pattern;  // pinned: the reference copy of what the source holds
  Stream m_stream;
  EventTimer m_timer;
  DeviceBuffer m_dev_a, m_dev_b;
  std::unique_ptr<HostBuffer> m_host;
};

// ---- GPU to GPU ----------------------------------------------------------------------------------------------------

// A copy from this GPU's memory into a second GPU's (cudaMemcpyPeerAsync), timed with events on the source's
// stream. With peer access enabled the copy goes straight over NVLink or PCIe; without, the driver stages it
// through host memory — the backend's provenance says which.
class PeerCopyOp final : public TimedOp {
 public:
  PeerCopyOp(DeviceCtx ctx, int peer, const TransferSpec& spec)
      : m_ctx(std::move(ctx)), m_peer(peer), m_bytes(spec.bytes), m_pattern(spec.bytes, true) {
    if (m_bytes == 0) throw std::invalid_argument("transfer size must be at least 1 byte");
    fill_bytes(m_pattern.data(), m_bytes, 0x9EE2);
    // The destination lives on the peer: check its free memory and allocate it with the peer current.
    use_device(m_peer);
    require_fits(m_ctx, static_cast<double>(m_bytes), "A GPU-to-GPU copy of " + bytes_text(double(m_bytes)) +
                                                           " (on GPU " + std::to_string(m_peer) + ")");
    m_dst = DeviceBuffer(m_bytes);
    use_device(m_ctx.device);
    require_fits(m_ctx, static_cast<double>(m_bytes), "A GPU-to-GPU copy of " + bytes_text(double(m_bytes)));
    m_src = DeviceBuffer(m_bytes);
    GPULAB_CUDA_CHECK(cudaMemcpy(m_src.get(), m_pattern.data(), m_bytes, cudaMemcpyHostToDevice));
  }

  // The destination is freed with its own device current, then the source's device is made current again.
  ~PeerCopyOp() override {
    GPULAB_CUDA_CHECK_NOTHROW(cudaSetDevice(m_peer));
    m_dst.reset();
    GPULAB_CUDA_CHECK_NOTHROW(cudaSetDevice(m_ctx.device));
  }
  PeerCopyOp(const PeerCopyOp&) = delete;
  PeerCopyOp& operator=(const PeerCopyOp&) = delete;

  Check verify() override {
    use_device(m_peer);
    GPULAB_CUDA_CHECK(cudaMemset(m_dst.get(), 0xFF, m_bytes));  // poison: a copy that did not land cannot pass
    GPULAB_CUDA_CHECK(cudaDeviceSynchronize());
    use_device(m_ctx.device);
    enqueue();
    m_stream.synchronize();
    std::vector<std::uint8_t> back(m_bytes);
    use_device(m_peer);
    GPULAB_CUDA_CHECK(cudaMemcpy(back.data(), m_dst.get(), m_bytes, cudaMemcpyDeviceToHost));
    use_device(m_ctx.device);
    return compare_bytes(back.data(), m_pattern.data(), m_bytes, "p2p");
  }

  double run_once() override {
    use_device(m_ctx.device);
    m_timer.start(m_stream.get());
    enqueue();
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }

  double flops() const override { return 0; }
  double bytes() const override { return static_cast<double>(m_bytes); }  // bytes that crossed, counted once

 private:
  void enqueue() {
    GPULAB_CUDA_CHECK(cudaMemcpyPeerAsync(m_dst.get(), m_peer, m_src.get(), m_ctx.device, m_bytes, m_stream.get()));
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  int m_peer;
  std::size_t m_bytes;
  HostBuffer m_pattern;
  Stream m_stream;
  EventTimer m_timer;
  DeviceBuffer m_src, m_dst;
};

// ---- launch overhead -----------------------------------------------------------------------------------------------

// `kernels` tiny kernels back to back on one stream, timed as one region: with so little work each, the time is
// the launch cost — the GPU's serial part for the Amdahl page.
class LaunchOverheadOp final : public TimedOp {
 public:
  LaunchOverheadOp(DeviceCtx ctx, const LaunchOverheadSpec& spec)
      : m_ctx(std::move(ctx)), m_kernels(spec.kernels), m_count(spec.elements), m_buf(spec.elements * sizeof(float)) {}

  Check verify() override {
    use_device(m_ctx.device);
    GPULAB_CUDA_CHECK(cudaMemsetAsync(m_buf.get(), 0, m_buf.bytes(), m_stream.get()));
    launch_all();
    m_stream.synchronize();
    std::vector<float> host(m_count);
    GPULAB_CUDA_CHECK(cudaMemcpy(host.data(), m_buf.get(), m_buf.bytes(), cudaMemcpyDeviceToHost));
    // Every kernel added exactly 1 to every element (exact in FP32 up to 2^24 kernels): anything else means a
    // launch was lost or ran on the wrong data.
    const auto want = static_cast<float>(m_kernels);
    Check c;
    c.checked = static_cast<long long>(m_count);
    for (std::size_t i = 0; i < m_count; ++i) {
      if (host[i] != want) {
        if (c.first_bad_index < 0) c.first_bad_index = static_cast<long long>(i);
        const double err = std::isfinite(host[i]) ? std::fabs(host[i] - want) : INFINITY;
        c.max_abs_err = std::max(c.max_abs_err, err);
        c.max_rel_err = std::max(c.max_rel_err, err / want);
      }
    }
    c.passed = c.first_bad_index < 0;
    if (!c.passed)
      c.message = "after " + std::to_string(m_kernels) + " kernels element " + std::to_string(c.first_bad_index) +
                  " holds " + number_text(host[static_cast<std::size_t>(c.first_bad_index)]) + " instead of " +
                  std::to_string(m_kernels);
    return c;
  }

  double run_once() override {
    use_device(m_ctx.device);
    m_timer.start(m_stream.get());
    launch_all();
    m_timer.stop(m_stream.get());
    return m_timer.elapsed_s();
  }

  double flops() const override { return static_cast<double>(m_kernels) * static_cast<double>(m_count); }
  double bytes() const override { return 8.0 * static_cast<double>(m_kernels) * static_cast<double>(m_count); }

 private:
  void launch_all() {
    for (int i = 0; i < m_kernels; ++i) kernels::add_one(m_buf.as<float>(), m_count, m_stream.get());
  }

  DeviceCtx m_ctx;
  DeviceSelect m_select{m_ctx.device};
  int m_kernels;
  std::size_t m_count;
  Stream m_stream;
  EventTimer m_timer;
  DeviceBuffer m_buf;
};

// ---- held memory ---------------------------------------------------------------------------------------------------

// Device memory held until destruction, in chunks of at most 4 GiB (one huge cudaMalloc can fail on a fragmented
// card where several smaller ones succeed), each one written so it is really in use.
class DeviceHeld final : public HeldMemory {
 public:
  DeviceHeld(int device, double bytes, MemoryInfo before) : m_before(before) {
    use_device(device);
    constexpr std::size_t kChunk = std::size_t{4} << 30;
    std::size_t left = static_cast<std::size_t>(bytes);
    while (left > 0) {
      const std::size_t n = std::min(left, kChunk);
      m_chunks.emplace_back(n);
      GPULAB_CUDA_CHECK(cudaMemset(m_chunks.back().get(), 0x5A, n));
      left -= n;
    }
    GPULAB_CUDA_CHECK(cudaDeviceSynchronize());
    m_bytes = static_cast<double>(static_cast<std::size_t>(bytes));
    std::size_t free_b = 0, total_b = 0;
    GPULAB_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    m_after = {static_cast<double>(total_b), static_cast<double>(free_b)};
  }
  double bytes_held() const override { return m_bytes; }
  MemoryInfo before() const override { return m_before; }
  MemoryInfo after() const override { return m_after; }

 private:
  std::vector<DeviceBuffer> m_chunks;
  double m_bytes = 0;
  MemoryInfo m_before, m_after;
};

// ---- the backend ---------------------------------------------------------------------------------------------------

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int device) {
    m_ctx.device = device;
    use_device(device);
    cudaDeviceProp prop{};
    GPULAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    m_ctx.cc_major = prop.major;
    m_ctx.cc_minor = prop.minor;
    m_ctx.sms = prop.multiProcessorCount;
    m_ctx.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);

    // Clock fields left cudaDeviceProp in CUDA 13: ask for them as attributes (kHz).
    const double clock_mhz = attribute(cudaDevAttrClockRate, device) / 1000.0;
    const double mem_clock_mhz = attribute(cudaDevAttrMemoryClockRate, device) / 1000.0;
    const int bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
    const bool ecc = attribute(cudaDevAttrEccEnabled, device) != 0;
    int driver = 0, runtime = 0, device_count = 0;
    GPULAB_CUDA_CHECK(cudaDriverGetVersion(&driver));
    GPULAB_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    GPULAB_CUDA_CHECK(cudaGetDeviceCount(&device_count));
    int cublas_major = 0, cublas_minor = 0, cublas_patch = 0;
    GPULAB_CUBLAS_CHECK(cublasGetProperty(MAJOR_VERSION, &cublas_major));
    GPULAB_CUBLAS_CHECK(cublasGetProperty(MINOR_VERSION, &cublas_minor));
    GPULAB_CUBLAS_CHECK(cublasGetProperty(PATCH_LEVEL, &cublas_patch));
    const std::string cublas_version =
        std::to_string(cublas_major) + "." + std::to_string(cublas_minor) + "." + std::to_string(cublas_patch);
    const std::size_t lt = cublasLtGetVersion();
    const std::string cublaslt_version =
        std::to_string(lt / 10000) + "." + std::to_string((lt / 100) % 100) + "." + std::to_string(lt % 100);
    char pci[32] = {};
    GPULAB_CUDA_CHECK(cudaDeviceGetPCIBusId(pci, sizeof(pci), device));
    // A second GPU, for the GPU-to-GPU copy: the next one, with direct peer access when the topology allows it.
    if (device_count >= 2) {
      m_peer = (device + 1) % device_count;
      int can = 0;
      GPULAB_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, device, m_peer));
      if (can) {
        const cudaError_t e = cudaDeviceEnablePeerAccess(m_peer, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();  // not sticky: clear it and go on
        else GPULAB_CUDA_CHECK(e);
      }
      m_peer_direct = can != 0;
    }

    const int lanes32 = fp32_lanes_per_sm(prop.major, prop.minor);
    const int lanes64 = fp64_lanes_per_sm(prop.major, prop.minor);
    const double ghz = clock_mhz / 1000.0;
    const double mem_model_gbps = 2.0 * mem_clock_mhz * 1e6 * (bus_bits / 8.0) / 1e9;  // DDR: two transfers a clock

    DeviceInfo& d = m_info;
    d.kind = "cuda";
    d.name = prop.name;
    d.compute_units = prop.multiProcessorCount;
    d.threads = prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor;
    d.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    d.clock_mhz = clock_mhz;
    d.memory_total_bytes = static_cast<double>(prop.totalGlobalMem);
    d.driver_version = version_string(driver);
    d.runtime_version = version_string(runtime);
    d.peak_gflops_fp32 = lanes32 * 2.0 * prop.multiProcessorCount * ghz;
    d.peak_gflops_fp64 = lanes64 * 2.0 * prop.multiProcessorCount * ghz;
    const std::string peak_model = "model: " + std::to_string(prop.multiProcessorCount) + " SMs × " +
                                   std::to_string(lanes32) + " FP32 lanes × 2 FLOP (FMA) × " +
                                   number_text(clock_mhz, 5) + " MHz peak clock";
    d.peak_source = peak_model;
    d.details = {
        {"L2 cache", bytes_text(static_cast<double>(prop.l2CacheSize))},
        {"memory bus", std::to_string(bus_bits) + "-bit"},
        {"memory clock", number_text(mem_clock_mhz, 5) + " MHz"},
        {"memory bandwidth (model)", number_text(mem_model_gbps, 4) + " GB/s (2 × memory clock × bus width)"},
        {"peak FP32 (model)", number_text(d.peak_gflops_fp32, 5) + " GFLOP/s (" + peak_model + ")"},
        {"peak FP64 (model)", number_text(d.peak_gflops_fp64, 5) + " GFLOP/s (" + std::to_string(lanes64) +
                                  " FP64 lanes per SM)"},
        {"shared memory per SM", bytes_text(static_cast<double>(prop.sharedMemPerMultiprocessor))},
        {"registers per SM", std::to_string(prop.regsPerMultiprocessor)},
        {"max threads per SM", std::to_string(prop.maxThreadsPerMultiProcessor)},
        {"ECC", ecc ? "on" : "off"},
        {"PCI bus", pci},
        {"GPUs visible", std::to_string(device_count)},
        {"GPU-to-GPU copies", m_peer < 0 ? std::string("need a second GPU (this machine has one)")
                                         : "to GPU " + std::to_string(m_peer) +
                                               (m_peer_direct ? ", direct (peer access)" : ", staged through host memory")},
        {"CUDA driver API", version_string(driver)},
        {"CUDA runtime (static)", version_string(runtime)},
        {"cuBLAS", cublas_version},
        {"cuBLASLt", cublaslt_version},
    };

    Provenance& p = m_prov;
    p = base_provenance();
    p["backend"] = "cuda";
    p["device"] = d.name;
    p["device_index"] = std::to_string(device);
    p["compute_capability"] = d.compute_capability;
    p["sms"] = std::to_string(d.compute_units);
    p["clock_mhz"] = number_text(clock_mhz, 5);
    p["memory_clock_mhz"] = number_text(mem_clock_mhz, 5);
    p["memory_bus_bits"] = std::to_string(bus_bits);
    p["memory_total_bytes"] = number_text(d.memory_total_bytes, 15);
    p["l2_bytes"] = std::to_string(prop.l2CacheSize);
    p["driver"] = d.driver_version;
    p["runtime"] = d.runtime_version;
    p["cublas"] = cublas_version;
    p["cublaslt"] = cublaslt_version;
    p["ecc"] = ecc ? "on" : "off";
    p["gpus_visible"] = std::to_string(device_count);
    if (m_peer >= 0)
      p["p2p"] = "GPU " + std::to_string(device) + " -> GPU " + std::to_string(m_peer) +
                 (m_peer_direct ? ": peer access enabled (direct over NVLink or PCIe)"
                                : ": no peer access (the driver stages the copy through host memory)");
    p["peak_fp32_gflops"] = number_text(d.peak_gflops_fp32, 6);
    p["peak_fp32_source"] = peak_model;
    p["peak_fp64_gflops"] = number_text(d.peak_gflops_fp64, 6);
    p["timer"] = "CUDA events on the op's own stream";
    p["l2_flush"] = "a read of a 2x L2 buffer before every timed run (outside the timed region)";
    p["output_poison"] = "0xFF bytes (NaN) before every run";
    p["inputs"] = "uniform [-1, 1) from the seed, rounded on the host to the precision; reference from the rounded values";
    p["cublas_fp32_math"] = "CUBLAS_DEFAULT_MATH (no TF32); TF32 only as its own precision (CUBLAS_COMPUTE_32F_FAST_TF32)";
    p["cublas_fp16_bf16"] = "cublasGemmEx, FP32 accumulate, 16-bit output";
    p["cublas_int8_fp8"] = "cuBLASLt TN (B stored transposed); INT8 int32 out; FP8 E4M3 BF16 out, fast-accum off";
    p["bandwidth_arrays"] = "at least 4x L2 per array; bytes = read + written";
    for (const char* env : {"NVIDIA_TF32_OVERRIDE", "CUBLAS_EMULATE_SINGLE_PRECISION", "CUDA_VISIBLE_DEVICES"})
      if (const char* v = std::getenv(env)) p[std::string("env_") + env] = v;
  }

  std::string kind() const override { return "cuda"; }

  DeviceInfo device_info() const override {
    DeviceInfo d = m_info;
    d.memory_free_bytes = memory_info().free_bytes;
    return d;
  }

  Provenance provenance() const override { return m_prov; }

  std::vector<std::string> gemm_variants() const override { return ladder_names(); }

  Support supports(const GemmSpec& spec) const override {
    if (spec.m < 1 || spec.n < 1 || spec.k < 1) return Support::no("matrix sizes must be at least 1");
    if (spec.m > kMaxDim || spec.n > kMaxDim || spec.k > kMaxDim)
      return Support::no("each matrix dimension is limited to " + std::to_string(kMaxDim) + " here");
    const bool own = ladder_launcher(spec.variant) != nullptr;
    if (!own && spec.variant != "cublas") {
      std::string all;
      for (const auto& v : ladder_names()) all += (all.empty() ? "" : ", ") + v;
      return Support::no("the CUDA backend has no GEMM variant '" + spec.variant + "' (it has " + all + ")");
    }
    if (own) {
      if (spec.precision != Precision::fp32)
        return Support::no("the hand-written kernels compute in FP32 only; cuBLAS runs the other precisions");
      return Support::yes();
    }
    const int cc = m_ctx.cc_major * 10 + m_ctx.cc_minor;
    switch (spec.precision) {
      case Precision::fp64:
      case Precision::fp32:
      case Precision::fp16: return Support::yes();
      case Precision::tf32:
        return cc >= 80 ? Support::yes()
                        : Support::no("TF32 tensor cores need compute capability 8.0 (Ampere) or newer");
      case Precision::bf16:
        return cc >= 80 ? Support::yes()
                        : Support::no("BF16 tensor cores need compute capability 8.0 (Ampere) or newer");
      case Precision::int8:
        if (cc < 75) return Support::no("INT8 tensor cores need compute capability 7.5 or newer");
        if (spec.m % 16 || spec.n % 16 || spec.k % 16)
          return Support::no("INT8 tensor-core GEMM (cuBLASLt) needs m, n and k to be multiples of 16");
        return Support::yes();
      case Precision::fp8:
        if (cc < 89) return Support::no("FP8 needs compute capability 8.9 or newer");
        if (spec.m % 16 || spec.n % 16 || spec.k % 16)
          return Support::no("FP8 tensor-core GEMM (cuBLASLt) needs m, n and k to be multiples of 16");
        return Support::yes();
    }
    return Support::no("unknown precision");
  }

  std::unique_ptr<TimedOp> make_gemm(const GemmSpec& spec) override {
    if (spec.m < 1 || spec.n < 1 || spec.k < 1 || spec.m > kMaxDim || spec.n > kMaxDim || spec.k > kMaxDim)
      throw std::invalid_argument("GEMM sizes must be between 1 and " + std::to_string(kMaxDim) + " (got " +
                                  std::to_string(spec.m) + "x" + std::to_string(spec.n) + "x" +
                                  std::to_string(spec.k) + ")");
    const Support s = supports(spec);
    if (!s.ok) throw std::invalid_argument(s.reason);
    return std::make_unique<GemmOp>(ctx(), spec);
  }

  std::unique_ptr<TimedOp> make_bandwidth(const BandwidthSpec& spec) override {
    if (spec.kind != "copy" && spec.kind != "triad")
      throw std::invalid_argument("bandwidth kind must be \"copy\" or \"triad\" (got \"" + spec.kind + "\")");
    return std::make_unique<BandwidthOp>(ctx(), spec);
  }

  Support supports(const TransferSpec& spec) const override {
    if (spec.direction == "h2d" || spec.direction == "d2h" || spec.direction == "d2d") return Support::yes();
    if (spec.direction == "p2p")
      return m_peer >= 0 ? Support::yes()
                         : Support::no("a GPU-to-GPU copy needs two GPUs, and this machine has one");
    if (spec.direction == "h2h") return Support::no("host-to-host copies are measured by the CPU backend");
    return Support::no("unknown transfer direction '" + spec.direction + "' (h2d, d2h, d2d or p2p)");
  }

  std::unique_ptr<TimedOp> make_transfer(const TransferSpec& spec) override {
    const Support s = supports(spec);
    if (!s.ok) throw std::invalid_argument(s.reason);
    if (spec.bytes == 0) throw std::invalid_argument("transfer size must be at least 1 byte");
    if (spec.direction == "p2p") return std::make_unique<PeerCopyOp>(ctx(), m_peer, spec);
    return std::make_unique<TransferOp>(ctx(), spec);
  }

  Support supports(const LayerChainSpec& spec) const override { return layer_chain_support(m_ctx, spec); }

  std::unique_ptr<TimedOp> make_layer_chain(const LayerChainSpec& spec) override {
    return make_layer_chain_op(ctx(), spec);
  }

  Support supports(const LaunchOverheadSpec& spec) const override {
    if (spec.kernels < 1 || spec.kernels > 1000000) return Support::no("the number of kernels must be 1 to 1,000,000");
    if (spec.elements < 1 || spec.elements > (std::size_t{1} << 28))
      return Support::no("elements per kernel must be 1 to 2^28");
    return Support::yes();
  }

  std::unique_ptr<TimedOp> make_launch_overhead(const LaunchOverheadSpec& spec) override {
    const Support s = supports(spec);
    if (!s.ok) throw std::invalid_argument(s.reason);
    return std::make_unique<LaunchOverheadOp>(ctx(), spec);
  }

  std::unique_ptr<HeldMemory> hold_memory(double bytes, double safety_margin_bytes) override {
    // The same rule as the page and the CPU backend (memory_hold.hpp): decided on cudaMemGetInfo's numbers, and
    // a request that cannot fit is refused with them, never attempted.
    const MemoryInfo before = memory_info();
    const HoldDecision d = check_hold(bytes, safety_margin_bytes, before, "the GPU");
    if (!d.ok) throw std::invalid_argument(d.reason);
    return std::make_unique<DeviceHeld>(m_ctx.device, bytes, before);
  }

  MemoryInfo memory_info() const override {
    use_device(m_ctx.device);
    std::size_t free_b = 0, total_b = 0;
    GPULAB_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return {static_cast<double>(total_b), static_cast<double>(free_b)};
  }

 private:
  static constexpr long long kMaxDim = 1 << 17;

  // The shared L2 flush buffer is made on first use, so a backend that only answers device_info allocates nothing.
  DeviceCtx ctx() {
    use_device(m_ctx.device);
    std::lock_guard lock(m_mutex);
    if (!m_ctx.flush) m_ctx.flush = std::make_shared<L2Flush>(m_ctx.l2_bytes, m_ctx.sms);
    return m_ctx;
  }

  DeviceCtx m_ctx;
  DeviceInfo m_info;
  Provenance m_prov;
  std::mutex m_mutex;
  int m_peer = -1;             // the GPU that GPU-to-GPU copies go to; -1 with only one GPU
  bool m_peer_direct = false;  // peer access enabled (else the driver stages through the host)
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(int device) { return std::make_unique<CudaBackend>(device); }

}  // namespace gpulab::cuda
