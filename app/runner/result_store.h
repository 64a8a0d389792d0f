#pragma once
// Every result the app holds, with where it came from: measured here in this session, or loaded from a
// recording. Pages read from here; the runner and File → Open write to it.
#include "gpulab/recording.hpp"
#include "gpulab/results.hpp"

#include <QObject>
#include <QString>
#include <QVector>

#include <functional>

struct StoredResult {
  gpulab::Result result;
  int source = -1;  // -1 = measured here; otherwise an index into ResultStore::recordings()
  QString owner;    // measured here: the page (or CLI) that started the run; empty for recordings
};

struct LoadedRecording {
  QString path;
  QString label;   // "recorded on NVIDIA H200, 2026-11-30"
  QString device;  // "NVIDIA H200"
  gpulab::Recording recording;
};

class ResultStore : public QObject {
  Q_OBJECT
 public:
  explicit ResultStore(QObject* parent = nullptr) : QObject(parent) {}

  void addMeasured(const gpulab::Result& r, const QString& owner = {});
  // Adds a recording's results; returns its index. At most `maxRecordings` are kept (oldest dropped).
  int addRecording(const QString& path, gpulab::Recording rec);
  void clearRecordings();
  void clearMeasured();

  const QVector<StoredResult>& all() const { return m_results; }
  const QVector<LoadedRecording>& recordings() const { return m_recordings; }
  // Results matching a predicate, newest last.
  QVector<StoredResult> select(const std::function<bool(const gpulab::Result&)>& pred) const;
  QVector<StoredResult> byExperiment(const QString& experiment) const;
  // What one plan measured (result.plan): a page's own results, measured here or recorded. Results recorded before
  // plans were (an "all" recording from then) have no plan; `includeUnplanned` takes them too.
  QVector<StoredResult> byPlan(const std::string& plan, bool includeUnplanned = true) const;
  // "measured here" or the recording's label.
  QString sourceLabel(int source) const;
  // A recording of everything measured here in this session.
  gpulab::Recording measuredAsRecording() const;

  static constexpr int maxRecordings = 2;  // side by side: e.g. a laptop and an H200

 Q_SIGNALS:
  void resultAdded(const StoredResult& r);
  void recordingsChanged();
  void cleared();

 private:
  QVector<StoredResult> m_results;
  QVector<LoadedRecording> m_recordings;
};
