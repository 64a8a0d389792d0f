// `calc vram`: what has to sit in VRAM (the VRAM page's model from the command line), mixtures of experts and
// KV-cache formats included.
#include "calc_support.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/vram_model.hpp"

#include <iostream>

namespace gpulab::calc_cli {

using namespace gpulab::models;

// ---- calc vram ----------------------------------------------------------------------------------------------
namespace {

// Why an option given cannot change this budget (empty when every one can): each is refused with its reason
// rather than ignored. The shape's sizes reach only some parts: K/V heads and head dim the KV cache (inference)
// and LoRA's K and V adapters; the FFN width the inference activations and LoRA's all-linear adapters.
std::string inapplicable_vram_option(const Flags& f, VramMode mode, LoraTargets targets) {
  const bool activations = !f.on("no-activations");
  const bool inference = mode == VramMode::inference, train = mode == VramMode::train;
  if (!inference && !activations)
    for (const char* name : {"context", "users", "checkpointing", "no-checkpointing"})
      if (f.has(name))
        return std::string("--") + name + " sizes the activations saved for backprop, which --no-activations leaves out";
  if (inference && !activations)
    for (const char* name : {"hidden", "intermediate"})
      if (f.has(name))
        return std::string("--") + name + " sizes only the activations in inference, which --no-activations leaves out";
  if (train)
    for (const char* name : {"kv-heads", "head-dim"})
      if (f.has(name))
        return std::string("--") + name + " sizes the KV cache (inference) and LoRA's K and V adapters; full "
               "training counts neither (--mode inference or lora)";
  if (f.has("intermediate") && (train || (mode == VramMode::lora && targets != LoraTargets::all_linear)))
    return "--intermediate (the FFN width) counts in the inference activations and LoRA's all-linear adapters "
           "only (--mode lora --lora-targets all)";
  return {};
}

}  // namespace

int calc_vram(const Flags& f) {
  Reader r{f, {}};
  std::optional<double> params, context, users, layers, kv_heads, head_dim, hidden, intermediate, card_gb, overhead_gb,
      rank;
  std::optional<NumberFormat> precision;
  const GpuSpec* card = nullptr;
  r.number("params", 1e3, 1e13, params);
  r.number("context", 1, 1e8, context, true);
  r.number("users", 1, 1e6, users, true);
  r.number("layers", 1, 1000, layers, true);
  r.number("kv-heads", 1, 1024, kv_heads, true);
  r.number("head-dim", 1, 4096, head_dim, true);
  r.number("hidden", 1, 1e6, hidden, true);
  r.number("intermediate", 1, 1e7, intermediate, true);
  r.number("card-gb", 1e-3, 1e5, card_gb);
  r.number("overhead-gb", 0, 1e5, overhead_gb);
  r.number("lora-rank", 1, 65536, rank, true);
  std::optional<double> active;
  r.number("active-params", 1e3, 1e13, active);
  std::optional<NumberFormat> kv_precision;
  r.format("kv-precision", kv_precision);
  r.format("precision", precision);
  r.card("card", card);
  if (!r.error.empty()) return usage_error(r.error);
  if (card && card_gb) return usage_error("give --card or --card-gb, not both");
  // A KV cache is kept in 16 bits or fewer (FP8 and INT4 caches halve and quarter it); FP32 is no serving format.
  if (kv_precision && (*kv_precision == NumberFormat::fp32 || *kv_precision == NumberFormat::fp64))
    return usage_error("--kv-precision: '" + std::string(format_name(*kv_precision)) + "' is not a KV-cache format "
                       "(fp16, bf16, fp8, int8, int4)");

  VramInputs in;
  std::string shape_note;
  if (const std::string* m = f.value("model")) {
    const ModelShape* preset = find_preset(*m);
    // A mixture of experts: its shape, and the active parameters unless --active-params says otherwise.
    if (const MoeModel* moe = preset ? nullptr : find_moe_preset(*m)) {
      preset = &moe->shape;
      if (!active) active = moe->active_params;
    }
    if (!preset) {
      std::string known;
      for (const auto& p : model_presets()) known += (known.empty() ? "" : ", ") + std::string(p.id);
      for (const auto& p : moe_presets()) known += ", " + std::string(p.shape.id);
      return usage_error("--model: unknown model '" + *m + "' (known: " + known + ")");
    }
    in.shape = *preset;
    shape_note = "preset " + std::string(preset->label);
  } else if (params) {
    in.shape = nearest_preset(*params);
    shape_note = "assumed: the nearest preset, " + std::string(in.shape.label) +
                 "; --layers/--kv-heads/--head-dim/--hidden change it";
  } else {
    return usage_error("calc vram needs --params N or --model NAME");
  }
  if (params) in.shape.params = *params;
  if (active && *active > in.shape.params)
    return usage_error("--active-params " + Reader::num(*active) + " is more than the model's " +
                       Reader::num(in.shape.params) + " parameters");
  if (layers) in.shape.layers = static_cast<int>(*layers);
  if (kv_heads) in.shape.kv_heads = static_cast<int>(*kv_heads);
  if (head_dim) in.shape.head_dim = static_cast<int>(*head_dim);
  if (hidden) in.shape.hidden = static_cast<int>(*hidden);
  if (intermediate) in.shape.intermediate = static_cast<int>(*intermediate);
  if (layers || kv_heads || head_dim || hidden || intermediate) shape_note += ", with the given overrides";
  // The query heads are not a flag: keep the preset's unless the KV heads now exceed them.
  if (in.shape.kv_heads > in.shape.attention_heads) in.shape.attention_heads = in.shape.kv_heads;

  if (const std::string* mode = f.value("mode")) {
    if (*mode == "inference") in.mode = VramMode::inference;
    else if (*mode == "train") in.mode = VramMode::train;
    else if (*mode == "lora") in.mode = VramMode::lora;
    else return usage_error("--mode: '" + *mode + "' is not inference, train or lora");
  }
  if (const std::string* t = f.value("lora-targets")) {
    if (*t == "qv") in.lora_targets = LoraTargets::qv;
    else if (*t == "qkvo") in.lora_targets = LoraTargets::qkvo;
    else if (*t == "all" || *t == "all-linear") in.lora_targets = LoraTargets::all_linear;
    else return usage_error("--lora-targets: '" + *t + "' is not qv, qkvo or all");
  }
  if ((rank || f.has("lora-targets")) && in.mode != VramMode::lora) return usage_error("--lora-rank/--lora-targets need --mode lora");
  if ((f.on("checkpointing") || f.on("no-checkpointing")) && in.mode == VramMode::inference)
    return usage_error("--checkpointing/--no-checkpointing are for --mode train or lora");
  if (f.on("checkpointing") && f.on("no-checkpointing")) return usage_error("--checkpointing or --no-checkpointing, not both");
  if (const std::string why = inapplicable_vram_option(f, in.mode, in.lora_targets); !why.empty()) return usage_error(why);
  // Without --precision, inference prints the weights table alone. An option that sizes the rest of the budget (the
  // KV cache, activations, overhead) asks for the budget, in the VRAM page's FP16 weights: `--kv-precision fp8`
  // once printed the weights table and left the KV cache out.
  std::string budget_asked_by;
  if (!precision && in.mode == VramMode::inference)
    for (const char* name : {"kv-precision", "context", "users", "layers", "kv-heads", "head-dim", "hidden",
                             "intermediate", "overhead-gb", "active-params", "no-activations"})
      if (f.has(name)) {
        budget_asked_by = name;
        precision = NumberFormat::fp16;
        break;
      }
  if (!precision && in.mode == VramMode::inference && params && f.has("model"))
    return usage_error("--params replaces the model's parameter count, and the weights table (no --precision) uses "
                       "nothing else of --model: give one of them, or a --precision for the budget its shape sizes");
  if (precision && in.mode == VramMode::train && !is_float_training_format(*precision))
    return usage_error(std::string("--mode train --precision ") + std::string(format_name(*precision)) + ": " +
                       full_training_refusal(*precision) + " (here: --mode lora --precision int4)");

  // The VRAM page's default context, so both give the same total for the same model (7B FP16: 17.4 GB).
  in.context = context.value_or(default_context_tokens);
  in.users = users.value_or(1);
  in.overhead_bytes = overhead_gb.value_or(1.0) * bytes_per_gb;
  in.lora_rank = static_cast<int>(rank.value_or(16));
  in.include_activations = !f.on("no-activations");
  if (kv_precision && in.mode != VramMode::inference) return usage_error("--kv-precision is for --mode inference");
  if (kv_precision) in.kv_format = *kv_precision;
  // As the pages: fine-tuning recipes checkpoint activations (recipe_checkpointing); --checkpointing is kept
  // for scripts that still pass it.
  in.activation_checkpointing = !f.on("no-checkpointing") && (f.on("checkpointing") || recipe_checkpointing(in.mode));
  const double card_bytes = card ? card->memory_bytes() : (card_gb ? *card_gb * bytes_per_gb : 0.0);
  const bool have_card = card || card_gb;
  const std::string card_label = card ? card->name : (card_gb ? Reader::num(*card_gb) + " GB card" : "");

  // Training keeps BF16 weights by default (mixed precision); LoRA an FP16 base.
  if (!precision && in.mode == VramMode::train) precision = NumberFormat::bf16;
  if (!precision && in.mode == VramMode::lora) precision = NumberFormat::fp16;
  // Inference without --precision: the lesson's weights table (the VRAM page's first picture).
  if (!precision) {
    const NumberFormat formats[] = {NumberFormat::fp32, NumberFormat::fp16, NumberFormat::int8, NumberFormat::int4};
    const char* labels[] = {"FP32", "FP16/BF16", "INT8", "INT4"};
    json rows = json::array();
    if (!f.on("json")) {
      std::cout << "Weights only (model): params x bytes per parameter, " << format_whole(in.shape.params) << " params\n";
    }
    for (int i = 0; i < 4; ++i) {
      const double w = weight_bytes(in.shape.params, formats[i]);
      json row = {{"precision", format_name(formats[i])}, {"bytes_per_param", bytes_per_value(formats[i])},
                  {"weights_bytes", w}};
      std::string fit;
      if (have_card) {
        row["fits_weights_only"] = w <= card_bytes;
        row["free_after_weights_bytes"] = card_bytes - w;
        fit = w <= card_bytes ? "  fits " + card_label + ", " + gb(card_bytes - w) + " left"
                              : "  does not fit " + card_label + " (short by " + gb(w - card_bytes) + ")";
      }
      rows.push_back(row);
      if (!f.on("json")) {
        char line[128];
        std::snprintf(line, sizeof line, "  %-10s %6s GB of weights", labels[i], format_fixed_plain(w / 1e9, 1).c_str());
        std::cout << line << fit << "\n";
      }
    }
    if (f.on("json")) {
      json j = {{"kind", "model"}, {"calc", "vram"}, {"params", in.shape.params}, {"weights", rows}};
      if (card) j["card"] = spec_json(*card);
      if (have_card) j["card_bytes"] = card_bytes;
      print_json(j);
    } else {
      std::cout << "  full mixed-precision Adam training state: ~" << format_fixed_plain(in.shape.params * 16 / 1e9, 0)
                << " GB (16 bytes/param, + activations)\n";
    }
    return k_ok;
  }

  in.weights_format = *precision;
  const VramBudget b = vram_budget(in, card_bytes);
  const double kv_per_token = kv_bytes_per_token(in.shape.layers, in.shape.kv_heads, in.shape.head_dim,
                                                 kv_bytes_per_value(in.kv_format));  // INT4 with its scales (issue 36)
  std::optional<std::int64_t> max_ctx, max_users;
  if (have_card) {
    max_users = max_users_that_fit(in, card_bytes);
    // "Longest context" only means something when there is a sequence length to grow.
    if (in.mode == VramMode::inference || in.context > 0) max_ctx = max_context_that_fits(in, card_bytes);
  }

  if (f.on("json")) {
    json j = {{"kind", "model"},
              {"calc", "vram"},
              {"mode", mode_name(in.mode)},
              {"precision", format_name(in.weights_format)},
              {"params", in.shape.params},
              {"shape",
               {{"preset", in.shape.id}, {"layers", in.shape.layers}, {"kv_heads", in.shape.kv_heads},
                {"attention_heads", in.shape.attention_heads}, {"head_dim", in.shape.head_dim},
                {"hidden", in.shape.hidden}, {"intermediate", in.shape.intermediate}}},
              {"context", static_cast<std::int64_t>(in.context)},
              {"users", static_cast<std::int64_t>(in.users)},
              {"kv_bytes_per_token", kv_per_token},
              {"bytes",
               {{"weights", b.weights}, {"kv_cache", b.kv_cache}, {"activations", b.activations},
                {"gradients", b.gradients}, {"master_weights", b.master_weights}, {"optimizer", b.optimizer},
                {"adapter", b.adapter}, {"overhead", b.overhead}, {"total", b.total}}}};
    if (!budget_asked_by.empty()) j["precision_implied_by"] = "--" + budget_asked_by;
    if (in.mode == VramMode::lora) j["adapter_params"] = b.adapter_params;
    if (in.mode == VramMode::inference) j["kv_precision"] = format_name(in.kv_format);
    if (active) {
      // A mixture of experts holds every expert (the weights above) but reads only the active ones per token.
      j["active_params"] = *active;
      j["weights_read_per_token_bytes"] = *active * bytes_per_value(in.weights_format);
    }
    if (in.mode != VramMode::inference) {
      j["activation_checkpointing"] = in.activation_checkpointing;
      j["activation_checkpointing_by"] = f.on("checkpointing")      ? "--checkpointing"
                                         : f.on("no-checkpointing") ? "--no-checkpointing"
                                                                    : "the recipe's default";
    }
    if (card) j["card"] = spec_json(*card);
    if (have_card) {
      j["card_bytes"] = card_bytes;
      j["fits"] = b.fits;
      j["headroom_bytes"] = b.headroom();
      j["short_by_bytes"] = b.short_by();
      j["free_after_weights_bytes"] = b.free_after_weights();
      j["max_users_that_fit"] = *max_users;
      if (max_ctx) j["max_context_that_fits"] = *max_ctx;
    }
    print_json(j);
    return k_ok;
  }

  auto line = [](const char* label, const std::string& value, const std::string& note = {}) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-20s %10s", label, value.c_str());
    std::cout << buf << (note.empty() ? "" : "   " + note) << "\n";
  };
  std::cout << "VRAM budget (model, not a measurement): " << mode_name(in.mode) << ", "
            << format_name(in.weights_format) << " weights, " << format_whole(in.shape.params) << " params\n";
  std::cout << "  shape: " << in.shape.layers << " layers, " << in.shape.kv_heads << " KV heads x "
            << in.shape.head_dim << " head dim, hidden " << in.shape.hidden << " (" << shape_note << ")\n";
  line("weights", gb(b.weights),
       format_fixed_plain(bytes_per_value(in.weights_format), 1) + " bytes/param" + (in.mode == VramMode::lora ? ", frozen" : "") +
           (budget_asked_by.empty() ? "" : " (FP16: --" + budget_asked_by + " asks for the budget; --precision to choose)"));
  if (in.mode == VramMode::inference)
    line("KV cache", gb(b.kv_cache),
         count_of(in.context, "token", "tokens") + (context ? "" : " (default)") + " x " +
             count_of(in.users, "user", "users") + " x " + format_whole(kv_per_token) + " B/token (" +
             std::string(format_name(in.kv_format)) + (kv_precision ? ")" : ", default; --kv-precision fp8|int4)"));
  if (active)
    line("read per token", gb(*active * bytes_per_value(in.weights_format)),
         "mixture of experts: " + format_whole(*active) + " active of " + format_whole(in.shape.params) +
             " params; VRAM holds every expert");
  if (in.mode == VramMode::train) {
    line("gradients", gb(b.gradients));
    line("training state", gb(b.weights + b.gradients + b.master_weights + b.optimizer),
         "weights + gradients + master + Adam (16 bytes/param)");
    line("FP32 master weights", gb(b.master_weights));
    line("Adam m + v", gb(b.optimizer), "FP32, 8 bytes/param");
  }
  if (in.mode == VramMode::lora)
    line("LoRA adapters", gb(b.adapter),
         format_whole(b.adapter_params) + " trainable params x 16 B (rank " + std::to_string(in.lora_rank) + ")");
  line("activations", gb(b.activations),
       !in.include_activations ? "left out (--no-activations)"
       : in.context > 0        ? (in.mode == VramMode::inference ? "prefill working set"
                                  : f.on("checkpointing") ? "saved for backprop, checkpointed (--checkpointing, as recipes do)"
                                  : in.activation_checkpointing ? "saved for backprop, checkpointed (--no-checkpointing: all)"
                                                                : "saved for backprop, every layer's (no checkpointing)")
                               : "none counted: give --context N");
  line("overhead", gb(b.overhead), "runtime + framework, a fixed guess (--overhead-gb)");
  line("total", gb(b.total));
  if (have_card) {
    std::cout << "  card: " << card_label << " (" << gb(card_bytes) << (card && card->lesson_example ? ", the lesson's example" : "")
              << ")\n";
    line("free after weights", gb(b.free_after_weights()));
    if (b.fits)
      std::cout << "  fits: yes, " << gb(b.headroom()) << " to spare\n";
    else
      std::cout << "  fits: NO, short by " << gb(b.short_by()) << "\n";
    if (max_ctx)
      std::cout << "  longest context that fits (" << count_of(in.users, "user", "users")
                << "): " << count_of(double(*max_ctx), "token", "tokens") << "\n";
    if (in.context > 0)
      std::cout << "  most " << (in.mode == VramMode::inference ? "users" : "sequences per step") << " that fit at "
                << format_whole(in.context) << " tokens: " << format_whole(double(*max_users)) << "\n";
  }
  return k_ok;
}

}  // namespace gpulab::calc_cli
