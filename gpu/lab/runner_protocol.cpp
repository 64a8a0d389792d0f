#include "runner_protocol.hpp"

#include <cstdio>
#include <sstream>

namespace gpulab::lab {
namespace {

constexpr std::size_t kOtherOutputCap = 16 * 1024;

std::array<unsigned, 3> parse_triple(const std::string& s) {
  std::array<unsigned, 3> t{};
  std::sscanf(s.c_str(), "%u,%u,%u", &t[0], &t[1], &t[2]);
  return t;
}

FatalLine parse_fatal(const std::string& line) {
  FatalLine f;
  std::istringstream words(line);
  std::string word;
  words >> word >> f.what;  // "fatal", what
  while (words >> word) {
    const std::size_t eq = word.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "pc") f.pc = std::stoull(value, nullptr, 16);
    if (key == "last") f.last = std::stoull(value, nullptr, 16);
    if (key == "addr") f.address = std::stoull(value, nullptr, 16);
    if (key == "shape") f.shape = std::stoi(value);
    if (key == "line") f.launch_line = std::stoi(value);
    if (key == "block") f.block = parse_triple(value);
    if (key == "thread") f.thread = parse_triple(value);
  }
  return f;
}

}  // namespace

std::optional<std::pair<double, std::string>> take_runner_line(const std::string& line, RunnerOutput& out) {
  const std::string prefix = "@gpulab ";
  const bool protocol = line.compare(0, prefix.size(), prefix) == 0;
  // A fatal line may follow whatever the kernel printed without a newline: look for it anywhere in the line.
  if (const std::size_t at = line.find("fatal ");
      !protocol && at != std::string::npos && line.find(" pc=0x", at) != std::string::npos) {
    out.fatal = parse_fatal(line.substr(at));
    return std::nullopt;
  }
  if (!protocol) {
    if (out.other_output.size() < kOtherOutputCap) out.other_output += line.substr(0, kOtherOutputCap) + "\n";
    return std::nullopt;
  }
  const std::size_t space = line.find(' ', prefix.size());
  const std::string kind = line.substr(prefix.size(), space == std::string::npos ? std::string::npos : space - prefix.size());
  const nlohmann::json body =
      space == std::string::npos ? nlohmann::json() : nlohmann::json::parse(line.substr(space + 1), nullptr, false);
  if (kind == "done") out.done = true;
  if (kind == "check") out.checks.push_back(body);
  if (kind == "trace") out.trace = body;
  if (kind == "trace_error") out.trace_error = body;
  if (kind == "load_error") out.load_error = body.value("message", std::string("cannot load the compiled kernel"));
  if (kind == "progress" && body.is_object()) {
    const double total = std::max(1, body.value("total", 1));
    return std::make_pair(body.value("done", 0) / total,
                          std::to_string(body.value("m", 0)) + "x" + std::to_string(body.value("n", 0)) + "x" +
                              std::to_string(body.value("k", 0)));
  }
  return std::nullopt;
}

}  // namespace gpulab::lab
