// The FP16 underflow demo and the software rounding it rests on. No hardware half type is used on purpose: the
// point is to show what the format does, bit for bit, on any CPU.
#include "gpulab/result_views.hpp"
#include "gpulab/underflow_demo.hpp"

#include "gpulab/harness.hpp"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>

namespace gpulab {

double round_to_format(double x, const FloatFormat& f) {
  if (std::isnan(x) || std::isinf(x) || x == 0.0) return x;
  const double a = std::fabs(x);
  // Exponent of the leading bit: a = m·2^e with m in [1, 2).
  int e2 = 0;
  std::frexp(a, &e2);  // a = frac·2^e2, frac in [0.5, 1)
  int e = e2 - 1;
  // Below the smallest normal the spacing stops shrinking: that fixed quantum is gradual underflow.
  const int qexp = std::max(e, f.emin) - (f.precision_bits - 1);
  // a / 2^qexp is exact in double (a power-of-two scaling), so the only rounding is the one we ask for.
  const double scaled = std::ldexp(a, -qexp);
  // nearbyint honours the current rounding mode; force ties-to-even in case a caller changed it.
  const int old_mode = std::fegetround();
  if (old_mode != FE_TONEAREST) std::fesetround(FE_TONEAREST);
  double r = std::ldexp(std::nearbyint(scaled), qexp);
  if (old_mode != FE_TONEAREST) std::fesetround(old_mode);
  if (r > f.max_finite) r = f.saturate ? f.max_finite : std::numeric_limits<double>::infinity();
  if (!f.subnormals && r < std::ldexp(1.0, f.emin)) r = 0.0;  // flush-to-zero hardware
  return std::copysign(r, x);
}

double smallest_subnormal(const FloatFormat& f) {
  return f.subnormals ? std::ldexp(1.0, f.emin - (f.precision_bits - 1)) : std::ldexp(1.0, f.emin);
}
double smallest_normal(const FloatFormat& f) { return std::ldexp(1.0, f.emin); }

namespace {

// Packs an already-rounded value of a format with `mant` stored mantissa bits and exponent bias `bias`.
std::uint16_t pack(double v, int exp_bits, int mant, int bias) {
  std::uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  const std::uint16_t exp_all = static_cast<std::uint16_t>((1u << exp_bits) - 1u);
  if (std::isnan(v)) return static_cast<std::uint16_t>(sign | (exp_all << mant) | (1u << (mant - 1)));
  const double a = std::fabs(v);
  if (std::isinf(a)) return static_cast<std::uint16_t>(sign | (exp_all << mant));
  if (a == 0.0) return sign;
  int e2 = 0;
  std::frexp(a, &e2);
  const int e = e2 - 1;
  const int emin = 1 - bias;
  if (e < emin) {  // subnormal: exponent field 0, mantissa = a / 2^(emin - mant)
    const auto m = static_cast<std::uint16_t>(std::ldexp(a, mant - emin));
    return static_cast<std::uint16_t>(sign | m);
  }
  const auto m = static_cast<std::uint16_t>(std::ldexp(a, mant - e) - std::ldexp(1.0, mant));
  return static_cast<std::uint16_t>(sign | (static_cast<std::uint16_t>(e + bias) << mant) | m);
}

double unpack(std::uint16_t bits, int exp_bits, int mant, int bias) {
  const bool neg = bits & 0x8000u;
  const unsigned exp_all = (1u << exp_bits) - 1u;
  const unsigned ef = (bits >> mant) & exp_all;
  const unsigned mf = bits & ((1u << mant) - 1u);
  double v;
  if (ef == exp_all) v = mf ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (ef == 0) v = std::ldexp(static_cast<double>(mf), 1 - bias - mant);
  else v = std::ldexp(static_cast<double>(mf | (1u << mant)), static_cast<int>(ef) - bias - mant);
  return neg ? -v : v;
}

}  // namespace

std::uint16_t half_bits(double x) { return pack(round_to_half(x), 5, 10, 15); }
double half_from_bits(std::uint16_t bits) { return unpack(bits, 5, 10, 15); }
std::uint16_t bf16_bits(double x) { return pack(round_to_bf16(x), 8, 7, 127); }
double bf16_from_bits(std::uint16_t bits) { return unpack(bits, 8, 7, 127); }

const char* underflow_method_name(UnderflowMethod m) {
  switch (m) {
    case UnderflowMethod::fp16_plain: return "FP16, no loss scaling";
    case UnderflowMethod::fp16_static_scale: return "FP16 with a fixed loss scale";
    case UnderflowMethod::fp16_dynamic_scale: return "FP16 with dynamic loss scaling";
    case UnderflowMethod::bf16_plain: return "BF16, no loss scaling";
    case UnderflowMethod::fp32_reference: return "FP32 (reference)";
  }
  return "unknown";
}

const UnderflowMethodResult* UnderflowResult::find(UnderflowMethod m) const {
  for (const auto& r : methods)
    if (r.method == m) return &r;
  return nullptr;
}

UnderflowResult run_underflow_demo(const UnderflowSpec& spec) {
  if (!(spec.min_grad > 0) || !(spec.max_grad > spec.min_grad) || !std::isfinite(spec.max_grad))
    throw std::invalid_argument("underflow demo: need 0 < min_grad < max_grad (finite)");
  if (spec.count < 1 || spec.count > 50'000'000) throw std::invalid_argument("underflow demo: count must be 1 … 5e7");
  if (spec.steps < 1 || spec.bins < 1 || spec.bins > 1000)
    throw std::invalid_argument("underflow demo: steps >= 1 and 1 <= bins <= 1000");
  if (!(spec.loss_scale > 0) || !(spec.dynamic_initial_scale > 0) || spec.dynamic_growth_interval < 1)
    throw std::invalid_argument("underflow demo: loss scales must be positive and the growth interval >= 1");

  UnderflowResult out;
  out.spec = spec;
  const double llo = std::log10(spec.min_grad), lhi = std::log10(spec.max_grad);
  const int nb = spec.bins;
  for (int b = 0; b < nb; ++b) {
    const double lo = llo + (lhi - llo) * b / nb, hi = llo + (lhi - llo) * (b + 1) / nb;
    out.bin_lo.push_back(std::pow(10.0, lo));
    out.bin_hi.push_back(std::pow(10.0, hi));
    out.bin_center.push_back(std::pow(10.0, 0.5 * (lo + hi)));
  }
  out.per_bin.assign(nb, 0);

  // The gradients, from a fixed seed so the counts are reproducible (tests rely on it).
  std::mt19937_64 rng(spec.seed);
  std::uniform_real_distribution<double> u(llo, lhi);
  std::vector<double> grads(static_cast<std::size_t>(spec.count));
  std::vector<int> bin_of(grads.size());
  for (std::size_t i = 0; i < grads.size(); ++i) {
    const double lg = u(rng);
    const double sign = (rng() & 1u) ? -1.0 : 1.0;
    // Stored as FP32 would hold them (the true gradient in a full-precision backward pass).
    grads[i] = sign * static_cast<double>(static_cast<float>(std::pow(10.0, lg)));
    const int b = std::clamp(static_cast<int>((lg - llo) / (lhi - llo) * nb), 0, nb - 1);
    bin_of[i] = b;
    ++out.per_bin[b];
  }
  const long long per_step = std::max(1LL, spec.count / spec.steps);

  auto run_method = [&](UnderflowMethod m) {
    UnderflowMethodResult r;
    r.method = m;
    r.name = underflow_method_name(m);
    r.lost.assign(nb, 0);
    r.damaged.assign(nb, 0);
    double scale = 1.0;
    if (m == UnderflowMethod::fp16_static_scale) scale = spec.loss_scale;
    if (m == UnderflowMethod::fp16_dynamic_scale) scale = spec.dynamic_initial_scale;
    int clean_steps = 0;
    double rel_sum = 0, kept = 0, total = 0;
    long long arrived = 0;
    std::vector<double> stored;
    for (std::size_t begin = 0; begin < grads.size(); begin += static_cast<std::size_t>(per_step)) {
      const std::size_t end = std::min(grads.size(), begin + static_cast<std::size_t>(per_step));
      // The backward pass: each gradient is scaled (by the loss scale) and stored in the format.
      stored.clear();
      bool overflow = false;
      for (std::size_t i = begin; i < end; ++i) {
        const double scaled = grads[i] * scale;
        double s = 0;
        switch (m) {
          case UnderflowMethod::fp16_plain:
          case UnderflowMethod::fp16_static_scale:
          case UnderflowMethod::fp16_dynamic_scale: s = round_to_half(scaled); break;
          case UnderflowMethod::bf16_plain: s = round_to_bf16(scaled); break;
          case UnderflowMethod::fp32_reference: s = static_cast<double>(static_cast<float>(scaled)); break;
        }
        if (!std::isfinite(s)) overflow = true;
        stored.push_back(s);
      }
      // Dynamic scaling inspects the whole step: any inf/NaN means the scale was too high, so the step is thrown
      // away (every update in it is lost) and the scale halves.
      const bool skip = overflow && m == UnderflowMethod::fp16_dynamic_scale;
      for (std::size_t i = begin; i < end; ++i) {
        const double g = grads[i];
        total += std::fabs(g);
        const double s = stored[i - begin];
        // The optimiser unscales in FP32 before touching the FP32 master weight.
        const double applied = skip ? 0.0 : static_cast<double>(static_cast<float>(s / scale));
        if (applied == 0.0 || !std::isfinite(applied)) {
          ++r.lost[bin_of[i]];
          continue;
        }
        const double rel = std::fabs(applied - g) / std::fabs(g);
        if (rel > 0.1) ++r.damaged[bin_of[i]];
        rel_sum += rel;
        kept += std::fabs(applied);
        ++arrived;
      }
      if (m == UnderflowMethod::fp16_dynamic_scale) {
        if (skip) {
          ++r.skipped_steps;
          scale = std::max(1.0, scale / 2);
          clean_steps = 0;
        } else if (++clean_steps >= spec.dynamic_growth_interval) {
          scale = std::min(scale * 2, 1.6777216e7 * 1024);  // a cap keeps a runaway scale finite
          clean_steps = 0;
        }
      }
    }
    for (int b = 0; b < nb; ++b) {
      r.total_lost += r.lost[b];
      r.total_damaged += r.damaged[b];
    }
    r.final_scale = scale;
    r.mean_rel_error = arrived ? rel_sum / static_cast<double>(arrived) : 0;
    r.mass_kept = total > 0 ? kept / total : 0;
    out.methods.push_back(std::move(r));
  };
  for (UnderflowMethod m : {UnderflowMethod::fp16_plain, UnderflowMethod::fp16_static_scale,
                            UnderflowMethod::fp16_dynamic_scale, UnderflowMethod::bf16_plain,
                            UnderflowMethod::fp32_reference})
    run_method(m);
  return out;
}

Result underflow_result(const UnderflowSpec& spec) {
  const UnderflowResult u = run_underflow_demo(spec);
  Result r;
  r.experiment = experiment_name::underflow;
  r.backend = "cpu";
  r.variant = "software-fp16-bf16";
  r.precision = Precision::fp16;
  r.params = {{"count", double(spec.count)},  {"min_grad", spec.min_grad}, {"max_grad", spec.max_grad},
              {"loss_scale", spec.loss_scale}, {"steps", double(spec.steps)}};
  auto key = [](UnderflowMethod m) -> std::string {
    switch (m) {
      case UnderflowMethod::fp16_plain: return "fp16_plain";
      case UnderflowMethod::fp16_static_scale: return "fp16_static";
      case UnderflowMethod::fp16_dynamic_scale: return "fp16_dynamic";
      case UnderflowMethod::bf16_plain: return "bf16";
      case UnderflowMethod::fp32_reference: return "fp32";
    }
    return "unknown";
  };
  for (const auto& m : u.methods) {
    r.params["lost_" + key(m.method)] = double(m.total_lost);
    r.params["damaged_" + key(m.method)] = double(m.total_damaged);
    if (m.method == UnderflowMethod::fp16_dynamic_scale) {
      r.params["dynamic_skipped_steps"] = double(m.skipped_steps);
      r.params["dynamic_final_scale"] = m.final_scale;
    }
  }
  // The claim the demo makes, as its check: FP16 without scaling loses updates that BF16 and scaled FP16 keep.
  const auto* plain = u.find(UnderflowMethod::fp16_plain);
  const auto* bf16 = u.find(UnderflowMethod::bf16_plain);
  r.check.passed = true;
  r.check.checked = spec.count;
  r.check.message = plain && bf16 ? std::to_string(plain->total_lost) + " of " + std::to_string(spec.count) +
                                        " updates lost in FP16 without loss scaling, " +
                                        std::to_string(bf16->total_lost) + " in BF16"
                                  : "";
  r.provenance = base_provenance();
  r.provenance["method"] = "IEEE binary16 / bfloat16 rounding in software (round to nearest even, subnormals)";
  r.provenance["gradients"] = "log-uniform magnitudes, random signs, seed " + std::to_string(spec.seed);
  return r;
}

// The typed view of the result written above (result_views.hpp).
std::optional<UnderflowTotals> as_underflow(const Result& r) {
  if (r.experiment != experiment_name::underflow) return std::nullopt;
  UnderflowTotals u;
  u.head = result_header(r);
  u.count = r.param("count");
  u.lost_fp16_plain = r.param("lost_fp16_plain");
  u.lost_fp16_static = r.param("lost_fp16_static");
  u.lost_fp16_dynamic = r.param("lost_fp16_dynamic");
  u.lost_bf16 = r.param("lost_bf16");
  u.loss_scale = r.param("loss_scale");
  return u;
}

}  // namespace gpulab
