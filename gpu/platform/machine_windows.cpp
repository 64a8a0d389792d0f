// The machine on Windows (gpulab/platform.hpp): the registry's processor entry, GetLogicalProcessorInformation,
// the process affinity mask, GlobalMemoryStatusEx, and the process's own times and working set.
#include "gpulab/platform.hpp"
#include "windows_text.hpp"

#include <psapi.h>

#include <bit>
#include <cstdint>
#include <ctime>
#include <map>
#include <string>
#include <vector>

namespace gpulab::platform {
namespace {

constexpr const wchar_t* processor_key = L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0";

double filetime_seconds(const FILETIME& t) {  // FILETIME counts 100 ns units
  const std::uint64_t ticks = (static_cast<std::uint64_t>(t.dwHighDateTime) << 32) | t.dwLowDateTime;
  return static_cast<double>(ticks) * 1e-7;
}

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string size_text(DWORD bytes) {  // "48K", "2048K": the form Linux's sysfs gives
  return std::to_string(bytes / 1024) + "K";
}

}  // namespace

std::string cpu_model_name() {
  wchar_t name[256] = {};
  DWORD bytes = sizeof name;
  if (::RegGetValueW(HKEY_LOCAL_MACHINE, processor_key, L"ProcessorNameString", RRF_RT_REG_SZ, nullptr, name, &bytes) !=
      ERROR_SUCCESS)
    return "";
  return trim(narrow(name));
}

double cpu_clock_mhz() {
  DWORD mhz = 0;
  DWORD bytes = sizeof mhz;
  if (::RegGetValueW(HKEY_LOCAL_MACHINE, processor_key, L"~MHz", RRF_RT_REG_DWORD, nullptr, &mhz, &bytes) != ERROR_SUCCESS)
    return 0;
  return static_cast<double>(mhz);
}

std::vector<std::pair<std::string, std::string>> cpu_caches() {
  DWORD bytes = 0;
  ::GetLogicalProcessorInformation(nullptr, &bytes);
  std::vector<SYSTEM_LOGICAL_PROCESSOR_INFORMATION> info(bytes / sizeof(SYSTEM_LOGICAL_PROCESSOR_INFORMATION));
  if (info.empty() || !::GetLogicalProcessorInformation(info.data(), &bytes)) return {};
  // One entry per cache of the first CPU, in the order Linux lists them: L1d, L1i, L2, L3.
  std::map<std::pair<int, int>, std::pair<std::string, std::string>> first_cpu;
  for (const auto& p : info) {
    if (p.Relationship != RelationCache || !(p.ProcessorMask & 1)) continue;
    const CACHE_DESCRIPTOR& c = p.Cache;
    const int order = c.Type == CacheData ? 0 : c.Type == CacheInstruction ? 1 : 2;
    const std::string suffix = c.Type == CacheData ? "d" : c.Type == CacheInstruction ? "i" : "";
    const int sharers = std::popcount(static_cast<std::uint64_t>(p.ProcessorMask));
    std::string size = size_text(c.Size);
    if (sharers > 1) size += " (shared by " + std::to_string(sharers) + " CPUs)";
    first_cpu[{c.Level, order}] = {"L" + std::to_string(c.Level) + suffix + " cache", size};
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& [key, entry] : first_cpu) out.push_back(std::move(entry));
  return out;
}

int usable_logical_cores() {
  DWORD_PTR process = 0, system = 0;
  if (!::GetProcessAffinityMask(::GetCurrentProcess(), &process, &system)) return 0;
  return std::popcount(static_cast<std::uint64_t>(process));
}

MemoryFacts memory_facts() {
  MEMORYSTATUSEX status{};
  status.dwLength = sizeof status;
  MemoryFacts facts;
  if (!::GlobalMemoryStatusEx(&status)) return facts;
  facts.total_bytes = static_cast<double>(status.ullTotalPhys);
  facts.available_bytes = static_cast<double>(status.ullAvailPhys);
  return facts;
}

// Not yet: VirtualFree of a large block has not been seen to hold up other threads here; nothing to measure it on.
void release_pages_before_free(void*, std::size_t) {}

double process_resident_bytes() {
  PROCESS_MEMORY_COUNTERS counters{};
  if (!::K32GetProcessMemoryInfo(::GetCurrentProcess(), &counters, sizeof counters)) return 0;
  return static_cast<double>(counters.WorkingSetSize);
}

double process_cpu_seconds() {
  FILETIME created, exited, kernel, user;
  if (!::GetProcessTimes(::GetCurrentProcess(), &created, &exited, &kernel, &user)) return -1;
  return filetime_seconds(kernel) + filetime_seconds(user);
}

double thread_cpu_seconds() {
  FILETIME created, exited, kernel, user;
  if (!::GetThreadTimes(::GetCurrentThread(), &created, &exited, &kernel, &user)) return 0;
  return filetime_seconds(kernel) + filetime_seconds(user);
}

double cpu_time_ticks_per_second() { return 0; }  // no /proc/stat on Windows

std::string host_name() {
  wchar_t name[MAX_COMPUTERNAME_LENGTH + 1] = {};
  DWORD n = MAX_COMPUTERNAME_LENGTH + 1;
  if (!::GetComputerNameW(name, &n) || n == 0) return "unknown";
  return narrow(std::wstring(name, n));
}

std::string os_description() {
  // GetVersionEx lies to programs without a manifest; RtlGetVersion, ntdll's own, does not.
  using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
  OSVERSIONINFOW v{};
  v.dwOSVersionInfoSize = sizeof v;
  HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
  auto get = ntdll ? reinterpret_cast<RtlGetVersionFn>(reinterpret_cast<void*>(::GetProcAddress(ntdll, "RtlGetVersion"))) : nullptr;
  if (!get || get(&v) != 0) return "Windows x86_64";
  return "Windows " + std::to_string(v.dwMajorVersion) + "." + std::to_string(v.dwMinorVersion) + "." +
         std::to_string(v.dwBuildNumber) + " x86_64";
}

std::tm utc_calendar(std::time_t t) {
  std::tm utc{};
  ::gmtime_s(&utc, &t);
  return utc;
}

std::string clock_description() { return "std::chrono::steady_clock (QueryPerformanceCounter)"; }

}  // namespace gpulab::platform
