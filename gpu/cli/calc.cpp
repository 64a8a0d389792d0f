// `calc`: the pure models from the command line (gpulab calc ..., gpulab-bench calc ...). Everything printed here
// is a calculation ("model"), never a measurement. Input is validated strictly: an unknown flag, a missing
// value, a non-number or an absurd value prints a message on stderr and returns 2; nothing throws out of here.
// The verbs vram and decode have files of their own (calc_vram.cpp, calc_decode.cpp); what they share is in
// calc_support.hpp.
#include "calc_support.hpp"
#include "gpulab/models/amdahl_model.hpp"
#include "gpulab/models/gemm_model.hpp"
#include "gpulab/models/roofline_model.hpp"
#include "gpulab/models/rounds_model.hpp"

#include <algorithm>
#include <iostream>

namespace gpulab {

namespace {

using namespace gpulab::models;
using namespace gpulab::calc_cli;

const char* const k_usage_text =
    "usage: calc <what> [options]      (every figure is a model, not a measurement)\n"
    "  calc vram      --params 7e9 | --model llama-3-8b | mixtral-8x7b  [--precision fp32|fp16|bf16|fp8|int8|int4]\n"
    "                 [--mode inference|train|lora] [--context N (default 4096, as the VRAM page)] [--users N]\n"
    "                 [--layers N] [--kv-heads N] [--head-dim N] [--hidden N] [--intermediate N]\n"
    "                 [--card NAME | --card-gb GB]\n"
    "                 [--overhead-gb GB] [--lora-rank R] [--lora-targets qv|qkvo|all]\n"
    "                 [--no-checkpointing]   (train and lora count checkpointed activations, as recipes run them)\n"
    "                 [--no-activations]\n"
    "                 (inference without --precision: the weights in FP32, FP16/BF16, INT8 and INT4; an option that\n"
    "                 sizes the rest of the budget asks for the budget, in FP16 weights)\n"
    "                 [--kv-precision fp16|fp8|int4]  (KV cache elements; default fp16)\n"
    "                 [--active-params N]    (mixture of experts: parameters each token reads; memory holds all)\n"
    "  calc decode    --params 7e9 --bandwidth GB/s | --card NAME  [--precision fp16|int8|int4|...]\n"
    "                 [--peak-tflops T] [--users N] [--active-params N (mixture of experts)]\n"
    "                 [--prompt N]  (prefill: time to first token for an N-token prompt; needs a peak)\n"
    "                 [--context N (default 4096)] [--kv-precision fp16|fp8|int4] [--model NAME] [--card-gb GB]\n"
    "                 (with --users or --context: each step also reads every user's KV cache, checked to fit)\n"
    "                 [--experts E --active-experts K]  (a batch touches 1-((E-K)/E)^users of the experts)\n"
    "  calc amdahl    --serial S [--workers N] | --fraction F --factor K\n"
    "  calc rounds    --cells N --workers N [--cell-rate CELLS/S --clerk-rate SHEETS/S]\n"
    "  calc intensity --batch B --d-in N --d-out N [--precision fp16] [--card NAME]\n"
    "  add --json to any of them for machine-readable output\n";

// ---- calc amdahl --------------------------------------------------------------------------------------------
// Efficiency as a percentage with two significant figures when small: 2x from 4,096 workers is 0.049%, not 0.0%.
std::string percent_of_workers(double efficiency) {
  const double pct = 100 * efficiency;
  if (!(pct > 0)) return "0%";
  if (pct >= 10) return format_fixed_plain(pct, 1) + "%";
  const int decimals = std::clamp(1 - static_cast<int>(std::floor(std::log10(pct))), 1, 12);
  return format_fixed_plain(pct, decimals) + "%";
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
        std::cout << "  speed-up with " << format_whole(*workers) << " workers: " << format_fixed_plain(amdahl_speedup(*serial, *workers), 1)
                  << "x (" << percent_of_workers(amdahl_efficiency(*serial, *workers)) << " of the workers' worth)\n";
      std::cout << "  limit with unlimited workers: "
                << (std::isfinite(limit) ? format_fixed_plain(limit, 1) + "x (1 / s)" : std::string("unbounded (no serial part)"))
                << "\n";
    }
  } else {
    const double s = partial_speedup(*fraction, *factor);
    j["fraction"] = *fraction;
    j["factor"] = *factor;
    j["speedup"] = s;
    if (!f.on("json"))
      std::cout << "Two-part job (model): " << format_fixed_plain(100 * *fraction, 0) << "% of the time sped up " << Reader::num(*factor)
                << "x -> 1 / (" << Reader::num(1 - *fraction) << " + " << Reader::num(*fraction) << " / "
                << Reader::num(*factor) << ") = " << format_fixed_plain(s, 2) << "x overall\n";
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
            << count_of(double(n), "round", "rounds") << " (" << format_fixed_plain(100 * round_utilisation(c, w), 1) << "% of worker-rounds busy)\n";
  if (clerk) {
    std::cout << "  clerk: workers could do " << format_si(clerk->demand_rate, "cells/s") << ", sheets arrive at "
              << (clerk_rate ? format_si(*clerk_rate, "sheets/s") : std::string("no limit")) << " -> "
              << format_si(clerk->effective_rate, "cells/s") << ", " << format_fixed_plain(100 * clerk->idle_share, 1)
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
  std::cout << "Arithmetic intensity (model): Y = X.W, X " << format_whole(*batch) << "x" << format_whole(*d_in) << ", W "
            << format_whole(*d_in) << "x" << format_whole(*d_out) << ", " << format_name(fmt) << "\n"
            << "  FLOPs:        " << format_whole(c.flops) << " (" << format_si(c.flops, "FLOP") << ", 2.B.d_in.d_out)\n"
            << "  output cells: " << format_whole(c.cells) << "\n"
            << "  bytes moved:  " << format_whole(c.bytes) << " (" << format_si(c.bytes, "B")
            << ", X + W + Y once each)\n"
            << "  intensity:    " << format_fixed_plain(c.intensity, 1) << " FLOPs per byte\n";
  if (peak && bw > 0) {
    const double ridge = ridge_point(*peak, bw);
    std::cout << "  " << roof->name << " (datasheet, " << format_name(fmt) << " dense): ridge at " << format_fixed_plain(ridge, 1)
              << " FLOPs/byte -> " << bound_name(classify(c.intensity, *peak, bw)) << ", at most "
              << format_si(attainable_flops(*peak, bw, c.intensity), "FLOP/s") << "\n";
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

// Each verb's options: the parser's table (an option not here is refused as unknown), and the option walk's
// (tests/unit/test_cli_option_walk.cpp runs every option listed here and finds none ignored).
const std::map<std::string, Verb>& calc_verbs() {
  static const std::map<std::string, Verb> verbs{
      {"vram",
       {calc_vram,
        {"params", "model", "precision", "mode", "context", "users", "layers", "kv-heads", "head-dim", "hidden",
         "intermediate", "card", "card-gb", "overhead-gb", "lora-rank", "lora-targets", "kv-precision",
         "active-params"},
        {"json", "checkpointing", "no-checkpointing", "no-activations"}}},
      {"decode",
       {calc_decode,
        {"params", "bandwidth", "precision", "peak-tflops", "users", "card", "active-params", "prompt", "context",
         "model", "kv-precision", "card-gb", "experts", "active-experts"},
        {"json"}}},
      {"amdahl", {calc_amdahl, {"serial", "workers", "fraction", "factor"}, {"json"}}},
      {"rounds", {calc_rounds, {"cells", "workers", "cell-rate", "clerk-rate"}, {"json"}}},
      {"intensity", {calc_intensity, {"batch", "d-in", "d-out", "precision", "card"}, {"json"}}},
  };
  return verbs;
}

int calc_main(const Args& args) {
  if (args.empty()) {
    std::cerr << k_usage_text;
    return k_usage;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << k_usage_text;
    return k_ok;
  }
  const std::map<std::string, Verb>& verbs = calc_verbs();
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

std::vector<VerbOptions> calc_option_tables() {
  std::vector<VerbOptions> out;
  for (const auto& [name, verb] : calc_verbs())
    out.push_back({{"calc", name}, {verb.valued.begin(), verb.valued.end()}, {verb.switches.begin(), verb.switches.end()},
                   k_usage_text});
  return out;
}

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
