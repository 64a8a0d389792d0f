#include "gpulab/models/vram_model.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

namespace gpulab::models {

namespace {

// Architecture figures as published by Meta: Llama 2 — Touvron et al. 2023 (arXiv:2307.09288) and the
// meta-llama/Llama-2-*-hf config.json files; Llama 3 — "The Llama 3 Herd of Models" (arXiv:2407.21783,
// table 3) and the meta-llama/Meta-Llama-3-*/config.json files; Llama 3.2 — meta-llama/Llama-3.2-1B and -3B
// config.json. Parameter counts are the exact totals those checkpoints report.
constexpr std::string_view k_llama2 = "Llama 2 paper (arXiv:2307.09288) + meta-llama config.json";
constexpr std::string_view k_llama3 = "Llama 3 Herd paper (arXiv:2407.21783) + meta-llama config.json";
constexpr std::string_view k_llama32 = "meta-llama/Llama-3.2 config.json";

constexpr std::array<ModelShape, 8> k_presets{{
    {"llama-3.2-1b", "Llama 3.2 1B", 1'235'814'400, 16, 2048, 32, 8, 64, 8192, k_llama32},
    {"llama-3.2-3b", "Llama 3.2 3B", 3'212'749'824, 28, 3072, 24, 8, 128, 8192, k_llama32},
    // The lesson's running example: "a 7-billion-parameter (7B) language model"; 7e9 exactly so the page
    // reproduces 28.0 / 14.0 / 7.0 / 3.5 GB, with the Llama 2 7B shape for the KV cache.
    {"lesson-7b", "Lesson's 7B", 7e9, 32, 4096, 32, 32, 128, 11008,
     "lesson 17.1 (7B), shape of Llama 2 7B"},
    {"llama-2-7b", "Llama 2 7B", 6'738'415'616, 32, 4096, 32, 32, 128, 11008, k_llama2},
    {"llama-3-8b", "Llama 3 8B", 8'030'261'248, 32, 4096, 32, 8, 128, 14336, k_llama3},
    {"llama-2-13b", "Llama 2 13B", 13'015'864'320, 40, 5120, 40, 40, 128, 13824, k_llama2},
    {"llama-2-70b", "Llama 2 70B", 68'976'648'192, 80, 8192, 64, 8, 128, 28672, k_llama2},
    {"llama-3-70b", "Llama 3 70B", 70'553'706'496, 80, 8192, 64, 8, 128, 28672, k_llama3},
}};

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::span<const ModelShape> model_presets() { return k_presets; }

const ModelShape* find_preset(std::string_view name) {
  for (const auto& p : k_presets)
    if (iequal(p.id, name) || iequal(p.label, name)) return &p;
  return nullptr;
}

const ModelShape& nearest_preset(double params) {
  const ModelShape* best = &k_presets[2];  // the lesson's 7B when params is meaningless
  if (!(params > 0) || !std::isfinite(params)) return *best;
  double best_distance = INFINITY;
  for (const auto& p : k_presets) {
    const double d = std::fabs(std::log(params / p.params));
    if (d < best_distance) {  // strict: on a tie the earlier (lesson) preset wins
      best_distance = d;
      best = &p;
    }
  }
  return *best;
}

double weight_bytes(double params, NumberFormat f) { return params * bytes_per_value(f); }

double kv_bytes_per_token(int layers, int kv_heads, int head_dim, double bytes_per_element) {
  // 2: one key vector and one value vector per KV head per layer.
  return 2.0 * layers * kv_heads * head_dim * bytes_per_element;
}

double kv_cache_bytes(int layers, int kv_heads, int head_dim, double context, double users,
                      double bytes_per_element) {
  return kv_bytes_per_token(layers, kv_heads, head_dim, bytes_per_element) * context * users;
}

double kv_bytes_per_value(NumberFormat f) {
  // q4_0: 32 values in 16 bytes of nibbles plus a 2-byte FP16 scale.
  if (f == NumberFormat::int4) return 18.0 / 32.0;
  return bytes_per_value(f);
}

double inference_activation_bytes(double users, double tokens, int hidden, int intermediate, double bytes) {
  const double ff = intermediate > 0 ? intermediate : 4.0 * hidden;
  return users * tokens * (hidden + 2.0 * ff) * bytes;
}

double inference_step_tokens(double users, double context, double prefill_chunk_tokens) {
  const double all = users * context;
  if (!(prefill_chunk_tokens > 0)) return all;
  return std::min(all, std::max(prefill_chunk_tokens, users));
}

double training_activation_bytes(double batch, double seq, int hidden, int layers, double bytes,
                                 bool checkpointing) {
  // Korthikanti et al.'s 34·s·b·h bytes per layer assume 2-byte activations; scale for other formats.
  const double sbh = seq * batch * hidden * (bytes / 2.0);
  if (checkpointing) return (2.0 * layers + 34.0) * sbh;
  return 34.0 * layers * sbh;
}

TrainingState training_state_bytes(double params, NumberFormat weights_format) {
  TrainingState t;
  const double b = bytes_per_value(weights_format);
  t.weights = params * b;
  t.gradients = params * b;
  // FP32 training updates the weights themselves; any narrower format keeps an FP32 master copy.
  t.master_weights = weights_format == NumberFormat::fp32 || weights_format == NumberFormat::fp64 ? 0.0 : params * 4.0;
  t.adam_m = params * 4.0;
  t.adam_v = params * 4.0;
  return t;
}

double lora_adapter_params(const ModelShape& s, int rank, LoraTargets targets) {
  const double h = s.hidden;
  const double kv = static_cast<double>(s.kv_heads) * s.head_dim;  // K and V projections are h×kv (GQA)
  const double q_dim = static_cast<double>(s.attention_heads) * s.head_dim;
  // r·(d_in + d_out) per adapted matrix.
  const double q = h + q_dim, k = h + kv, v = h + kv, o = q_dim + h;
  const double ff = s.intermediate > 0 ? s.intermediate : 4.0 * h;
  double per_layer = 0;
  switch (targets) {
    case LoraTargets::qv: per_layer = q + v; break;
    case LoraTargets::qkvo: per_layer = q + k + v + o; break;
    case LoraTargets::all_linear: per_layer = q + k + v + o + 3.0 * (h + ff); break;  // gate, up, down
  }
  return static_cast<double>(s.layers) * rank * per_layer;
}

const char* mode_name(VramMode m) {
  switch (m) {
    case VramMode::inference: return "inference";
    case VramMode::train: return "train";
    case VramMode::lora: return "lora";
  }
  return "?";
}

VramBudget vram_budget(const VramInputs& in, double card_bytes) {
  VramBudget b;
  const ModelShape& s = in.shape;
  const double act_bytes = bytes_per_value(in.activation_format);
  b.card = card_bytes;
  b.overhead = in.overhead_bytes;
  switch (in.mode) {
    case VramMode::inference:
      b.weights = weight_bytes(s.params, in.weights_format);
      b.kv_cache = kv_cache_bytes(s.layers, s.kv_heads, s.head_dim, in.context, in.users,
                                  kv_bytes_per_value(in.kv_format));
      // The working space of one step: a prefill chunk (or a decode step's one token per user), not every
      // context at once — serving engines prefill in chunks.
      if (in.include_activations)
        b.activations = inference_activation_bytes(
            1, inference_step_tokens(in.users, in.context, in.prefill_chunk_tokens), s.hidden, s.intermediate, act_bytes);
      break;
    case VramMode::train: {
      const TrainingState t = training_state_bytes(s.params, in.weights_format);
      b.weights = t.weights;
      b.gradients = t.gradients;
      b.master_weights = t.master_weights;
      b.optimizer = t.adam_m + t.adam_v;
      if (in.include_activations)
        b.activations = training_activation_bytes(in.users, in.context, s.hidden, s.layers, act_bytes,
                                                  in.activation_checkpointing);
      break;
    }
    case VramMode::lora:
      b.weights = weight_bytes(s.params, in.weights_format);  // frozen: no gradients, no optimizer state
      b.adapter_params = lora_adapter_params(s, in.lora_rank, in.lora_targets);
      b.adapter = b.adapter_params * lora_bytes_per_trainable_param;
      if (in.include_activations)
        b.activations = training_activation_bytes(in.users, in.context, s.hidden, s.layers, act_bytes,
                                                  in.activation_checkpointing);
      break;
  }
  b.total = b.weights + b.kv_cache + b.activations + b.gradients + b.master_weights + b.optimizer + b.adapter +
            b.overhead;
  b.fits = b.total <= card_bytes;
  return b;
}

namespace {
// Largest x in [1, hi] with fits(x), given fits is monotone (more tokens or users never need less memory).
template <class Fits>
std::int64_t largest_fitting(std::int64_t hi, Fits fits) {
  if (hi < 1 || !fits(1)) return 0;
  if (fits(hi)) return hi;
  std::int64_t lo = 1;  // fits(lo) holds, fits(hi) does not
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}
}  // namespace

std::int64_t max_context_that_fits(const VramInputs& in, double card_bytes, std::int64_t max_context) {
  VramInputs probe = in;
  return largest_fitting(max_context, [&](std::int64_t ctx) {
    probe.context = static_cast<double>(ctx);
    return vram_budget(probe, card_bytes).fits;
  });
}

std::int64_t max_users_that_fit(const VramInputs& in, double card_bytes, std::int64_t max_users) {
  VramInputs probe = in;
  return largest_fitting(max_users, [&](std::int64_t users) {
    probe.users = static_cast<double>(users);
    return vram_budget(probe, card_bytes).fits;
  });
}

std::span<const NumberFormat> kv_cache_formats() {
  static constexpr NumberFormat formats[] = {NumberFormat::fp16, NumberFormat::fp8, NumberFormat::int4};
  return formats;
}

std::vector<KvFormatFit> kv_format_fits(const VramInputs& in, double card_bytes, std::int64_t max_context,
                                        std::int64_t max_users) {
  std::vector<KvFormatFit> out;
  for (NumberFormat f : kv_cache_formats()) {
    VramInputs probe = in;
    probe.mode = VramMode::inference;  // only serving keeps a KV cache
    probe.kv_format = f;
    KvFormatFit fit;
    fit.format = f;
    fit.bytes_per_token = kv_bytes_per_token(in.shape.layers, in.shape.kv_heads, in.shape.head_dim, kv_bytes_per_value(f));
    fit.max_context = max_context_that_fits(probe, card_bytes, max_context);
    fit.max_users = max_users_that_fit(probe, card_bytes, max_users);
    out.push_back(fit);
  }
  return out;
}

const char* full_training_refusal(NumberFormat f) {
  if (is_float_training_format(f)) return nullptr;
  if (f == NumberFormat::fp8)
    return "full training does not keep its weights in FP8: FP8 training (Hopper's Transformer Engine) runs the "
           "matrix products in FP8 but keeps weights, gradients and Adam state in BF16/FP32 - count it as BF16";
  return "full training cannot keep its state in INT8 or INT4: gradients and Adam's moments need floating-point "
         "range and tiny steps, so they stay in 16/32 bits. What is real: QLoRA - the base frozen in 4 bits, "
         "16-bit LoRA adapters trained on top (Mode: LoRA, format INT4)";
}

}  // namespace gpulab::models
