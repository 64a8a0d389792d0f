// The GPU's state around a suite's GPU jobs (suite_gpu_state.hpp).
#include "suite_gpu_state.hpp"

#include "gpulab/device_words.hpp"

#include <cstdlib>

namespace gpulab {

SuiteGpuState::SuiteGpuState(const Backends& backends) : m_gpu(backends.gpu) {
  if (!m_gpu) {
    m_not_read = "no GPU in this run";
    return;
  }
  const char* fake = std::getenv("GPULAB_NVML_LIBRARY");
  const bool named = fake && *fake;
  if (m_gpu->kind_id() != BackendKind::cuda) {
    m_not_read = "NVML is read for a CUDA device only (NVIDIA's driver; this run's GPU is a " + m_gpu->kind() +
                 " device)";
    return;
  }
  if (!named && device_words(m_gpu->device_info()).device_class == DeviceClass::emulator) {
    m_not_read = "the CUDA emulator is not a GPU: it has no clocks, power or temperature to read";
    return;
  }
  const Provenance p = m_gpu->provenance();
  if (const auto it = p.find("pci_bus_id"); it != p.end()) m_pci_bus_id = it->second;
  m_nvml = std::make_unique<NvmlSession>(named ? std::string(fake) : std::string("libnvidia-ml.so.1"));
  if (!m_nvml->available()) {
    m_not_read = m_nvml->reason();
    m_nvml.reset();
  } else if (m_pci_bus_id.empty()) {
    m_not_read = "the CUDA module did not report the GPU's PCI bus id, which NVML finds it by";
    m_nvml.reset();
  }
}

GpuState SuiteGpuState::read() const {
  if (!m_nvml) {
    GpuState s;
    s.reason = m_not_read;
    return s;
  }
  return m_nvml->read(m_pci_bus_id);
}

void SuiteGpuState::watch(Plan& plan) {
  if (!m_nvml) return;
  for (PlanJob& job : plan.jobs) {
    if (job.backend != m_gpu) continue;
    job.run = [this, inner = std::move(job.run), name = job.plan](const RunContext& ctx) {
      job_started(name);
      RunContext marked = ctx;
      marked.on_result = [this, &ctx, &name](const Result& r) {
        Result m = r;
        mark(m, name);
        if (ctx.on_result) ctx.on_result(m);
      };
      std::vector<Result> results = inner(marked);
      for (Result& r : results) mark(r, name);  // used when the job handed none over as it went
      return results;
    };
  }
}

void SuiteGpuState::job_started(const std::string& plan) {
  m_job_start = read();
  auto& suite = m_suites[plan];
  if (suite.first.empty()) suite.first = describe(m_job_start);
}

void SuiteGpuState::mark(Result& r, const std::string& plan) {
  const GpuState now = read();
  m_suites[plan].second = describe(now);
  std::string when;
  if (m_job_start.read && is_throttled(m_job_start.throttle_reasons))
    when = "at its start (" + describe_throttle_reasons(m_job_start.throttle_reasons) + ")";
  if (now.read && is_throttled(now.throttle_reasons))
    when += (when.empty() ? "" : " and ") + std::string("at its end (") +
            describe_throttle_reasons(now.throttle_reasons) + ")";
  if (!when.empty())
    r.provenance["gpu_throttled"] = "yes: the GPU was throttled " + when + "; this result is below the card's own";
  r.provenance["gpu_state_end"] = describe(now);
  // The link a transfer crossed, read after it ran (an idle link trains down): a Gen3 or x8 link explains a
  // transfer rate far below the card's datasheet PCIe figure.
  if (const std::string link = describe_pcie_link(now); !link.empty()) r.provenance["pcie_link"] = link;
}

void SuiteGpuState::write(Recording& rec) const {
  if (!m_not_read.empty()) {
    rec.context["gpu_state"] = "not read: " + m_not_read;
    return;
  }
  rec.context["gpu_state"] = "NVML, per suite at the start and end of its GPU jobs (gpu_state_<suite>_start/_end)";
  for (const auto& [plan, states] : m_suites) {
    rec.context["gpu_state_" + plan + "_start"] = states.first;
    rec.context["gpu_state_" + plan + "_end"] = states.second;
  }
}

}  // namespace gpulab
