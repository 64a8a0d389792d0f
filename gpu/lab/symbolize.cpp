#include "symbolize.hpp"

#include "child_process.hpp"

#include <cstdio>
#include <sstream>

namespace gpulab::lab {

std::vector<int> lines_of(const std::string& library, const std::vector<std::uintptr_t>& offsets,
                          bool return_addresses) {
  std::vector<int> lines(offsets.size(), 0);
  const std::string addr2line = find_program({"addr2line", "llvm-addr2line", "llvm-addr2line-14"});
  if (addr2line.empty() || offsets.empty()) return lines;
  std::vector<std::string> argv = {addr2line, "-e", library};
  for (std::uintptr_t o : offsets) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx",
                  static_cast<unsigned long long>(o > 0 && return_addresses ? o - 1 : o));
    argv.emplace_back(hex);
  }
  ChildLimits limits;
  limits.wall_seconds = 10;
  const ChildResult r = run_child(argv, limits);
  std::istringstream in(r.out);
  std::string text;
  for (std::size_t i = 0; i < offsets.size() && std::getline(in, text); ++i) {
    if (offsets[i] == 0) continue;
    // "path/student.cu:17" or "path:17 (discriminator 2)"; "??:0" or "??:?" when unknown.
    const std::size_t space = text.find(" (");
    if (space != std::string::npos) text.resize(space);
    const std::size_t colon = text.rfind(':');
    if (colon == std::string::npos) continue;
    try {
      lines[i] = std::stoi(text.substr(colon + 1));
    } catch (const std::exception&) {
      lines[i] = 0;
    }
  }
  return lines;
}

}  // namespace gpulab::lab
