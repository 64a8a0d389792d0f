#include "runner/result_store.h"

#include "gpulab/harness.hpp"

void ResultStore::addMeasured(const gpulab::Result& r, const QString& owner) {
  m_results.push_back({r, -1, owner});
  Q_EMIT resultAdded(m_results.back());
}

int ResultStore::addRecording(const QString& path, gpulab::Recording rec) {
  if (m_recordings.size() >= maxRecordings) {
    // Drop the oldest recording and its results; indices of the rest shift down by one.
    QVector<StoredResult> kept;
    for (auto& s : m_results) {
      if (s.source == 0) continue;
      if (s.source > 0) --s.source;
      kept.push_back(std::move(s));
    }
    m_results = std::move(kept);
    m_recordings.removeFirst();
  }
  LoadedRecording loaded;
  loaded.path = path;
  loaded.label = QString::fromStdString(gpulab::recording_label(rec));
  loaded.device = QString::fromStdString(gpulab::recording_device(rec));
  loaded.recording = std::move(rec);
  m_recordings.push_back(std::move(loaded));
  const int index = int(m_recordings.size()) - 1;
  for (const auto& r : m_recordings.back().recording.results) m_results.push_back({r, index, {}});
  Q_EMIT recordingsChanged();
  return index;
}

void ResultStore::clearRecordings() {
  QVector<StoredResult> kept;
  for (auto& s : m_results)
    if (s.source < 0) kept.push_back(std::move(s));
  m_results = std::move(kept);
  m_recordings.clear();
  Q_EMIT recordingsChanged();
}

void ResultStore::clearMeasured() {
  QVector<StoredResult> kept;
  for (auto& s : m_results)
    if (s.source >= 0) kept.push_back(std::move(s));
  m_results = std::move(kept);
  Q_EMIT cleared();
}

QVector<StoredResult> ResultStore::select(const std::function<bool(const gpulab::Result&)>& pred) const {
  QVector<StoredResult> out;
  for (const auto& s : m_results)
    if (pred(s.result)) out.push_back(s);
  return out;
}

QVector<StoredResult> ResultStore::byExperiment(const QString& experiment) const {
  const std::string e = experiment.toStdString();
  return select([&](const gpulab::Result& r) { return r.experiment == e; });
}

QVector<StoredResult> ResultStore::byPlan(const std::string& plan, bool includeUnplanned) const {
  return select([&](const gpulab::Result& r) { return r.plan == plan || (includeUnplanned && r.plan.empty()); });
}

QString ResultStore::sourceLabel(int source) const {
  if (source < 0 || source >= m_recordings.size()) return tr("measured here");
  return m_recordings[source].label;
}

gpulab::Recording ResultStore::measuredAsRecording() const {
  gpulab::Recording rec;
  rec.context["date"] = gpulab::iso_date_now();
  rec.context["suite"] = "gui-session";
  for (const auto& s : m_results)
    if (s.source < 0) rec.results.push_back(s.result);
  return rec;
}
