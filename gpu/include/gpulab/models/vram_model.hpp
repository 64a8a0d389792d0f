#pragma once
// What has to sit in VRAM (lesson 17.1, "Why the model must fit in VRAM"): weights, the KV cache, activations,
// and for training the gradients and optimizer state. All sizes are bytes; GB in this project means 1e9 bytes
// (the lesson's arithmetic: 24 GB card - 14 GB of FP16 weights = 10 GB left).
#include "gpulab/models/number_format.hpp"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace gpulab::models {

inline constexpr double bytes_per_gb = 1e9;

// ---- model shapes ---------------------------------------------------------------------------------------------
// The figures a memory estimate needs. kv_heads < attention_heads is grouped-query attention (GQA): the cache
// then stores only kv_heads key/value heads per layer.
struct ModelShape {
  std::string_view id;       // "llama-2-7b"
  std::string_view label;    // "Llama 2 7B"
  double params = 0;         // total parameters
  int layers = 0;
  int hidden = 0;            // model width d_model
  int attention_heads = 0;
  int kv_heads = 0;
  int head_dim = 0;
  int intermediate = 0;      // feed-forward width
  std::string_view source;   // where the figures come from
};

// Llama 3.2 1B / 3B, Llama 2 7B / 13B / 70B, Llama 3 8B / 70B, and "lesson-7b": exactly 7e9 parameters with
// the Llama 2 7B shape (the lesson's running example rounds 6.74B to 7B).
std::span<const ModelShape> model_presets();
// By id ("llama-3-8b") or label, case-insensitive; nullptr when unknown.
const ModelShape* find_preset(std::string_view name);
// The preset whose parameter count is nearest (in ratio) to `params`: a shape to assume when only a size is known.
const ModelShape& nearest_preset(double params);

// ---- the parts -----------------------------------------------------------------------------------------------
// params × bytes per parameter. Lesson, 7B: 28.0 / 14.0 / 7.0 / 3.5 GB for FP32 / FP16-BF16 / INT8 / INT4.
double weight_bytes(double params, NumberFormat f);

// KV cache for one token: 2 (K and V) · layers · kv_heads · head_dim · bytes per element.
// Llama-2-7B-like (32 layers, 32 KV heads, head_dim 128, FP16): 524,288 bytes = 0.5 MiB per token.
double kv_bytes_per_token(int layers, int kv_heads, int head_dim, double bytes_per_element);
// ... times context tokens times concurrent users. The same model at 4,096 tokens, 1 user: 2 GiB exactly.
double kv_cache_bytes(int layers, int kv_heads, int head_dim, double context, double users, double bytes_per_element);

// Bytes one stored KV-cache value takes in format f. FP16 2 and FP8 1 (vLLM's fp8 cache keeps one scale per
// tensor: nothing per value); INT4 carries its scales: llama.cpp's q4_0 stores 32 values in 18 bytes (16 bytes of
// 4-bit values + one FP16 scale), 4.5 bits a value, so an INT4 cache is 4.5/16 = 28.1 % of FP16's, not 25 %.
double kv_bytes_per_value(NumberFormat f);

// Serving engines prefill a long prompt in chunks, not all at once: llama.cpp's physical batch (-ub) is 512 tokens
// by default, vLLM's chunked prefill caps the tokens of one step likewise. The working space follows the chunk.
inline constexpr double default_prefill_chunk_tokens = 512;

// Inference activations, a working-set estimate (not saved for backprop). Rule: while a step processes `tokens`
// tokens at once, the largest live tensors in one layer are the residual stream (hidden) and the gated MLP's two
// intermediate tensors (gate and up, 2·intermediate), so
//   tokens · (hidden + 2 · intermediate) · bytes.
// Attention scores are assumed fused (FlashAttention-style), so there is no tokens² term. Layers run in turn,
// so only one layer's worth is live. intermediate <= 0 falls back to 4·hidden (the classic MLP ratio).
double inference_activation_bytes(double users, double tokens, int hidden, int intermediate, double bytes);
// The tokens one serving step holds activations for: every user's whole context when nothing is chunked, else the
// prefill chunk — but never fewer than one token per user (a decode step). users · context when chunk <= 0.
double inference_step_tokens(double users, double context, double prefill_chunk_tokens);

// Training activations saved for the backward pass, from Korthikanti et al. 2022, "Reducing Activation
// Recomputation in Large Transformer Models" (arXiv:2205.05198), eq. 1 with 16-bit activations:
//   per layer s·b·h·(34 + 5·a·s/h) bytes. With fused attention the 5·a·s/h (scores) term is not stored,
//   leaving 34·s·b·h per layer (scaled by bytes/2 for other formats). With full activation checkpointing only
//   each layer's input (2·s·b·h) is kept, plus one layer recomputed at a time (34·s·b·h).
double training_activation_bytes(double batch, double seq, int hidden, int layers, double bytes, bool checkpointing);

// Full-training state with Adam. Mixed precision (FP16/BF16 weights): weights 2 + gradients 2 + FP32 master 4 +
// Adam m 4 + Adam v 4 = 16 bytes/param (lesson: ~112 GB for 7B). FP32 training has no separate master copy:
// 4 + 4 + 4 + 4 = 16 as well. Other formats: weights and gradients in that format, FP32 master and moments.
// Full training keeps its state in 16/32-bit floats: the gradients and Adam's moments need the range and the small
// steps that INT8, INT4 (and FP8 as a stored format) do not have. nullptr when full training in `f` is real,
// else the reason and what to do instead (for INT4/INT8: QLoRA, a frozen quantised base with 16-bit adapters).
const char* full_training_refusal(NumberFormat f);

// The context (tokens per conversation) the VRAM page and `calc vram` assume when none is given: one default,
// said in both. Inference: the KV cache length; training and LoRA: the sequence length.
inline constexpr double default_context_tokens = 4096;

struct TrainingState {
  double weights = 0;
  double gradients = 0;
  double master_weights = 0;
  double adam_m = 0;
  double adam_v = 0;
  double total() const { return weights + gradients + master_weights + adam_m + adam_v; }
};
TrainingState training_state_bytes(double params, NumberFormat weights_format);

// ---- LoRA -----------------------------------------------------------------------------------------------------
// Which weight matrices get a rank-r adapter (A: d_in×r, B: r×d_out, so r·(d_in + d_out) parameters each).
enum class LoraTargets {
  qv,          // query and value projections (the LoRA paper's default, Hu et al. 2021, arXiv:2106.09685)
  qkvo,        // all four attention projections
  all_linear,  // attention plus the gated MLP's gate, up and down projections
};
// Trainable adapter parameters. Llama 2 7B, r = 8, q and v: 32 · 8 · (8192 + 8192) = 4,194,304 (the figure
// Hugging Face PEFT prints for that setup).
double lora_adapter_params(const ModelShape& shape, int rank, LoraTargets targets);
// Adapters are trained with the full mixed-precision Adam state: 16 bytes per adapter parameter.
inline constexpr double lora_bytes_per_trainable_param = 16.0;

// ---- the budget -----------------------------------------------------------------------------------------------
enum class VramMode { inference, train, lora };
// LoRA over a 4-bit frozen base is QLoRA (Dettmers et al. 2023, arXiv:2305.14314): the adapters stay 16-bit.
const char* mode_name(VramMode m);  // "inference", "train", "lora"
inline bool is_qlora(VramMode m, NumberFormat base) { return m == VramMode::lora && base == NumberFormat::int4; }
// Whether fine-tuning recipes as people run them turn activation (gradient) checkpointing on: they do, for full
// fine-tunes, LoRA and QLoRA alike — torchtune's llama2/7B_full_low_memory, 7B_lora_single_device and
// 7B_qlora_single_device configs set enable_activation_checkpointing: True, and QLoRA's reference script
// (artidoro/qlora, qlora.py) defaults gradient_checkpointing to True. The pages, the running example and
// `calc vram` start from this, and say so; without it a 7B LoRA's saved activations at 4,096 tokens (~18 GB)
// outweigh its frozen base. Inference saves no activations for a backward pass: false.
constexpr bool recipe_checkpointing(VramMode m) { return m != VramMode::inference; }

// Training FLOPs per parameter per token: 2 forward + 4 backward = 6 (Kaplan et al. 2020, "Scaling Laws for Neural
// Language Models"); with full activation checkpointing every layer's forward runs again in the backward pass,
// 2 more: 8 (Korthikanti et al. 2022 count the same recomputation). The training-vs-inference page's speed limit
// divides the peak by this.
constexpr double training_flops_per_param_token(bool checkpointing) { return checkpointing ? 8.0 : 6.0; }

struct VramInputs {
  ModelShape shape{};                                // params and architecture (params is used for weights)
  NumberFormat weights_format = NumberFormat::fp16;  // stored weights (the frozen base, for LoRA)
  VramMode mode = VramMode::inference;
  double context = 0;   // tokens per sequence (KV cache length for inference, sequence length for training)
  double users = 1;     // concurrent conversations (inference) or sequences per step (training)
  NumberFormat kv_format = NumberFormat::fp16;          // KV cache elements
  NumberFormat activation_format = NumberFormat::fp16;  // activations (weights may be INT4, maths is 16-bit)
  bool include_activations = true;
  // Inference: a prompt is prefilled this many tokens at a time (0: all of every context at once).
  double prefill_chunk_tokens = default_prefill_chunk_tokens;
  bool activation_checkpointing = false;                // training / LoRA only
  double overhead_bytes = 1e9;  // CUDA context, framework workspace, fragmentation: a fixed guess, adjustable
  int lora_rank = 16;
  LoraTargets lora_targets = LoraTargets::qkvo;
};

struct VramBudget {
  double weights = 0;         // weights (frozen base for LoRA; working copy for training)
  double kv_cache = 0;        // inference only
  double activations = 0;
  double gradients = 0;       // training only
  double master_weights = 0;  // training only (mixed precision)
  double optimizer = 0;       // Adam m + v (training only)
  double adapter = 0;         // LoRA: adapter weights + grads + master + Adam, 16 B per adapter param
  double adapter_params = 0;  // LoRA: how many trainable parameters
  double overhead = 0;
  double total = 0;
  double card = 0;            // bytes of VRAM on the card compared against
  bool fits = false;          // total <= card
  double headroom() const { return card - total; }                          // negative when short
  double short_by() const { return total > card ? total - card : 0.0; }
  double free_after_weights() const { return card - weights; }              // the lesson's "10 GB left"
};

VramBudget vram_budget(const VramInputs& in, double card_bytes);

// The longest context (tokens, per user) that still fits with in.users users, searching 1..max_context.
// 0 when even one token does not fit.
std::int64_t max_context_that_fits(const VramInputs& in, double card_bytes, std::int64_t max_context = 1 << 24);
// The most users (sequences) that fit at in.context tokens each, searching 1..max_users; 0 when none fits.
std::int64_t max_users_that_fit(const VramInputs& in, double card_bytes, std::int64_t max_users = 1 << 20);

// ---- KV-cache formats ------------------------------------------------------------------------------------------
// The formats a server stores its KV cache in (issue 28): FP16 (as the model computes), FP8 (vLLM's fp8 cache, one
// byte a value) and INT4 (half a byte; llama.cpp's q4 caches, KIVI-style quantisation). The VRAM page and
// `calc vram --kv-precision` offer these three, in this order.
std::span<const NumberFormat> kv_cache_formats();

// What one KV format does to the budget `in` describes (inference): bytes per token of one conversation's cache, the
// longest context that fits with in.users users, and the most users that fit at in.context tokens each.
struct KvFormatFit {
  NumberFormat format = NumberFormat::fp16;
  double bytes_per_token = 0;       // one conversation's cache per token: 2 · layers · kv_heads · head_dim · kv bytes
  std::int64_t max_context = 0;     // tokens per user, with in.users users (0: not one token fits)
  std::int64_t max_users = 0;       // at in.context tokens each (0: not one user fits)
};
// The same inputs with the cache in each of kv_cache_formats(), weights and everything else unchanged. The lesson's
// 7B in FP16 on the 24 GB shop card, 1 user at 4,096 tokens: FP16 17,115 tokens / 4 users, FP8 34,230 / 8, INT4
// 60,853 / 14 — FP8 doubles what fits, INT4 (with its scales) 3.6× (worked by hand in
// tests/unit/test_models_vram.cpp). Searches up to max_context and max_users.
std::vector<KvFormatFit> kv_format_fits(const VramInputs& in, double card_bytes, std::int64_t max_context = 1 << 24,
                                        std::int64_t max_users = 1 << 16);

}  // namespace gpulab::models
