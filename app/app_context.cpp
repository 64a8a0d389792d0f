#include "app_context.h"

#include "gpulab/recording.hpp"

AppContext::AppContext(Options options, QObject* parent) : QObject(parent) {
  m_runner.setStore(&m_results);  // every result reaches the pages through the store, on one path
  m_cpu = gpulab::make_cpu_backend();
  m_cpuInfo = m_cpu->device_info();
  if (options.loadCuda) {
    m_cuda = gpulab::load_cuda_backend();
  } else {
    m_cuda.reason = "the GPU is switched off for this session by --no-gpu";
  }
  if (m_cuda.backend) {
    try {
      m_gpuInfo = m_cuda.backend->device_info();
    } catch (const std::exception& e) {
      // A module that loads but cannot describe its device is not usable: keep the reason, drop the GPU.
      m_cuda.reason = std::string("the GPU could not be queried: ") + e.what();
      m_cuda.backend.reset();
    }
  }
  if (options.loadCuda) m_vulkan = gpulab::load_vulkan_backend();
  // The default: CUDA, else a Vulkan GPU; a CPU-type Vulkan device (lavapipe) only when asked for by name.
  const bool vulkanIsGpu =
      m_vulkan.backend && m_vulkan.backend->provenance()["device_type"].find("CPU") == std::string::npos;
  if (options.device != gpulab::BackendKind::unknown) chooseGpu(options.device);
  if (!m_gpu && !m_cpuChosen) {
    if (m_cuda.backend) chooseGpu(gpulab::BackendKind::cuda);
    else if (vulkanIsGpu) chooseGpu(gpulab::BackendKind::vulkan);
  }
}

bool AppContext::chooseGpu(gpulab::BackendKind kind) {
  using gpulab::BackendKind;
  gpulab::Backend* next = nullptr;
  if (kind == BackendKind::cuda) next = m_cuda.backend.get();
  else if (kind == BackendKind::vulkan) next = m_vulkan.backend.get();
  else if (kind != BackendKind::cpu) return false;
  if (kind != BackendKind::cpu && !next) return false;
  if (next == m_gpu && m_cpuChosen == !next) return true;
  // A running experiment holds the old backend: stop it before the pages see another one.
  m_runner.cancel();
  m_runner.waitForIdle(30000);
  m_gpu = next;
  m_cpuChosen = !next;
  m_gpuInfo = next ? next->device_info() : gpulab::DeviceInfo{};
  Q_EMIT gpuChanged();
  return true;
}

QString AppContext::gpuReason() const {
  if (m_cpuChosen && (m_cuda.backend || m_vulkan.backend))
    return QStringLiteral("the CPU was chosen in the device panel");
  // Both ways to a GPU, each with its reason (the Vulkan one starts "Vulkan: ").
  QString r = QString::fromStdString(m_cuda.reason);
  if (!m_vulkan.reason.empty()) r += QStringLiteral("; ") + QString::fromStdString(m_vulkan.reason);
  return r;
}

AppContext::~AppContext() {
  // Stop any experiment before the backends it uses are destroyed.
  m_runner.cancel();
  m_runner.waitForIdle(30000);
}

QString AppContext::gpuReasonShort() const {
  QString r = gpuReason();
  // Cut at the first explanation in brackets or after a semicolon: "this gpulab has no CUDA module (… paths …)".
  for (const QString& cut : {QStringLiteral(" ("), QStringLiteral("; "), QStringLiteral(": /")}) {
    const int at = r.indexOf(cut);
    if (at > 20) r.truncate(at);
  }
  return r;
}

void AppContext::setTheme(const Theme& theme) {
  m_theme = theme;
  Q_EMIT themeChanged(m_theme);
}

bool AppContext::openRecording(const QString& path, QString* error) {
  try {
    gpulab::Recording rec = gpulab::load_recording(path.toStdString());
    m_results.addRecording(path, std::move(rec));
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
}
