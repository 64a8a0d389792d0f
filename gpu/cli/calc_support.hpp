#pragma once
// What the `calc` verbs share (calc.cpp, calc_vram.cpp, calc_decode.cpp): strict flag parsing, number reading with
// ranges, and the few formats the models' output needs. Internal to gpu/cli: nothing outside includes it.
#include "gpulab/cli.hpp"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/number_format.hpp"
#include "gpulab/units.hpp"  // every number the verbs print: format_fixed_plain, format_whole, format_si

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace gpulab::calc_cli {

using json = nlohmann::json;

inline constexpr int k_ok = 0;
inline constexpr int k_usage = 2;

// The message on stderr with a pointer to --help; returns k_usage.
int usage_error(const std::string& message);

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
std::optional<double> to_number(const std::string& s);

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
  bool format(const std::string& name, std::optional<models::NumberFormat>& out) {
    const std::string* text = flags.value(name);
    if (!text) return true;
    out = models::format_from_string(*text);
    if (!out) return fail("--" + name + ": unknown precision '" + *text + "' (fp32, fp16, bf16, fp8, int8, int4)");
    return true;
  }
  bool card(const std::string& name, const models::GpuSpec*& out) {
    const std::string* text = flags.value(name);
    if (!text) return true;
    if (*text == "shop" || *text == "shop card") {
      out = &models::shop_card();
      return true;
    }
    out = models::find_gpu(*text);
    if (!out) {
      std::string known;
      for (const auto& g : models::catalogue()) known += (known.empty() ? "" : ", ") + g.name;
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

// ---- the lesson's ways to print a few figures, on gpulab/units.hpp --------------------------------------------
// Decimal GB with one decimal, as the lesson prints weights (28.0 / 14.0 / 7.0 / 3.5 GB); MB below 1 GB.
std::string gb(double bytes);
// "1 user", "4 users".
std::string count_of(double n, const std::string& singular, const std::string& plural);
// Tokens per second as the lesson prints them: whole tokens from 100 up (239), one decimal below (3.6).
std::string tokens(double t);
void print_json(const json& j);
json spec_json(const models::GpuSpec& g);

// The verbs with files of their own.
int calc_vram(const Flags& f);    // calc_vram.cpp
int calc_decode(const Flags& f);  // calc_decode.cpp

}  // namespace gpulab::calc_cli
