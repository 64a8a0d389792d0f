#include "shell/class_plan_runner.h"

#include "app_context.h"
#include "pages/page.h"
#include "shell/page_navigator.h"

#include <QCoreApplication>
#include <QDate>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace {

using gpulab::models::PlanValue;

QVariant toVariant(const PlanValue& v) {
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  return QString::fromStdString(std::get<std::string>(v));
}

PlanValue fromVariant(const QVariant& v) {
  if (v.typeId() == QMetaType::Bool) return v.toBool();
  if (v.typeId() == QMetaType::Double || v.typeId() == QMetaType::Int) return v.toDouble();
  return v.toString().toStdString();
}

// Where the sample recordings are: installed beside the binary's share folder, or in the source tree (a build
// run in place). The bundled plan's recordings are named relative to this folder.
QString sampleRecordingsDir() {
  const QString installed =
      QCoreApplication::applicationDirPath() + QStringLiteral("/../" GPULAB_INSTALL_DATA_DIR "/recordings");
  if (QFileInfo(installed).isDir()) return QDir::cleanPath(installed);
  return QStringLiteral(GPULAB_SOURCE_DIR "/resources/recordings");
}

}  // namespace

ClassPlanRunner::ClassPlanRunner(PageNavigator& window, QObject* parent) : QObject(parent), m_window(window) {}

QString ClassPlanRunner::bundledPlanPath() { return QStringLiteral(":/gpulab/plans/lesson-30min.json"); }

bool ClassPlanRunner::load(const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    if (error) *error = tr("cannot read %1: %2").arg(path, file.errorString());
    return false;
  }
  const QString base = path.startsWith(QLatin1Char(':')) ? sampleRecordingsDir() : QFileInfo(path).absolutePath();
  if (!loadText(QString::fromUtf8(file.readAll()), base, error)) return false;
  m_path = path;
  return true;
}

bool ClassPlanRunner::loadText(const QString& text, const QString& baseDir, QString* error) {
  std::string why;
  auto plan = gpulab::models::parse_class_plan(text.toStdString(), &why);
  if (!plan) {
    if (error) *error = QString::fromStdString(why);
    return false;
  }
  for (size_t i = 0; i < plan->steps.size(); ++i)
    if (!m_window.pageById(QString::fromStdString(plan->steps[i].page))) {
      if (error)
        *error = tr("step %1: no page named '%2' in this gpulab (`gpulab export --list` names them)")
                     .arg(i + 1)
                     .arg(QString::fromStdString(plan->steps[i].page));
      return false;
    }
  const bool wasActive = m_active;
  m_plan = std::move(*plan);
  m_baseDir = baseDir;
  m_path.clear();
  m_current = -1;
  m_active = false;
  if (wasActive) Q_EMIT activeChanged(false);
  return true;
}

void ClassPlanRunner::start() {
  if (m_plan.steps.empty()) return;
  m_active = true;
  m_clock.start();
  Q_EMIT activeChanged(true);
  applyStep(0);
}

void ClassPlanRunner::stop() {
  if (!m_active) return;
  m_active = false;
  m_current = -1;
  m_window.refreshLessonHints();
  Q_EMIT activeChanged(false);
}

bool ClassPlanRunner::next() {
  if (!m_active || m_current + 1 >= stepCount()) return false;
  applyStep(m_current + 1);
  return true;
}

bool ClassPlanRunner::previous() {
  if (!m_active || m_current <= 0) return false;
  applyStep(m_current - 1);
  return true;
}

void ClassPlanRunner::goTo(int index) {
  if (m_active && index >= 0 && index < stepCount()) applyStep(index);
}

QString ClassPlanRunner::stepTitle(int index) const {
  if (index < 0 || index >= stepCount()) return {};
  return tr("%1 · %2").arg(index + 1).arg(stepName(index));
}

QString ClassPlanRunner::stepName(int index) const {
  if (index < 0 || index >= stepCount()) return {};
  const auto& step = m_plan.steps[size_t(index)];
  if (!step.title.empty()) return QString::fromStdString(step.title);
  const Page* p = m_window.pageById(QString::fromStdString(step.page));
  return p ? p->title() : QString::fromStdString(step.page);
}

double ClassPlanRunner::plannedMinutesBefore(int index) const {
  double total = 0;
  for (int i = 0; i < index && i < stepCount(); ++i) total += m_plan.steps[size_t(i)].minutes;
  return total;
}

QString ClassPlanRunner::resolveRecording(const QString& path) const {
  if (QFileInfo(path).isAbsolute() || path.startsWith(QLatin1Char(':'))) return path;
  return QDir(m_baseDir).filePath(path);
}

void ClassPlanRunner::applyStep(int index) {
  const auto& step = m_plan.steps[size_t(index)];
  m_current = index;
  m_problems.clear();
  const QString pageId = QString::fromStdString(step.page);
  if (!step.recording.empty()) {
    const QString path = resolveRecording(QString::fromStdString(step.recording));
    bool open = false;
    for (const LoadedRecording& r : m_window.context().results().recordings())
      open = open || QFileInfo(r.path) == QFileInfo(path);
    QString error;
    if (!open && !m_window.context().openRecording(path, &error))
      m_problems << tr("recording %1: %2").arg(path, error);
  }
  m_window.showPage(pageId);
  if (Page* page = m_window.pageById(pageId)) {
    QList<QPair<QString, QVariant>> values;
    for (const auto& [key, value] : step.controls) values.append({QString::fromStdString(key), toVariant(value)});
    m_problems << page->applyControlValues(values);
  }
  m_window.refreshLessonHints();
  if (Page* page = m_window.pageById(pageId)) {
    // What the room may see of the plan: where we are and what comes next, never the note.
    const QString nextTitle = stepTitle(index + 1);
    page->setLessonHint(nextTitle.isEmpty() ? tr("Step %1 of %2 · the end of the plan").arg(index + 1).arg(stepCount())
                                            : tr("Step %1 of %2 · next: %3").arg(index + 1).arg(stepCount()).arg(nextTitle));
  }
  Q_EMIT stepChanged(index);
}

gpulab::models::ClassPlan ClassPlanRunner::captured() const {
  auto capture = [](const Page* page) {
    std::vector<std::pair<std::string, PlanValue>> out;
    for (const auto& [key, value] : page->controlValues()) out.emplace_back(key.toStdString(), fromVariant(value));
    return out;
  };
  if (!m_plan.steps.empty()) {
    gpulab::models::ClassPlan plan = m_plan;
    // Saved elsewhere, a relative recording would point nowhere: write where it really is.
    for (auto& step : plan.steps)
      if (!step.recording.empty())
        step.recording = QFileInfo(resolveRecording(QString::fromStdString(step.recording))).absoluteFilePath().toStdString();
    if (m_current >= 0)
      if (const Page* page = m_window.pageById(QString::fromStdString(plan.steps[size_t(m_current)].page)))
        plan.steps[size_t(m_current)].controls = capture(page);
    return plan;
  }
  gpulab::models::ClassPlan plan;
  plan.title = tr("gpulab lesson, saved %1").arg(QDate::currentDate().toString(Qt::ISODate)).toStdString();
  for (const Page* page : m_window.pages()) {
    gpulab::models::PlanStep step;
    step.page = page->pageId().toStdString();
    step.controls = capture(page);
    plan.steps.push_back(std::move(step));
  }
  return plan;
}
