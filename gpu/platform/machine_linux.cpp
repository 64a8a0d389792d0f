// The machine on Linux (gpulab/platform.hpp): /proc and sysfs for the CPU and memory, the affinity mask, uname.
#include "gpulab/platform.hpp"

#include <sched.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <string>

namespace gpulab::platform {
namespace {

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return trim(line);
}

// The value of the first "key : value" line in /proc/cpuinfo.
std::string cpuinfo_field(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (trim(line.substr(0, colon)) == key) return trim(line.substr(colon + 1));
  }
  return "";
}

// Parses a leading decimal number without the locale (std::stod would stop at '.' under a German locale).
double parse_number(const std::string& s) {
  double v = 0;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
  return res.ec == std::errc{} ? v : 0;
}

}  // namespace

std::string cpu_model_name() { return cpuinfo_field("model name"); }

double cpu_clock_mhz() {
  // The rated maximum, when the kernel exposes it; VMs often do not, then the current clock from /proc/cpuinfo.
  const double khz = parse_number(read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"));
  if (khz > 0) return khz / 1000.0;
  return parse_number(cpuinfo_field("cpu MHz"));
}

std::vector<std::pair<std::string, std::string>> cpu_caches() {
  std::vector<std::pair<std::string, std::string>> out;
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    const std::string level = read_first_line(dir + "level");
    if (level.empty()) break;
    const std::string type = read_first_line(dir + "type");
    std::string name = "L" + level + (type == "Data" ? "d" : type == "Instruction" ? "i" : "");
    std::string size = read_first_line(dir + "size");
    const std::string shared = read_first_line(dir + "shared_cpu_list");
    if (!shared.empty()) size += " (shared by CPUs " + shared + ")";
    out.emplace_back(name + " cache", size);
  }
  return out;
}

int usable_logical_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  return CPU_COUNT(&set);
}

MemoryFacts memory_facts() {
  MemoryFacts info;
  std::ifstream in("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemTotal:") info.total_bytes = kib * 1024;
    if (key == "MemAvailable:") info.available_bytes = kib * 1024;
  }
  return info;
}

void release_pages_before_free(void* data, std::size_t bytes) {
  constexpr std::size_t kAtLeast = std::size_t{64} << 20, kPiece = std::size_t{16} << 20;
  if (!data || bytes < kAtLeast) return;
  const long page_size = sysconf(_SC_PAGESIZE);
  if (page_size <= 0) return;
  const auto page = static_cast<std::uintptr_t>(page_size);
  // Whole pages inside the block only: the allocator keeps its bookkeeping just before the block's first byte.
  const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
  for (std::uintptr_t at = begin; at < end; at += kPiece) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uintptr_t>(kPiece, end - at));
    // A failure only leaves the pages for the free that follows: nothing to report.
    (void)madvise(reinterpret_cast<void*>(at), n, MADV_DONTNEED);
  }
}

double process_resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

double process_cpu_seconds() {
  timespec ts{};
  if (::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return -1;
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double thread_cpu_seconds() {
  timespec ts{};
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double cpu_time_ticks_per_second() {
  const long hz = ::sysconf(_SC_CLK_TCK);
  return hz > 0 ? static_cast<double>(hz) : 100.0;
}

std::string host_name() {
  char host[256] = {};
  return ::gethostname(host, sizeof host - 1) == 0 && host[0] ? host : "unknown";
}

std::string os_description() {
  struct utsname u {};
  if (::uname(&u) != 0) return "Linux";
  return std::string(u.sysname) + " " + u.release + " " + u.machine;
}

std::tm utc_calendar(std::time_t t) {
  std::tm utc{};
  ::gmtime_r(&t, &utc);
  return utc;
}

std::string clock_description() { return "std::chrono::steady_clock (clock_gettime CLOCK_MONOTONIC)"; }

}  // namespace gpulab::platform
