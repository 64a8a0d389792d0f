#include "settings.h"

#include <QCoreApplication>
#include <QDir>

std::unique_ptr<QSettings> appSettings() {
  if (qEnvironmentVariableIntValue("GPULAB_NO_SETTINGS") == 1) {
    static const QString scratch = QDir::tempPath() + QStringLiteral("/gpulab-test-settings-%1.ini").arg(QCoreApplication::applicationPid());
    return std::make_unique<QSettings>(scratch, QSettings::IniFormat);
  }
  return std::make_unique<QSettings>(QStringLiteral("gpulab"), QStringLiteral("gpulab"));
}
