#pragma once
// What every page shares: the backends (CPU always; CUDA when the module loaded), the runner, the results,
// the theme. Owned by main(); pages hold a reference.
#include "gpulab/backend.hpp"
#include "gpulab/cuda_loader.hpp"
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
    bool loadCuda = true;  // false: behave as if no GPU (tests, --no-gpu)
  };
  explicit AppContext(Options options, QObject* parent = nullptr);
  explicit AppContext(QObject* parent = nullptr) : AppContext(Options{}, parent) {}
  ~AppContext() override;

  gpulab::Backend& cpu() { return *m_cpu; }
  gpulab::Backend* cuda() { return m_cuda.backend.get(); }  // null without a GPU
  bool hasGpu() const { return m_cuda.backend != nullptr; }
  QString gpuReason() const { return QString::fromStdString(m_cuda.reason); }  // why there is no GPU, in full
  // The reason's first clause, for places with room for one line ("no CUDA module in this build"); the full
  // text (search paths, loader messages) belongs in tooltips and the details dialog.
  QString gpuReasonShort() const;
  QString cudaModulePath() const { return QString::fromStdString(m_cuda.module_path); }
  const gpulab::DeviceInfo& cpuInfo() const { return m_cpuInfo; }
  const gpulab::DeviceInfo* gpuInfo() const { return hasGpu() ? &m_gpuInfo : nullptr; }
  // The backend pages run on by default: the GPU when present, else the CPU.
  gpulab::Backend& preferredBackend() { return hasGpu() ? *m_cuda.backend : *m_cpu; }

  ExperimentRunner& runner() { return m_runner; }
  ResultStore& results() { return m_results; }

  const Theme& theme() const { return m_theme; }
  void setTheme(const Theme& theme);

  // Loads a recording into the store; on failure returns false and sets *error to a message naming the problem.
  bool openRecording(const QString& path, QString* error);

 Q_SIGNALS:
  void themeChanged(const Theme& theme);

 private:
  std::unique_ptr<gpulab::Backend> m_cpu;
  gpulab::CudaLoadResult m_cuda;
  gpulab::DeviceInfo m_cpuInfo, m_gpuInfo;
  ExperimentRunner m_runner;
  ResultStore m_results;
  Theme m_theme = Theme::normal();
};
