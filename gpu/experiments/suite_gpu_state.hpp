#pragma once
// The GPU's state around a suite's GPU jobs (gpu_state.hpp, from NVML): the recording names the clocks, power,
// temperature and throttle reasons at the start and end of each suite's GPU jobs, and a result taken while the GPU
// throttled says so in its provenance ("gpu_throttled"). Read for the CUDA device only (NVML finds it by the PCI bus
// id CUDA reports); otherwise, and without NVML, the recording says why nothing was read.
#include "gpulab/gpu_state.hpp"
#include "gpulab/plan.hpp"
#include "gpulab/recording.hpp"

#include <map>
#include <memory>
#include <string>

namespace gpulab {

class SuiteGpuState {
 public:
  // GPULAB_NVML_LIBRARY names another NVML file (tests load a fake one; it is read even for the CUDA emulator then).
  explicit SuiteGpuState(const Backends& backends);

  // Wraps every GPU job of `plan` so the state is read as it starts and as its results are handed over.
  void watch(Plan& plan);
  // Writes what was read into the recording's context.
  void write(Recording& rec) const;

 private:
  GpuState read() const;
  void job_started(const std::string& plan);
  void mark(Result& r, const std::string& plan);

  const Backend* m_gpu = nullptr;
  std::string m_pci_bus_id;
  std::string m_not_read;  // why the state is not read ("" when it is)
  std::unique_ptr<NvmlSession> m_nvml;
  GpuState m_job_start;
  std::map<std::string, std::pair<std::string, std::string>> m_suites;  // plan -> (state at start, state at end)
};

}  // namespace gpulab
