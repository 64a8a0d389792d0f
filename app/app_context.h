#pragma once
// What every page shares: the backends (CPU always; CUDA and Vulkan when their modules loaded, one of them chosen as
// "the GPU" the pages run on), the runner, the results,
// the theme. Owned by main(); pages hold a reference.
#include "gpulab/backend.hpp"
#include "gpulab/cuda_loader.hpp"
#include "gpulab/vulkan_loader.hpp"
#include "runner/experiment_runner.h"
#include "runner/result_store.h"
#include "theme.h"

#include <QObject>
#include <QString>

#include <memory>

class AppContext : public QObject {
  Q_OBJECT
 public:
  struct Options {
    bool loadCuda = true;  // false: behave as if no GPU (tests, --no-gpu); Vulkan is not loaded either
    // cuda, vulkan or cpu; unknown: CUDA, else a Vulkan GPU, else the CPU (a CPU-type Vulkan device is never
    // the default). GPULAB_DEVICE sets it, spelled as recordings spell backends ("cuda", "vulkan", "cpu"): the
    // one place a spelling becomes a kind. GPULAB_VULKAN_ALLOW_CPU=1 makes lavapipe choosable.
    gpulab::BackendKind device = gpulab::backend_kind(qEnvironmentVariable("GPULAB_DEVICE").toStdString());
  };
  explicit AppContext(Options options, QObject* parent = nullptr);
  explicit AppContext(QObject* parent = nullptr) : AppContext(Options{}, parent) {}
  ~AppContext() override;

  gpulab::Backend& cpu() { return *m_cpu; }
  // The chosen GPU backend (CUDA or Vulkan); null: the CPU only.
  gpulab::Backend* gpu() { return m_gpu; }
  bool hasGpu() const { return m_gpu != nullptr; }
  QString gpuReason() const;  // why there is no GPU, in full
  // The device choice (device panel): cuda, vulkan or cpu. Cancels a running experiment first. Returns false
  // (and keeps the current choice) when that backend is not available.
  bool chooseGpu(gpulab::BackendKind kind);
  // The chosen device's kind: cpu when no GPU is chosen.
  gpulab::BackendKind gpuKind() const { return m_gpu ? m_gpu->kind_id() : gpulab::BackendKind::cpu; }
  gpulab::Backend* cudaBackend() { return m_cuda.backend.get(); }
  gpulab::Backend* vulkanBackend() { return m_vulkan.backend.get(); }
  QString cudaReason() const { return QString::fromStdString(m_cuda.reason); }
  QString vulkanReason() const { return QString::fromStdString(m_vulkan.reason); }
  const std::vector<gpulab::VulkanDeviceEntry>& vulkanDevices() const { return m_vulkan.devices; }
  // The reason's first clause, for places with room for one line ("no CUDA module in this build"); the full
  // text (search paths, loader messages) belongs in tooltips and the details dialog.
  QString gpuReasonShort() const;
  QString cudaModulePath() const { return QString::fromStdString(m_cuda.module_path); }
  const gpulab::DeviceInfo& cpuInfo() const { return m_cpuInfo; }
  const gpulab::DeviceInfo* gpuInfo() const { return hasGpu() ? &m_gpuInfo : nullptr; }
  // The backend pages run on by default: the GPU when present, else the CPU.
  gpulab::Backend& preferredBackend() { return hasGpu() ? *m_gpu : *m_cpu; }

  ExperimentRunner& runner() { return m_runner; }
  ResultStore& results() { return m_results; }

  const Theme& theme() const { return m_theme; }
  void setTheme(const Theme& theme);

  // Loads a recording into the store; on failure returns false and sets *error to a message naming the problem.
  bool openRecording(const QString& path, QString* error);

 Q_SIGNALS:
  void themeChanged(const Theme& theme);
  void gpuChanged();  // the device choice changed

 private:
  std::unique_ptr<gpulab::Backend> m_cpu;
  gpulab::CudaLoadResult m_cuda;
  gpulab::VulkanLoadResult m_vulkan;
  gpulab::Backend* m_gpu = nullptr;  // m_cuda's or m_vulkan's backend, or null
  bool m_cpuChosen = false;          // the CPU was chosen although a GPU is there
  gpulab::DeviceInfo m_cpuInfo, m_gpuInfo;
  ExperimentRunner m_runner;
  ResultStore m_results;
  Theme m_theme = Theme::normal();
};
