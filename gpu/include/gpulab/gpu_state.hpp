#pragma once
// What an NVIDIA GPU's clocks, power, temperature and throttle reasons were, read from NVML (the driver's management
// library, libnvidia-ml.so.1), loaded at run time like libcuda: a machine without the driver still runs, and the
// recording says NVML was not there. A recording names them per suite at its start and end, and a result taken while
// the GPU throttled says so: a roof measured at a power cap is not the card's roof.
#include <string>

namespace gpulab {

struct GpuState {
  bool read = false;   // false: `reason` says why nothing was read
  std::string reason;
  unsigned sm_mhz = 0, memory_mhz = 0;  // 0: not reported
  double power_w = -1;                  // -1: not reported
  int temperature_c = -1;               // -1: not reported
  unsigned long long throttle_reasons = 0;  // NVML's clocks-event (throttle) reason bits
  // The PCIe link as trained now and at most (0: not reported). An idle GPU retrains its link down (Gen1) to save
  // power, so the current figure is read after work; the most is what the slot and card agreed on.
  unsigned pcie_gen = 0, pcie_width = 0, pcie_max_gen = 0, pcie_max_width = 0;
};

// "Gen4 x16 (at most Gen4 x16)"; empty when NVML did not report the link.
std::string describe_pcie_link(const GpuState& state);

// "SW power cap, HW thermal slowdown"; "none" for 0. Bits NVML may add later are named by their value.
std::string describe_throttle_reasons(unsigned long long reasons);
// Reasons that hold the clock below what the work asks for: power caps, thermal and hardware slowdowns. Not the idle
// reason (nothing ran), nor the application clocks or display settings, nor sync boost (limits someone chose).
bool is_throttled(unsigned long long reasons);
// "SM 1980 MHz, memory 2619 MHz, 312.4 W, 45 °C, throttle reasons: none, PCIe Gen4 x16 (at most Gen4 x16)", or
// "not read: <reason>".
std::string describe(const GpuState& state);

// One NVML session: loads the library, initialises it, and reads a GPU found by its PCI bus id (as CUDA reports it,
// "0000:19:00.0": NVML's index order need not be CUDA's). `library` names another file (tests load a fake).
class NvmlSession {
 public:
  explicit NvmlSession(const std::string& library = "libnvidia-ml.so.1");
  ~NvmlSession();
  NvmlSession(const NvmlSession&) = delete;
  NvmlSession& operator=(const NvmlSession&) = delete;

  bool available() const { return m_api != nullptr; }
  const std::string& reason() const { return m_reason; }  // why not available
  GpuState read(const std::string& pci_bus_id) const;

 private:
  struct Api;
  void* m_handle = nullptr;
  Api* m_api = nullptr;
  std::string m_reason;
};

}  // namespace gpulab
