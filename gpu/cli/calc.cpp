// `calc`: the pure models from the command line (gpulab calc ..., gpulab-bench calc ...). Everything printed here
// is a calculation ("model"), never a measurement. Input is validated strictly: an unknown flag, a missing
// value, a non-number or an absurd value prints a message on stderr and returns 2; nothing throws out of here.
#include "gpulab/cli.hpp"
#include "gpulab/models/amdahl_model.hpp"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/decode_model.hpp"
#include "gpulab/models/gemm_model.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/roofline_model.hpp"
#include "gpulab/models/rounds_model.hpp"
#include "gpulab/models/vram_model.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace gpulab {

namespace {

using namespace gpulab::models;
using nlohmann::json;

constexpr int k_ok = 0;
constexpr int k_usage = 2;

const char* const k_usage_text =
    "usage: calc <what> [options]      (every figure is a model, not a measurement)\n"
    "  calc vram      --params 7e9 | --model llama-3-8b | mixtral-8x7b  [--precision fp32|fp16|bf16|fp8|int8|int4]\n"
    "                 [--mode inference|train|lora] [--context N (default 4096, as the VRAM page)] [--users N]\n"
    "                 [--layers N] [--kv-heads N] [--head-dim N] [--hidden N] [--intermediate N]\n"
    "                 [--card NAME | --card-gb GB]\n"
    "                 [--overhead-gb GB] [--lora-rank R] [--lora-targets qv|qkvo|all]\n"
    "                 [--no-checkpointing]   (train and lora count checkpointed activations, as recipes run them)\n"
    "                 [--no-activations]     (without --precision: weights in FP32, FP16/BF16, INT8, INT4)\n"
    "                 [--kv-precision fp16|fp8|int4]  (KV cache elements; default fp16)\n"
    "                 [--active-params N]    (mixture of experts: parameters each token reads; memory holds all)\n"
    "  calc decode    --params 7e9 --bandwidth GB/s | --card NAME  [--precision fp16|int8|int4|...]\n"
    "                 [--peak-tflops T] [--users N] [--active-params N (mixture of experts)]\n"
    "  calc amdahl    --serial S [--workers N] | --fraction F --factor K\n"
    "  calc rounds    --cells N --workers N [--cell-rate CELLS/S --clerk-rate SHEETS/S]\n"
    "  calc intensity --batch B --d-in N --d-out N [--precision fp16] [--card NAME]\n"
    "  add --json to any of them for machine-readable output\n";

int usage_error(const std::string& message) {
  std::cerr << "calc: " << message << "\n(try: calc --help)\n";
  return k_usage;
}

// ---- flags ------------------------------------------------------------------------------------------------
// "--name value" or "--name=value" for value flags; bare "--name" for switches. Each flag at most once.
class Flags {
 public:
  std::string parse(const Args& args, std::size_t first, const std::set<std::string>& valued,
                    const std::set<std::string>& switches) {
    for (std::size_t i = first; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a.size() < 3 || a.compare(0, 2, "--") != 0) return "unexpected argument '" + a + "'";
      std::string name = a.substr(2);
      std::optional<std::string> inline_value;
      if (auto eq = name.find('='); eq != std::string::npos) {
        inline_value = name.substr(eq + 1);
        name.resize(eq);
      }
      if (m_values.count(name) || m_switches.count(name)) return "--" + name + " given twice";
      if (switches.count(name)) {
        if (inline_value) return "--" + name + " takes no value";
        m_switches.insert(name);
      } else if (valued.count(name)) {
        if (inline_value) {
          m_values[name] = *inline_value;
        } else {
          // A following "--flag" is a missing value, but "-5" is a (negative) value to reject later.
          if (i + 1 >= args.size() || args[i + 1].compare(0, 2, "--") == 0) return "--" + name + " needs a value";
          m_values[name] = args[++i];
        }
      } else {
        return "unknown option --" + name;
      }
    }
    return {};
  }
  bool has(const std::string& name) const { return m_values.count(name) || m_switches.count(name); }
  bool on(const std::string& name) const { return m_switches.count(name) != 0; }
  const std::string* value(const std::string& name) const {
    auto it = m_values.find(name);
    return it == m_values.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::string, std::string> m_values;
  std::set<std::string> m_switches;
};

// Whole-string decimal number (from_chars: no locale, no leading spaces, no trailing junk); finite only.
std::optional<double> to_number(const std::string& s) {
  double v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (s.empty() || ec != std::errc() || p != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Reads a number flag into `out` if present, checking [lo, hi] (and wholeness); an error message otherwise.
struct Reader {
  const Flags& flags;
  std::string error;

  bool number(const std::string& name, double lo, double hi, std::optional<double>& out, bool whole = false) {
    const std::string* text = flags.value(name);
    if (!text) return true;
    std::optional<double> v = to_number(*text);
    if (!v) return fail("--" + name + ": '" + *text + "' is not a number");
    if (whole && *v != std::floor(*v)) return fail("--" + name + ": '" + *text + "' must be a whole number");
    if (*v < lo || *v > hi) return fail("--" + name + ": " + *text + " is out of range [" + num(lo) + ", " + num(hi) + "]");
    out = v;
    return true;
  }
  bool format(const std::string& name, std::optional<NumberFormat>& out) {
    const std::string* text = flags.value(name);
    if (!text) return true;
    out = format_from_string(*text);
    if (!out) return fail("--" + name + ": unknown precision '" + *text + "' (fp32, fp16, bf16, fp8, int8, int4)");
    return true;
  }
  bool card(const std::string& name, const GpuSpec*& out) {
    const std::string* text = flags.value(name);
    if (!text) return true;
    if (*text == "shop" || *text == "shop card") {
      out = &shop_card();
      return true;
    }
    out = find_gpu(*text);
    if (!out) {
      std::string known;
      for (const auto& g : catalogue()) known += (known.empty() ? "" : ", ") + g.name;
      return fail("--" + name + ": no catalogue GPU matches '" + *text + "' (known: " + known + ", shop)");
    }
    return true;
  }
  bool fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return false;
  }
  static std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }
};

// ---- formatting (local: the models' output needs only these few) --------------------------------------------
std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// 131072 -> "131,072" (rounded to a whole number first).
std::string grouped(double v) {
  if (!std::isfinite(v)) return v > 0 ? "unbounded" : "n/a";
  const bool negative = v < 0;
  std::string digits = fixed(std::fabs(std::round(v)), 0);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

// Decimal GB with one decimal, as the lesson prints weights (28.0 / 14.0 / 7.0 / 3.5 GB); MB below 1 GB.
std::string gb(double bytes) {
  if (bytes == 0 || std::fabs(bytes) >= 0.995e9) return fixed(bytes / 1e9, 1) + " GB";
  return fixed(bytes / 1e6, 1) + " MB";
}

// SI prefix with 3 significant digits: 3.35e12 FLOP/s -> "3.35 TFLOP/s".
std::string si(double v, const std::string& unit) {
  static const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int p = 0;
  double x = v;
  while (std::fabs(x) >= 999.5 && p < 6) {
    x /= 1000;
    ++p;
  }
  const int decimals = std::fabs(x) >= 99.95 ? 0 : (std::fabs(x) >= 9.995 ? 1 : 2);
  return fixed(x, decimals) + " " + prefixes[p] + unit;
}

// "1 user", "4 users".
std::string count_of(double n, const std::string& singular, const std::string& plural) {
  return grouped(n) + " " + (std::round(n) == 1 ? singular : plural);
}

// Tokens per second as the lesson prints them: whole tokens from 100 up (239), one decimal below (3.6).
std::string tokens(double t) { return t >= 99.5 ? grouped(t) : fixed(t, 1); }

void print_json(const json& j) { std::cout << j.dump(2) << "\n"; }

json spec_json(const GpuSpec& g) {
  return {{"name", g.name}, {"memory_gb", g.memory_gb}, {"bandwidth_gbs", g.bandwidth_gbs},
          {"lesson_example", g.lesson_example}, {"source", g.source}};
}

// ---- calc vram ----------------------------------------------------------------------------------------------
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
      std::cout << "Weights only (model): params x bytes per parameter, " << grouped(in.shape.params) << " params\n";
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
        std::snprintf(line, sizeof line, "  %-10s %6s GB of weights", labels[i], fixed(w / 1e9, 1).c_str());
        std::cout << line << fit << "\n";
      }
    }
    if (f.on("json")) {
      json j = {{"kind", "model"}, {"calc", "vram"}, {"params", in.shape.params}, {"weights", rows}};
      if (card) j["card"] = spec_json(*card);
      if (have_card) j["card_bytes"] = card_bytes;
      print_json(j);
    } else {
      std::cout << "  full mixed-precision Adam training state: ~" << fixed(in.shape.params * 16 / 1e9, 0)
                << " GB (16 bytes/param, + activations)\n";
    }
    return k_ok;
  }

  in.weights_format = *precision;
  const VramBudget b = vram_budget(in, card_bytes);
  const double kv_per_token = kv_bytes_per_token(in.shape.layers, in.shape.kv_heads, in.shape.head_dim,
                                                 bytes_per_value(in.kv_format));
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
    if (in.mode == VramMode::lora) j["adapter_params"] = b.adapter_params;
    if (in.mode == VramMode::inference) j["kv_precision"] = format_name(in.kv_format);
    if (active) {
      // A mixture of experts holds every expert (the weights above) but reads only the active ones per token.
      j["active_params"] = *active;
      j["weights_read_per_token_bytes"] = *active * bytes_per_value(in.weights_format);
    }
    if (in.mode != VramMode::inference) j["activation_checkpointing"] = in.activation_checkpointing;
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
            << format_name(in.weights_format) << " weights, " << grouped(in.shape.params) << " params\n";
  std::cout << "  shape: " << in.shape.layers << " layers, " << in.shape.kv_heads << " KV heads x "
            << in.shape.head_dim << " head dim, hidden " << in.shape.hidden << " (" << shape_note << ")\n";
  line("weights", gb(b.weights),
       fixed(bytes_per_value(in.weights_format), 1) + " bytes/param" + (in.mode == VramMode::lora ? ", frozen" : ""));
  if (in.mode == VramMode::inference)
    line("KV cache", gb(b.kv_cache),
         count_of(in.context, "token", "tokens") + (context ? "" : " (default)") + " x " +
             count_of(in.users, "user", "users") + " x " + grouped(kv_per_token) + " B/token (" +
             std::string(format_name(in.kv_format)) + (kv_precision ? ")" : ", default; --kv-precision fp8|int4)"));
  if (active)
    line("read per token", gb(*active * bytes_per_value(in.weights_format)),
         "mixture of experts: " + grouped(*active) + " active of " + grouped(in.shape.params) +
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
         grouped(b.adapter_params) + " trainable params x 16 B (rank " + std::to_string(in.lora_rank) + ")");
  line("activations", gb(b.activations),
       !in.include_activations ? "left out (--no-activations)"
       : in.context > 0        ? (in.mode == VramMode::inference ? "prefill working set"
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
                << grouped(in.context) << " tokens: " << grouped(double(*max_users)) << "\n";
  }
  return k_ok;
}

// ---- calc decode --------------------------------------------------------------------------------------------
int calc_decode(const Flags& f) {
  Reader r{f, {}};
  std::optional<double> params, bandwidth, peak, users;
  std::optional<NumberFormat> precision;
  const GpuSpec* card = nullptr;
  r.number("params", 1e3, 1e13, params);
  r.number("bandwidth", 1e-3, 1e5, bandwidth);
  r.number("peak-tflops", 1e-3, 1e5, peak);
  r.number("users", 1, 1e6, users, true);
  r.format("precision", precision);
  r.card("card", card);
  if (!r.error.empty()) return usage_error(r.error);
  if (!params) return usage_error("calc decode needs --params N");
  std::optional<double> active;
  if (!r.number("active-params", 1e3, 1e13, active)) return usage_error(r.error);
  if (active && *active > *params)
    return usage_error("--active-params " + Reader::num(*active) + " is more than --params " + Reader::num(*params));
  // A mixture of experts reads (and multiplies by) only its active parameters per token; VRAM holds all of them.
  const double read = active.value_or(*params);
  if (!bandwidth && !(card && card->bandwidth_gbs > 0))
    return usage_error("calc decode needs --bandwidth GB/s (or --card NAME with a stated bandwidth)");
  const double bw_gbs = bandwidth ? *bandwidth : card->bandwidth_gbs;
  // Weight-only quantisation still does its maths in 16-bit, so the FP16 peak is the compute roof for all.
  double peak_flops = 0;
  if (peak) peak_flops = *peak * 1e12;
  else if (card && card->peak_flops_for(Precision::fp16)) peak_flops = *card->peak_flops_for(Precision::fp16);

  std::vector<NumberFormat> formats;
  if (precision) formats = {*precision};
  else formats = {NumberFormat::fp16, NumberFormat::int8, NumberFormat::int4};

  json rows = json::array();
  const bool as_json = f.on("json");
  if (!as_json) {
    std::cout << "Decode ceiling (model): tokens/s <= bandwidth / bytes per token (every weight read once per token)\n"
              << "  " << grouped(*params) << " params, " << grouped(bw_gbs) << " GB/s"
              << (card ? " (" + card->name + (bandwidth ? ", bandwidth given" : ", datasheet") + ")" : "") << "\n";
    if (active)
      std::cout << "  mixture of experts: each token reads " << grouped(*active) << " active params of "
                << grouped(*params) << "; memory still holds all of them\n";
  }
  for (NumberFormat fmt : formats) {
    const MoeDecode moe = moe_decode(*params, read, bytes_per_value(fmt), bw_gbs * 1e9);
    const double per_token = moe.bytes_per_token;
    const double ceiling = moe.ceiling_tokens_s;
    const double compute = compute_at_ceiling(read, bytes_per_value(fmt), bw_gbs * 1e9);
    json row = {{"precision", format_name(fmt)}, {"bytes_per_token", per_token}, {"tokens_per_s", ceiling},
                {"flops_per_token", decode_flops_per_token(read)}, {"flops_at_ceiling", compute},
                {"weights_bytes", moe.weights_bytes}};
    if (active) row["dense_tokens_per_s"] = moe.dense_ceiling_tokens_s;
    if (peak_flops > 0) row["compute_idle_share"] = 1.0 - compute / peak_flops;
    if (!as_json) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "  %-5s %8s per token -> at most %s tokens/s per stream (%s)",
                    std::string(format_name(fmt)).c_str(), gb(per_token).c_str(), tokens(ceiling).c_str(),
                    fixed(ceiling, 2).c_str());
      std::cout << buf << "\n";
      if (active)
        std::cout << "        holds " << gb(moe.weights_bytes) << ", reads " << fixed(100 * moe.read_share, 1)
                  << "% of it per token (read whole: at most " << tokens(moe.dense_ceiling_tokens_s) << " tokens/s)\n";
      std::cout << "        compute at that ceiling: " << si(decode_flops_per_token(read), "FLOP") << "/token x "
                << fixed(ceiling, 2) << " tokens/s = " << si(compute, "FLOP/s");
      if (peak_flops > 0) std::cout << ", cores idle " << fixed(100 * (1 - compute / peak_flops), 2) << "% of the time";
      std::cout << "\n";
    }
    if (users) {
      DecodeInputs in;
      in.params = read;
      in.bytes_per_param = bytes_per_value(fmt);
      in.bandwidth_bytes_s = bw_gbs * 1e9;
      in.peak_flops = peak_flops;
      const DecodeStep s = decode_step(in, *users);
      const double turn = peak_flops > 0 ? compute_bound_batch(in) : INFINITY;
      row["batch"] = {{"users", *users},           {"aggregate_tokens_per_s", s.aggregate_tokens_s},
                      {"per_user_tokens_per_s", s.per_user_tokens_s}, {"compute_bound", s.compute_bound},
                      {"compute_bound_from_users", std::isfinite(turn) ? json(turn) : json(nullptr)}};
      if (!as_json) {
        std::cout << "        " << count_of(*users, "user", "users") << " batched: " << tokens(s.aggregate_tokens_s)
                  << " tokens/s in total, " << fixed(s.per_user_tokens_s, 1) << " per user ("
                  << (s.compute_bound ? "compute-bound" : "memory-bound") << ")";
        if (std::isfinite(turn)) std::cout << "; compute-bound from ~" << grouped(std::ceil(turn)) << " users";
        else std::cout << "; no compute limit given (--peak-tflops or --card)";
        std::cout << "\n";
      }
    }
    rows.push_back(row);
  }
  if (as_json) {
    json j = {{"kind", "model"}, {"calc", "decode"}, {"params", *params}, {"bandwidth_gbs", bw_gbs}, {"rows", rows}};
    if (active) j["active_params"] = *active;
    if (peak_flops > 0) j["peak_flops"] = peak_flops;
    if (card) j["card"] = spec_json(*card);
    print_json(j);
  } else {
    std::cout << "  (real speeds are lower: KV cache reads, launch overhead, sampling, imperfect bandwidth)\n";
  }
  return k_ok;
}

// ---- calc amdahl --------------------------------------------------------------------------------------------
// Efficiency as a percentage with two significant figures when small: 2x from 4,096 workers is 0.049%, not 0.0%.
std::string percent_of_workers(double efficiency) {
  const double pct = 100 * efficiency;
  if (!(pct > 0)) return "0%";
  if (pct >= 10) return fixed(pct, 1) + "%";
  const int decimals = std::clamp(1 - static_cast<int>(std::floor(std::log10(pct))), 1, 12);
  return fixed(pct, decimals) + "%";
}

int calc_amdahl(const Flags& f) {
  Reader r{f, {}};
  std::optional<double> serial, workers, fraction, factor;
  r.number("serial", 0, 1, serial);
  r.number("workers", 1, 1e12, workers);
  r.number("fraction", 0, 1, fraction);
  r.number("factor", 1e-6, 1e12, factor);
  if (!r.error.empty()) return usage_error(r.error);
  if (!serial && !fraction) return usage_error("calc amdahl needs --serial S (with --workers N) or --fraction F --factor K");
  if (serial && fraction) return usage_error("give --serial or --fraction, not both");
  if (fraction && !factor) return usage_error("--fraction needs --factor K (how much faster that part gets)");
  if (factor && !fraction) return usage_error("--factor needs --fraction F (the share of time it speeds up)");
  if (workers && !serial) return usage_error("--workers goes with --serial");

  json j = {{"kind", "model"}, {"calc", "amdahl"}};
  if (serial) {
    const double limit = amdahl_limit(*serial);
    j["serial"] = *serial;
    j["limit"] = std::isfinite(limit) ? json(limit) : json(nullptr);
    if (workers) {
      j["workers"] = *workers;
      j["speedup"] = amdahl_speedup(*serial, *workers);
      j["efficiency"] = amdahl_efficiency(*serial, *workers);
    }
    if (!f.on("json")) {
      std::cout << "Amdahl's law (model): speed-up = 1 / (s + (1 - s) / N), serial share s = " << Reader::num(*serial)
                << "\n";
      if (workers)
        std::cout << "  speed-up with " << grouped(*workers) << " workers: " << fixed(amdahl_speedup(*serial, *workers), 1)
                  << "x (" << percent_of_workers(amdahl_efficiency(*serial, *workers)) << " of the workers' worth)\n";
      std::cout << "  limit with unlimited workers: "
                << (std::isfinite(limit) ? fixed(limit, 1) + "x (1 / s)" : std::string("unbounded (no serial part)"))
                << "\n";
    }
  } else {
    const double s = partial_speedup(*fraction, *factor);
    j["fraction"] = *fraction;
    j["factor"] = *factor;
    j["speedup"] = s;
    if (!f.on("json"))
      std::cout << "Two-part job (model): " << fixed(100 * *fraction, 0) << "% of the time sped up " << Reader::num(*factor)
                << "x -> 1 / (" << Reader::num(1 - *fraction) << " + " << Reader::num(*fraction) << " / "
                << Reader::num(*factor) << ") = " << fixed(s, 2) << "x overall\n";
  }
  if (f.on("json")) print_json(j);
  return k_ok;
}

// ---- calc rounds --------------------------------------------------------------------------------------------
int calc_rounds(const Flags& f) {
  Reader r{f, {}};
  std::optional<double> cells, workers, cell_rate, clerk_rate;
  r.number("cells", 1, 1e15, cells, true);
  r.number("workers", 1, 1e12, workers, true);
  r.number("cell-rate", 1e-9, 1e15, cell_rate);
  r.number("clerk-rate", 1e-9, 1e18, clerk_rate);
  if (!r.error.empty()) return usage_error(r.error);
  if (!cells || !workers) return usage_error("calc rounds needs --cells N and --workers N");
  if (clerk_rate && !cell_rate) return usage_error("--clerk-rate needs --cell-rate (cells per second per worker)");
  const auto c = static_cast<std::int64_t>(*cells);
  const auto w = static_cast<std::int64_t>(*workers);
  const std::int64_t n = rounds(c, w);
  json j = {{"kind", "model"}, {"calc", "rounds"}, {"cells", c}, {"workers", w}, {"rounds", n},
            {"utilisation", round_utilisation(c, w)}};
  std::optional<ClerkResult> clerk;
  if (cell_rate) {
    clerk = clerk_model(*workers, *cell_rate, clerk_rate.value_or(0));
    j["clerk"] = {{"demand_cells_per_s", clerk->demand_rate}, {"effective_cells_per_s", clerk->effective_rate},
                  {"idle_share", clerk->idle_share}, {"clerk_limited", clerk->clerk_limited},
                  {"seconds", clerk->seconds_for(*cells)}};
  }
  if (f.on("json")) {
    print_json(j);
    return k_ok;
  }
  std::cout << "Rounds (model): ceil(cells / workers), one cell per worker per round\n"
            << "  " << count_of(*cells, "cell", "cells") << ", " << count_of(*workers, "worker", "workers") << ": "
            << count_of(double(n), "round", "rounds") << " (" << fixed(100 * round_utilisation(c, w), 1) << "% of worker-rounds busy)\n";
  if (clerk) {
    std::cout << "  clerk: workers could do " << si(clerk->demand_rate, "cells/s") << ", sheets arrive at "
              << (clerk_rate ? si(*clerk_rate, "sheets/s") : std::string("no limit")) << " -> "
              << si(clerk->effective_rate, "cells/s") << ", " << fixed(100 * clerk->idle_share, 1)
              << "% of the workers idle" << (clerk->clerk_limited ? " (the clerk sets the pace)" : "") << "\n";
  }
  return k_ok;
}

// ---- calc intensity -----------------------------------------------------------------------------------------
int calc_intensity(const Flags& f) {
  Reader r{f, {}};
  std::optional<double> batch, d_in, d_out;
  std::optional<NumberFormat> precision;
  const GpuSpec* card = nullptr;
  r.number("batch", 1, 1e7, batch, true);
  r.number("d-in", 1, 1e7, d_in, true);
  r.number("d-out", 1, 1e7, d_out, true);
  r.format("precision", precision);
  r.card("card", card);
  if (!r.error.empty()) return usage_error(r.error);
  if (!batch || !d_in || !d_out) return usage_error("calc intensity needs --batch B --d-in N --d-out N");
  const NumberFormat fmt = precision.value_or(NumberFormat::fp16);
  // The lesson's balance point is an H100's; use it unless another card is named.
  const GpuSpec* roof = card ? card : find_gpu("H100 SXM");
  const LayerCost c = layer_cost(*batch, *d_in, *d_out, bytes_per_value(fmt));

  std::optional<double> peak;
  if (roof && !roof->lesson_example) {
    switch (fmt) {
      case NumberFormat::fp64: break;
      case NumberFormat::fp32: peak = roof->peak_flops_for(Precision::fp32); break;
      case NumberFormat::fp16: peak = roof->peak_flops_for(Precision::fp16); break;
      case NumberFormat::bf16: peak = roof->peak_flops_for(Precision::bf16); break;
      case NumberFormat::fp8: peak = roof->peak_flops_for(Precision::fp8); break;
      case NumberFormat::int8: peak = roof->peak_flops_for(Precision::int8); break;
      case NumberFormat::int4: break;  // no INT4 column in the catalogue
    }
  }
  const double bw = roof ? roof->bandwidth_bytes_s() : 0;
  json j = {{"kind", "model"}, {"calc", "intensity"}, {"batch", *batch}, {"d_in", *d_in}, {"d_out", *d_out},
            {"precision", format_name(fmt)}, {"flops", c.flops}, {"output_cells", c.cells}, {"bytes", c.bytes},
            {"intensity", c.intensity}};
  if (peak && bw > 0) {
    const double ridge = ridge_point(*peak, bw);
    j["card"] = spec_json(*roof);
    j["ridge_point"] = ridge;
    j["bound"] = bound_name(classify(c.intensity, *peak, bw));
    j["attainable_flops"] = attainable_flops(*peak, bw, c.intensity);
  }
  if (f.on("json")) {
    print_json(j);
    return k_ok;
  }
  std::cout << "Arithmetic intensity (model): Y = X.W, X " << grouped(*batch) << "x" << grouped(*d_in) << ", W "
            << grouped(*d_in) << "x" << grouped(*d_out) << ", " << format_name(fmt) << "\n"
            << "  FLOPs:        " << grouped(c.flops) << " (" << si(c.flops, "FLOP") << ", 2.B.d_in.d_out)\n"
            << "  output cells: " << grouped(c.cells) << "\n"
            << "  bytes moved:  " << grouped(c.bytes) << " (" << si(c.bytes, "B")
            << ", X + W + Y once each)\n"
            << "  intensity:    " << fixed(c.intensity, 1) << " FLOPs per byte\n";
  if (peak && bw > 0) {
    const double ridge = ridge_point(*peak, bw);
    std::cout << "  " << roof->name << " (datasheet, " << format_name(fmt) << " dense): ridge at " << fixed(ridge, 1)
              << " FLOPs/byte -> " << bound_name(classify(c.intensity, *peak, bw)) << ", at most "
              << si(attainable_flops(*peak, bw, c.intensity), "FLOP/s") << "\n";
  } else if (roof) {
    std::cout << "  " << roof->name << ": no " << format_name(fmt) << " peak in the catalogue, no roofline comparison\n";
  }
  return k_ok;
}

struct Verb {
  int (*run)(const Flags&);
  std::set<std::string> valued;
  std::set<std::string> switches;
};

int calc_main(const Args& args) {
  if (args.empty()) {
    std::cerr << k_usage_text;
    return k_usage;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << k_usage_text;
    return k_ok;
  }
  static const std::map<std::string, Verb> verbs{
      {"vram",
       {calc_vram,
        {"params", "model", "precision", "mode", "context", "users", "layers", "kv-heads", "head-dim", "hidden",
         "intermediate", "card", "card-gb", "overhead-gb", "lora-rank", "lora-targets", "kv-precision",
         "active-params"},
        {"json", "checkpointing", "no-checkpointing", "no-activations"}}},
      {"decode", {calc_decode, {"params", "bandwidth", "precision", "peak-tflops", "users", "card", "active-params"}, {"json"}}},
      {"amdahl", {calc_amdahl, {"serial", "workers", "fraction", "factor"}, {"json"}}},
      {"rounds", {calc_rounds, {"cells", "workers", "cell-rate", "clerk-rate"}, {"json"}}},
      {"intensity", {calc_intensity, {"batch", "d-in", "d-out", "precision", "card"}, {"json"}}},
  };
  auto it = verbs.find(args[0]);
  if (it == verbs.end()) return usage_error("unknown calculation '" + args[0] + "' (vram, decode, amdahl, rounds, intensity)");
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << k_usage_text;
      return k_ok;
    }
  }
  Flags flags;
  if (std::string err = flags.parse(args, 1, it->second.valued, it->second.switches); !err.empty())
    return usage_error(err);
  return it->second.run(flags);
}

}  // namespace

int cli_calc(const Args& args) {
  // The verbs promise never to throw: anything unexpected (bad_alloc, a json error) becomes exit code 1.
  try {
    return calc_main(args);
  } catch (const std::exception& e) {
    std::cerr << "calc: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "calc: internal error\n";
  }
  return 1;
}

}  // namespace gpulab
