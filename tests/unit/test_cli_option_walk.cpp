// No option does nothing in silence (issue 39: `calc vram --model llama-3-8b --kv-precision fp8` printed the weights
// alone). The walk runs every option of every verb, from the verbs' own tables (cli_option_tables: an option added
// later is walked without being listed here), added to a few ordinary command lines of that verb ("situations",
// below), with and without --json. An option passes a situation when it is refused with a reason (a non-zero exit
// and a message on stderr), or when some value of it is accepted and changes what is printed. It fails when every
// value the verb accepts leaves the output exactly as it was without the option.
//
// The values tried for an option: plain numbers, the precisions, catalogue cards, then every word of the verb's
// help text (which names the values its options take: qv|qkvo|all, 01_naive, llama-3-8b).
#include "gpulab/cli.hpp"
#include "gpulab/models/catalogue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

using gpulab::Args;

namespace {

struct Ran {
  int rc = 0;
  std::string out, err;
};

std::string readAll(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, got);
  return text;
}

// Runs a verb in this process with its stdout and stderr (C stdio and iostreams alike) caught in files.
Ran runCaught(const Args& words) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  const int savedOut = dup(1), savedErr = dup(2);
  dup2(fileno(out), 1);
  dup2(fileno(err), 2);
  Ran r;
  r.rc = gpulab::cli_run(words);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(savedOut, 1);
  dup2(savedErr, 2);
  close(savedOut);
  close(savedErr);
  r.out = readAll(out);
  r.err = readAll(err);
  std::fclose(out);
  std::fclose(err);
  return r;
}

std::string joined(const Args& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + (w.find(' ') != std::string::npos ? "'" + w + "'" : w);
  return s;
}

// Ordinary command lines of each verb, the options walked are added to. A verb with none fails the walk: a new
// verb needs its situations here.
const std::map<std::string, std::vector<Args>>& situations() {
  static const std::string recording =
      std::string(GPULAB_TEST_DATA_DIR) + "/../../resources/recordings/cpu-amd-epyc-2vcpu-vm-2026-12-01.json";
  static const std::map<std::string, std::vector<Args>> all{
      {"calc vram",
       {{"--model", "llama-3-8b"},
        {"--params", "7e9"},
        {"--model", "llama-3-8b", "--precision", "fp16"},
        {"--model", "llama-3-8b", "--precision", "fp16", "--no-activations"},
        {"--model", "llama-3-8b", "--precision", "bf16", "--mode", "train"},
        {"--model", "llama-3-8b", "--precision", "bf16", "--mode", "train", "--no-activations"},
        {"--model", "llama-3-8b", "--precision", "fp16", "--mode", "lora"},
        {"--model", "llama-3-8b", "--precision", "fp16", "--mode", "lora", "--lora-targets", "all"}}},
      {"calc decode",
       {{"--params", "7e9", "--bandwidth", "1000"},
        {"--params", "7e9", "--card", "H100 SXM"},
        {"--params", "7e9", "--bandwidth", "1000", "--peak-tflops", "100"}}},
      {"calc amdahl", {{"--serial", "0.1"}, {"--fraction", "0.5", "--factor", "2"}}},
      {"calc rounds", {{"--cells", "100", "--workers", "8"}, {"--cells", "100", "--workers", "8", "--cell-rate", "10"}}},
      {"calc intensity", {{"--batch", "1", "--d-in", "4096", "--d-out", "4096"}}},
      {"kernels", {{"--size", "8"}}},
      {"devices", {{}}},
      {"bench", {{"--list"}, {"--check", recording}}},
  };
  return all;
}

// The values tried for a valued option, most likely first.
std::vector<std::string> candidateValues(const std::string& usage) {
  std::vector<std::string> values{"2", "3", "7", "16", "100", "1000", "4096", "0.5", "7e9",
                                  "fp16", "fp8", "int8", "int4", "bf16", "fp32"};
  for (std::size_t i = 0; i < gpulab::models::catalogue().size() && i < 4; ++i)
    values.push_back(gpulab::models::catalogue()[i].name);
  static const std::regex word("[A-Za-z0-9_.][A-Za-z0-9_.-]*");
  for (auto it = std::sregex_iterator(usage.begin(), usage.end(), word); it != std::sregex_iterator(); ++it)
    values.push_back(it->str());
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const std::string& v : values)
    if (seen.insert(v).second) unique.push_back(v);
  return unique;
}

bool mentions(const Args& words, const std::string& flag) {
  return std::find(words.begin(), words.end(), flag) != words.end();
}

// What is wrong with one option in one situation ("" when it is refused or does something).
std::string walkOption(const Args& base, const Ran& before, const std::string& name, bool valued,
                       const std::vector<std::string>& values) {
  std::vector<std::string> unchanged;
  for (const std::string& value : valued ? values : std::vector<std::string>{""}) {
    Args words = base;
    words.push_back("--" + name);
    if (valued) words.push_back(value);
    const Ran r = runCaught(words);
    if (r.rc == 0 && r.out != before.out) return {};
    if (r.rc == 0) unchanged.push_back(valued ? value : "(switch)");
    else if (r.err.find_first_not_of(" \n") == std::string::npos)
      return joined(words) + ": refused (exit " + std::to_string(r.rc) + ") without a word on stderr";
  }
  if (unchanged.empty()) return {};  // refused with a reason for every value
  std::string list;
  for (std::size_t i = 0; i < unchanged.size() && i < 4; ++i) list += (i ? ", " : "") + unchanged[i];
  return joined(base) + " --" + name + ": accepted (" + list + (unchanged.size() > 4 ? ", ..." : "") +
         ") and changed nothing in the output";
}

TEST(CliOptionWalk, NoOptionIsSilentlyIgnored) {
  std::vector<std::string> problems;
  int walked = 0;
  for (const gpulab::VerbOptions& verb : gpulab::cli_option_tables()) {
    const std::string verbName = joined(verb.verb);
    const auto found = situations().find(verbName);
    if (found == situations().end()) {
      problems.push_back(verbName + ": no situation to walk its options in (add one to this test)");
      continue;
    }
    const std::vector<std::string> values = candidateValues(verb.usage);
    const bool hasJson = std::find(verb.switches.begin(), verb.switches.end(), "json") != verb.switches.end();
    for (const Args& situation : found->second) {
      std::vector<Args> bases{situation};
      if (hasJson && !mentions(situation, "--json")) bases.push_back(situation), bases.back().push_back("--json");
      for (const Args& tail : bases) {
        Args base = verb.verb;
        base.insert(base.end(), tail.begin(), tail.end());
        const Ran before = runCaught(base);
        if (before.rc != 0) {
          problems.push_back(joined(base) + ": the situation itself fails (exit " + std::to_string(before.rc) +
                             "): " + before.err.substr(0, 200));
          continue;
        }
        auto walk = [&](const std::string& name, bool valued) {
          if (mentions(base, "--" + name)) return;
          ++walked;
          if (std::string p = walkOption(base, before, name, valued, values); !p.empty()) problems.push_back(p);
        };
        for (const std::string& name : verb.valued) walk(name, true);
        for (const std::string& name : verb.switches) walk(name, false);
      }
    }
  }
  std::printf("walked %d option-situation pairs\n", walked);
  EXPECT_GT(walked, 100);
  std::string all;
  for (const std::string& p : problems) all += "\n  " + p;
  EXPECT_TRUE(problems.empty()) << problems.size() << " options did nothing or were refused without a reason:" << all;
}

// The situation the issue found, as a user types it: the KV cache is in the output, in FP8.
TEST(CliOptionWalk, KvPrecisionAsksForTheBudget) {
  const Ran r = runCaught({"calc", "vram", "--model", "llama-3-8b", "--kv-precision", "fp8"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("KV cache"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(FP8)"), std::string::npos) << r.out;
}

}  // namespace
