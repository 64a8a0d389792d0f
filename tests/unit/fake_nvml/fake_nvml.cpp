// A stand-in for NVIDIA's libnvidia-ml.so.1 with the entry points gpulab reads (gpu/loader/nvml_state.cpp), so the
// NVML path runs in CI without a driver. One GPU, at PCI bus 0000:01:00.0, at boost clocks; FAKE_NVML_REASONS (a
// number, e.g. 0x4) sets the throttle reasons it reports, read at every call so a test can change them mid-run.
#include <cstdlib>

namespace {
int g_device_tag = 0;  // the handle NVML gives is opaque: the address of this
}

extern "C" {

int nvmlInit_v2() { return 0; }
int nvmlShutdown() { return 0; }
const char* nvmlErrorString(int result) { return result == 0 ? "Success" : "Not Found"; }

int nvmlDeviceGetHandleByPciBusId_v2(const char* bus, void** device) {
  const char* want = "0000:01:00.0";
  for (int i = 0;; ++i) {
    if (bus[i] != want[i]) return 6;  // NVML_ERROR_NOT_FOUND
    if (!want[i]) break;
  }
  *device = &g_device_tag;
  return 0;
}

int nvmlDeviceGetClockInfo(void*, int type, unsigned* mhz) {
  if (type == 1) *mhz = 1980;       // NVML_CLOCK_SM
  else if (type == 2) *mhz = 2619;  // NVML_CLOCK_MEM
  else return 2;                    // NVML_ERROR_INVALID_ARGUMENT
  return 0;
}

int nvmlDeviceGetPowerUsage(void*, unsigned* milliwatts) {
  *milliwatts = 312500;
  return 0;
}

int nvmlDeviceGetTemperature(void*, int, unsigned* celsius) {
  *celsius = 45;
  return 0;
}

int nvmlDeviceGetCurrentClocksThrottleReasons(void*, unsigned long long* reasons) {
  const char* v = std::getenv("FAKE_NVML_REASONS");
  *reasons = v ? std::strtoull(v, nullptr, 0) : 0;
  return 0;
}

// A Gen5 x16 card in a slot that trained it to Gen4 x16 (FAKE_NVML_PCIE_GEN sets the current generation).
int nvmlDeviceGetCurrPcieLinkGeneration(void*, unsigned* gen) {
  const char* v = std::getenv("FAKE_NVML_PCIE_GEN");
  *gen = v ? static_cast<unsigned>(std::strtoul(v, nullptr, 0)) : 4;
  return 0;
}
int nvmlDeviceGetCurrPcieLinkWidth(void*, unsigned* width) {
  *width = 16;
  return 0;
}
int nvmlDeviceGetMaxPcieLinkGeneration(void*, unsigned* gen) {
  *gen = 5;
  return 0;
}
int nvmlDeviceGetMaxPcieLinkWidth(void*, unsigned* width) {
  *width = 16;
  return 0;
}

}  // extern "C"
