#pragma once
// "Record your own GPU": how a teacher without an NVIDIA GPU gets a recording of one (a free notebook GPU, a
// rented or department Linux machine) with tools/record-your-gpu.ipynb / tools/record-your-gpu.sh. Shown from
// Help → Record your own GPU and from the device panel's "No GPU here" line.
#include <QString>
#include <QStringList>

class QWidget;

QString recordYourGpuHtml();
void showRecordYourGpu(QWidget* parent);

// File → Open recent: the recordings opened last, newest first (QSettings "files/recent"; under
// GPULAB_NO_SETTINGS=1 a scratch file, as every setting). rememberRecentRecording() keeps at most 8, no repeats.
QStringList recentRecordings();
void rememberRecentRecording(const QString& path);
