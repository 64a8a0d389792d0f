#include "app_context.h"

#include "gpulab/cpu_peak_state.hpp"
#include "gpulab/recording.hpp"
#include "models/cpu_peak_in_use.h"
#include "runner/cpu_peak_watch.h"
#include "settings.h"

#include <QCryptographicHash>
#include <QDate>

#include <algorithm>
#include <cmath>

namespace {
// The last confirmed peak per machine: "fp32;fp64;date;machine key" under cpuPeak/<the key's hash> (a settings key
// cannot hold the CPU's name as it is).
QString peakSettingsKey(const QString& machineKey) {
  return QStringLiteral("cpuPeak/") +
         QString::fromLatin1(QCryptographicHash::hash(machineKey.toUtf8(), QCryptographicHash::Md5).toHex());
}

// The CPU peak the pages use (issue 40): the start-up bursts' figure, provisional until a background set confirms
// it (CpuPeakWatch), and never a start-up figure far below the last good one on this machine (models/
// cpu_peak_in_use.h). `cpuInfo` is the context's, read by every page; the watch is the context's child and says when
// the figure in it changed. GPULAB_NO_PEAK_SETTLE=1: no background sets (the start-up figure stands, provisional).
void watchCpuPeak(QObject& context, ExperimentRunner& runner, gpulab::DeviceInfo& cpuInfo, gpulab::Backend& cpu) {
  auto* watch = new CpuPeakWatch(runner, &context);
  const gpulab::CpuPeakState startup = gpulab::cpu_peak_state();
  const QString key = QString::fromStdString(cpu_peak_in_use::machineKey(cpuInfo.name, cpuInfo.compute_units, cpuInfo.simd));
  cpu_peak_in_use::LastGood lastGood;
  const QStringList last = appSettings()->value(peakSettingsKey(key)).toString().split(QLatin1Char(';'));
  if (last.size() == 4 && last[3] == key) lastGood = {last[0].toDouble(), last[1].toDouble(), last[2].toStdString()};
  // Tests stand in for an earlier session's figure: "fp32;fp64;date".
  if (const QStringList given = qEnvironmentVariable("GPULAB_LAST_GOOD_CPU_PEAK").split(QLatin1Char(';')); given.size() == 3)
    lastGood = {given[0].toDouble(), given[1].toDouble(), given[2].toStdString()};

  auto apply = [watch, &cpuInfo, &cpu, key, lastGood](const gpulab::CpuPeakState& now) mutable {
    const cpu_peak_in_use::Choice choice = cpu_peak_in_use::choose(now, lastGood);
    // The pages redraw (every one of them) only for a change worth a redraw: a later set a percent above the
    // start-up one changes no share a class reads.
    auto moved = [](double a, double b) { return std::abs(a - b) > 0.02 * std::max(a, b); };
    const QString kind = QString::fromUtf8(cpu_peak_in_use::kindName(choice.kind));
    const QString lastGoodKind = QString::fromUtf8(cpu_peak_in_use::kindName(cpu_peak_in_use::Choice::Kind::lastGood));
    const bool changed = moved(choice.gflops_fp32, cpuInfo.peak_gflops_fp32) ||
                         moved(choice.gflops_fp64, cpuInfo.peak_gflops_fp64) ||
                         (kind != watch->peakKind() && (kind == lastGoodKind || watch->peakKind() == lastGoodKind));
    cpuInfo = cpu.device_info();  // its details list the bursts so far
    cpuInfo.peak_gflops_fp32 = choice.gflops_fp32;
    cpuInfo.peak_gflops_fp64 = choice.gflops_fp64;
    cpuInfo.peak_source = choice.source;
    if (choice.kind == cpu_peak_in_use::Choice::Kind::confirmed) {
      // Remembered for the next start's check: a start-up far below it is a busy machine's.
      lastGood = {choice.gflops_fp32, choice.gflops_fp64, QDate::currentDate().toString(Qt::ISODate).toStdString()};
      appSettings()->setValue(peakSettingsKey(key), QStringLiteral("%1;%2;%3;%4")
                                                        .arg(choice.gflops_fp32, 0, 'g', 6)
                                                        .arg(choice.gflops_fp64, 0, 'g', 6)
                                                        .arg(QString::fromStdString(lastGood.date), key));
    }
    if (!choice.keepMeasuring) watch->stop();
    watch->setPeakKind(kind, changed);
  };
  apply(startup);
  QObject::connect(watch, &CpuPeakWatch::measured, watch, apply);
  if (watch->peakKind() != QLatin1String("confirmed") && qEnvironmentVariableIntValue("GPULAB_NO_PEAK_SETTLE") != 1)
    watch->start();
}
}  // namespace

AppContext::AppContext(Options options, QObject* parent) : QObject(parent) {
  m_runner.setStore(&m_results);  // every result reaches the pages through the store, on one path
  m_cpu = gpulab::make_cpu_backend();
  m_cpuInfo = m_cpu->device_info();
  watchCpuPeak(*this, m_runner, m_cpuInfo, *m_cpu);
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
  // The peak watch reads the runner and writes cpuInfo: it goes (waiting for a set in flight) before they do.
  delete findChild<CpuPeakWatch*>();
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
