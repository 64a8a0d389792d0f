// Software emulation of a GEMM in each number format, against an FP64 reference. See precision_error.hpp.
#include "gpulab/result_views.hpp"
#include "gpulab/precision_error.hpp"

#include "gpulab/harness.hpp"
#include "gpulab/underflow_demo.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace gpulab {

namespace {

template <typename T>
double rel_fro(const T* out, const double* ref, long long count) {
  double num = 0, den = 0;
  for (long long i = 0; i < count; ++i) {
    const double o = static_cast<double>(out[i]);
    if (!std::isfinite(o)) return std::numeric_limits<double>::infinity();
    const double d = o - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  if (den == 0) return num == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::sqrt(num / den);
}

// Symmetric per-tensor INT8: q = round(x / s), s = absmax / 127, so the largest value maps to ±127.
double int8_scale(double absmax) { return absmax > 0 ? absmax / 127.0 : 1.0; }

}  // namespace

double relative_frobenius(const double* out, const double* ref, long long count) { return rel_fro(out, ref, count); }
double relative_frobenius(const float* out, const double* ref, long long count) { return rel_fro(out, ref, count); }

double round_to_precision(double x, Precision p, double absmax) {
  switch (p) {
    case Precision::fp64: return x;
    case Precision::fp32: return static_cast<double>(static_cast<float>(x));
    case Precision::tf32: return round_to_format(x, tf32_format);
    case Precision::fp16: return round_to_half(x);
    case Precision::bf16: return round_to_bf16(x);
    case Precision::fp8: return round_to_format(x, fp8_e4m3_format);
    case Precision::int8: {
      const double s = int8_scale(absmax);
      return std::clamp(std::nearbyint(x / s), -127.0, 127.0) * s;
    }
  }
  return x;
}

PrecisionError emulated_gemm_error(const PrecisionErrorSpec& spec) {
  constexpr long long limit = 1LL << 26;
  if (spec.m < 1 || spec.n < 1 || spec.k < 1)
    throw std::invalid_argument("precision error: m, n and k must be at least 1");
  if (spec.m * spec.k > limit || spec.k * spec.n > limit || spec.m * spec.n > limit)
    throw std::invalid_argument("precision error: matrices above 2^26 elements are not emulated");
  const long long m = spec.m, n = spec.n, k = spec.k;
  const Precision p = spec.precision;
  std::vector<double> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n));
  fill_random(a.data(), a.size(), spec.seed);
  fill_random(b.data(), b.size(), spec.seed ^ 0xB0B0'B0B0'B0B0'B0B0ULL);

  // The exact answer (beyond FP64 accuracy), from the unrounded inputs. B is transposed once so both loops stream.
  std::vector<double> bt(static_cast<std::size_t>(k * n));
  for (long long kk = 0; kk < k; ++kk)
    for (long long j = 0; j < n; ++j) bt[j * k + kk] = b[kk * n + j];
  std::vector<double> ref(static_cast<std::size_t>(m * n));
  for (long long i = 0; i < m; ++i)
    for (long long j = 0; j < n; ++j) {
      // Summed in long double (x86: a 64-bit mantissa), so even FP64's own rounding shows as an error.
      long double s = 0;
      const double* ai = &a[i * k];
      const double* bj = &bt[j * k];
      for (long long kk = 0; kk < k; ++kk) s += static_cast<long double>(ai[kk]) * bj[kk];
      ref[i * n + j] = static_cast<double>(s);
    }

  // Inputs as the format holds them.
  double amax = 0, bmax = 0;
  for (double v : a) amax = std::max(amax, std::fabs(v));
  for (double v : b) bmax = std::max(bmax, std::fabs(v));
  std::vector<double> aq(a.size()), bq(bt.size());
  for (std::size_t i = 0; i < a.size(); ++i) aq[i] = round_to_precision(a[i], p, amax);
  for (std::size_t i = 0; i < bt.size(); ++i) bq[i] = round_to_precision(bt[i], p, bmax);

  std::vector<double> out(ref.size());
  PrecisionError e;
  e.precision = p;
  for (long long i = 0; i < m; ++i)
    for (long long j = 0; j < n; ++j) {
      const double* ai = &aq[i * k];
      const double* bj = &bq[j * k];
      double c = 0;
      switch (p) {
        case Precision::fp64: {
          double s = 0;
          for (long long kk = 0; kk < k; ++kk) s += ai[kk] * bj[kk];
          c = s;
          break;
        }
        case Precision::int8: {
          // Integer products summed exactly, as an INT32 accumulator does for k below ~133,000 (127² · k < 2^31),
          // then one rescale to floating point.
          long long s = 0;
          const double sa = int8_scale(amax), sb = int8_scale(bmax);
          for (long long kk = 0; kk < k; ++kk)
            s += static_cast<long long>(std::nearbyint(ai[kk] / sa)) * static_cast<long long>(std::nearbyint(bj[kk] / sb));
          c = static_cast<double>(static_cast<float>(static_cast<double>(s) * sa * sb));
          break;
        }
        default: {
          // FP32, and the tensor-core formats: products of rounded inputs are exact in FP32 (their mantissas
          // are short), the running sum is FP32.
          float s = 0;
          for (long long kk = 0; kk < k; ++kk) s += static_cast<float>(ai[kk]) * static_cast<float>(bj[kk]);
          c = s;
          break;
        }
      }
      // The stored result: FP16/BF16 GEMMs usually write C in their own format; TF32/FP8/INT8 write FP32 here.
      if (p == Precision::fp16) c = round_to_half(c);
      if (p == Precision::bf16) c = round_to_bf16(c);
      out[i * n + j] = c;
    }
  double rms = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    e.max_abs = std::max(e.max_abs, std::fabs(out[i] - ref[i]));
    rms += ref[i] * ref[i];
  }
  e.ref_rms = std::sqrt(rms / static_cast<double>(out.size()));
  e.rel_frobenius = relative_frobenius(out.data(), ref.data(), static_cast<long long>(out.size()));
  e.cells = m * n;
  switch (p) {
    case Precision::fp64: e.method = "FP64 inputs, FP64 sum (the reference sums in extended precision)"; break;
    case Precision::fp32: e.method = "inputs rounded to FP32, FP32 sum"; break;
    case Precision::tf32: e.method = "inputs rounded to TF32 (10-bit mantissa), FP32 sum, FP32 result"; break;
    case Precision::fp16: e.method = "inputs rounded to FP16, FP32 sum, result rounded to FP16"; break;
    case Precision::bf16: e.method = "inputs rounded to BF16, FP32 sum, result rounded to BF16"; break;
    case Precision::fp8: e.method = "inputs rounded to FP8 E4M3, FP32 sum, FP32 result"; break;
    case Precision::int8: e.method = "per-tensor symmetric INT8 (scale = max/127), exact integer sum, FP32 result"; break;
  }
  return e;
}

Result emulated_error_result(const PrecisionErrorSpec& spec) {
  const PrecisionError e = emulated_gemm_error(spec);
  Result r;
  r.experiment = experiment_name::precision_error;
  r.backend = "cpu";
  r.variant = "emulated";
  r.precision = spec.precision;
  r.params = {{"m", double(spec.m)}, {"n", double(spec.n)}, {"k", double(spec.k)},
              {"rel_frobenius", e.rel_frobenius}, {"ref_rms", e.ref_rms}};
  r.check.passed = true;
  r.check.max_abs_err = e.max_abs;
  r.check.checked = e.cells;
  r.provenance = base_provenance();
  r.provenance["method"] = e.method;
  r.provenance["reference"] = "FP64 product of the unrounded inputs";
  r.provenance["seed"] = std::to_string(spec.seed);
  return r;
}

// The typed view of the result written above (result_views.hpp).
std::optional<PrecisionErrorPoint> as_precision_error(const Result& r) {
  if (r.experiment != experiment_name::precision_error) return std::nullopt;
  PrecisionErrorPoint p;
  p.head = result_header(r);
  p.m = std::llround(r.param("m"));
  p.n = std::llround(r.param("n"));
  p.k = std::llround(r.param("k"));
  p.rel_frobenius = r.param("rel_frobenius", -1);
  p.max_abs = r.check.checked > 0 ? r.check.max_abs_err : -1;
  return p;
}

}  // namespace gpulab
