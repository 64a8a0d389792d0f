#include "settings.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <cstdlib>

namespace {

QString scratchPath() {
  return QDir::tempPath() + QStringLiteral("/gpulab-test-settings-%1.ini").arg(QCoreApplication::applicationPid());
}

void removeScratch() { QFile::remove(scratchPath()); }

}  // namespace

std::unique_ptr<QSettings> appSettings() {
  if (qEnvironmentVariableIntValue("GPULAB_NO_SETTINGS") == 1) {
    // A fresh file for this process, removed at its exit. The name has the process id, and ids come round again
    // (pid_max 32768 here): a file an earlier test process left (574 of them were in /tmp) gave a later one its
    // start page. A fit test that must start on the first page started on the kernel page in 1 run of 6 (the
    // widgets it named were the kernel page's) and failed when the kernel page's own trace grew the window.
    static const QString scratch = [] {
      removeScratch();
      std::atexit(removeScratch);
      return scratchPath();
    }();
    return std::make_unique<QSettings>(scratch, QSettings::IniFormat);
  }
  return std::make_unique<QSettings>(QStringLiteral("gpulab"), QStringLiteral("gpulab"));
}
