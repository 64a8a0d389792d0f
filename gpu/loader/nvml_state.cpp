// NVML read at run time (gpu_state.hpp). The few entry points used are declared here by their C ABI, so no NVML
// header is needed to build: an opaque device handle, unsigned outputs, 0 for success.
#include "gpulab/gpu_state.hpp"

#include "loader/module_search.hpp"

#include "gpulab/platform.hpp"

#include <cstdio>
#include <memory>
#include <utility>

namespace gpulab {
namespace {

using NvmlReturn = int;  // nvmlReturn_t; NVML_SUCCESS = 0
using NvmlDevice = void*;
constexpr int kClockSm = 1, kClockMemory = 2;  // nvmlClockType_t: NVML_CLOCK_SM, NVML_CLOCK_MEM
constexpr int kTemperatureGpu = 0;             // NVML_TEMPERATURE_GPU

// The throttle ("clocks event") reason bits, as NVML's header defines them.
struct ReasonName {
  unsigned long long bit;
  const char* name;
  bool throttles;
};
constexpr ReasonName kReasons[] = {
    {0x1, "GPU idle", false},
    {0x2, "application clocks setting", false},
    {0x4, "SW power cap", true},
    {0x8, "HW slowdown", true},
    {0x10, "sync boost", false},
    {0x20, "SW thermal slowdown", true},
    {0x40, "HW thermal slowdown", true},
    {0x80, "HW power brake slowdown", true},
    {0x100, "display clock setting", false},
};

template <class Fn>
Fn symbol(void* handle, const char* name) {
  return reinterpret_cast<Fn>(platform::library_symbol(handle, name));
}

std::string fixed1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

struct NvmlSession::Api {
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  const char* (*error_string)(NvmlReturn) = nullptr;
  NvmlReturn (*by_pci)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*clock)(NvmlDevice, int, unsigned*) = nullptr;
  NvmlReturn (*power)(NvmlDevice, unsigned*) = nullptr;
  NvmlReturn (*temperature)(NvmlDevice, int, unsigned*) = nullptr;
  NvmlReturn (*reasons)(NvmlDevice, unsigned long long*) = nullptr;
  NvmlReturn (*pcie_gen)(NvmlDevice, unsigned*) = nullptr;
  NvmlReturn (*pcie_width)(NvmlDevice, unsigned*) = nullptr;
  NvmlReturn (*pcie_max_gen)(NvmlDevice, unsigned*) = nullptr;
  NvmlReturn (*pcie_max_width)(NvmlDevice, unsigned*) = nullptr;
};

std::string describe_throttle_reasons(unsigned long long reasons) {
  if (reasons == 0) return "none";
  std::string out;
  unsigned long long known = 0;
  for (const ReasonName& r : kReasons) {
    known |= r.bit;
    if (reasons & r.bit) out += (out.empty() ? "" : ", ") + std::string(r.name);
  }
  if (const unsigned long long other = reasons & ~known) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "reason bits 0x%llx", other);
    out += (out.empty() ? "" : ", ") + std::string(buf);
  }
  return out;
}

bool is_throttled(unsigned long long reasons) {
  for (const ReasonName& r : kReasons)
    if (r.throttles && (reasons & r.bit)) return true;
  return false;
}

std::string describe_pcie_link(const GpuState& s) {
  if (s.pcie_gen == 0 || s.pcie_width == 0) return {};
  std::string out = "Gen" + std::to_string(s.pcie_gen) + " x" + std::to_string(s.pcie_width);
  if (s.pcie_max_gen > 0 && s.pcie_max_width > 0)
    out += " (at most Gen" + std::to_string(s.pcie_max_gen) + " x" + std::to_string(s.pcie_max_width) + ")";
  return out;
}

std::string describe(const GpuState& s) {
  if (!s.read) return "not read: " + s.reason;
  std::string out;
  auto add = [&out](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
  add(s.sm_mhz > 0 ? "SM " + std::to_string(s.sm_mhz) + " MHz" : "SM clock not reported");
  add(s.memory_mhz > 0 ? "memory " + std::to_string(s.memory_mhz) + " MHz" : "memory clock not reported");
  add(s.power_w >= 0 ? fixed1(s.power_w) + " W" : "power not reported");
  add(s.temperature_c >= 0 ? std::to_string(s.temperature_c) + " \u00b0C" : "temperature not reported");
  add("throttle reasons: " + describe_throttle_reasons(s.throttle_reasons));
  if (const std::string link = describe_pcie_link(s); !link.empty()) add("PCIe " + link);
  return out;
}

NvmlSession::NvmlSession(const std::string& library) {
  m_handle = platform::open_library(library, false);
  if (!m_handle) {
    m_reason = "NVML is not available (" + platform::library_error() +
               "): the NVIDIA driver's management library, without which the clocks, power and throttle reasons "
               "are not recorded";
    return;
  }
  auto api = std::make_unique<Api>();
  api->init = symbol<decltype(api->init)>(m_handle, "nvmlInit_v2");
  api->shutdown = symbol<decltype(api->shutdown)>(m_handle, "nvmlShutdown");
  api->error_string = symbol<decltype(api->error_string)>(m_handle, "nvmlErrorString");
  api->by_pci = symbol<decltype(api->by_pci)>(m_handle, "nvmlDeviceGetHandleByPciBusId_v2");
  api->clock = symbol<decltype(api->clock)>(m_handle, "nvmlDeviceGetClockInfo");
  api->power = symbol<decltype(api->power)>(m_handle, "nvmlDeviceGetPowerUsage");
  api->temperature = symbol<decltype(api->temperature)>(m_handle, "nvmlDeviceGetTemperature");
  // Renamed "clocks event reasons" in CUDA 12.2's NVML; the old name stays exported by older and current drivers.
  api->reasons = symbol<decltype(api->reasons)>(m_handle, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!api->reasons) api->reasons = symbol<decltype(api->reasons)>(m_handle, "nvmlDeviceGetCurrentClocksThrottleReasons");
  api->pcie_gen = symbol<decltype(api->pcie_gen)>(m_handle, "nvmlDeviceGetCurrPcieLinkGeneration");
  api->pcie_width = symbol<decltype(api->pcie_width)>(m_handle, "nvmlDeviceGetCurrPcieLinkWidth");
  api->pcie_max_gen = symbol<decltype(api->pcie_max_gen)>(m_handle, "nvmlDeviceGetMaxPcieLinkGeneration");
  api->pcie_max_width = symbol<decltype(api->pcie_max_width)>(m_handle, "nvmlDeviceGetMaxPcieLinkWidth");
  if (!api->init || !api->shutdown || !api->by_pci) {
    m_reason = library + " lacks nvmlInit_v2, nvmlShutdown or nvmlDeviceGetHandleByPciBusId_v2 (too old a driver)";
    return;
  }
  if (const NvmlReturn e = api->init(); e != 0) {
    m_reason = "nvmlInit_v2 failed with " + std::to_string(e) +
               (api->error_string ? " (" + std::string(api->error_string(e)) + ")" : std::string());
    return;
  }
  m_api = api.release();
}

NvmlSession::~NvmlSession() {
  if (m_api) m_api->shutdown();
  delete m_api;
  // The library stays loaded: unloading a driver library mid-process gains nothing and has crashed some drivers.
}

GpuState NvmlSession::read(const std::string& pci_bus_id) const {
  GpuState s;
  if (!m_api) {
    s.reason = m_reason;
    return s;
  }
  NvmlDevice device = nullptr;
  if (const NvmlReturn e = m_api->by_pci(pci_bus_id.c_str(), &device); e != 0 || !device) {
    s.reason = "NVML has no GPU at PCI bus " + pci_bus_id + " (error " + std::to_string(e) +
               (m_api->error_string ? ": " + std::string(m_api->error_string(e)) : std::string()) + ")";
    return s;
  }
  s.read = true;
  unsigned v = 0;
  if (m_api->clock && m_api->clock(device, kClockSm, &v) == 0) s.sm_mhz = v;
  if (m_api->clock && m_api->clock(device, kClockMemory, &v) == 0) s.memory_mhz = v;
  if (m_api->power && m_api->power(device, &v) == 0) s.power_w = v / 1000.0;  // milliwatts
  if (m_api->temperature && m_api->temperature(device, kTemperatureGpu, &v) == 0) s.temperature_c = static_cast<int>(v);
  unsigned long long reasons = 0;
  if (m_api->reasons && m_api->reasons(device, &reasons) == 0) s.throttle_reasons = reasons;
  // Each link figure is read alone: a GPU on an SXM board or behind a virtual bus may report some and not others.
  auto link = [&](NvmlReturn (*fn)(NvmlDevice, unsigned*), unsigned& into) {
    unsigned value = 0;
    if (fn && fn(device, &value) == 0) into = value;
  };
  link(m_api->pcie_gen, s.pcie_gen);
  link(m_api->pcie_width, s.pcie_width);
  link(m_api->pcie_max_gen, s.pcie_max_gen);
  link(m_api->pcie_max_width, s.pcie_max_width);
  return s;
}

}  // namespace gpulab
