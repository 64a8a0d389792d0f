#pragma once
// The lab's recent kernel files, newest first, remembered in the settings across sessions: a student comes back to
// last week's kernel in two clicks. At most kLabRecentMax; files that are gone are left out.
#include <QStringList>

inline constexpr int kLabRecentMax = 8;

QStringList labRecentFiles();
void rememberLabFile(const QString& path);
