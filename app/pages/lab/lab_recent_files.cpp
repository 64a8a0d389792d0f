#include "pages/lab/lab_recent_files.h"

#include "settings.h"

#include <QFileInfo>

namespace {
const QString kKey = QStringLiteral("lab/recentFiles");
}  // namespace

QStringList labRecentFiles() {
  QStringList out;
  for (const QString& path : appSettings()->value(kKey).toStringList())
    if (QFileInfo::exists(path) && !out.contains(path)) out << path;
  return out.mid(0, kLabRecentMax);
}

void rememberLabFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = labRecentFiles();
  list.removeAll(absolute);
  list.prepend(absolute);
  appSettings()->setValue(kKey, list.mid(0, kLabRecentMax));
}
