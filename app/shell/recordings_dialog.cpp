#include "shell/recordings_dialog.h"

#include "app_context.h"
#include "export/exporter.h"
#include "models/recording_contents.h"
#include "pages/page.h"
#include "settings.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace {
QString contextValue(const gpulab::Recording& rec, const char* key) {
  auto it = rec.context.find(key);
  return it == rec.context.end() ? QString() : QString::fromStdString(it->second);
}

// "Matrix multiply, serial vs parallel: 512³: 4 ways", a line per page the recording feeds, named by the pages
// of the window the dialog belongs to (by id when it has none, as in a test).
QStringList pageLines(const gpulab::Recording& rec, const QWidget* window) {
  QStringList lines;
  const QList<Page*> pages = window ? window->findChildren<Page*>() : QList<Page*>{};
  for (const recording_contents::PageHolding& h : recording_contents::holdings(rec)) {
    QString name = QString::fromStdString(h.page_id);
    for (const Page* p : pages)
      if (p->pageId() == name) name = p->title();
    lines << QStringLiteral("%1: %2").arg(name, QString::fromStdString(h.what));
  }
  return lines;
}
}  // namespace

RecordingsDialog::RecordingsDialog(AppContext& ctx, QWidget* parent) : QDialog(parent), m_ctx(ctx) {
  setWindowTitle(tr("Recordings"));
  setMinimumWidth(640);
  auto* lay = new QVBoxLayout(this);
  auto* intro = new QLabel(tr("Results recorded elsewhere with <code>gpulab bench</code>, replayed on the pages as "
                              "hollow marks labelled with their device and date. Up to %1 side by side; opening "
                              "another replaces the oldest.").arg(ResultStore::maxRecordings),
                           this);
  intro->setWordWrap(true);
  lay->addWidget(intro);
  m_rows = new QVBoxLayout;
  lay->addLayout(m_rows);
  m_empty = new QLabel(tr("No recording is open. Open one, or start gpulab with --open FILE.json."), this);
  lay->addWidget(m_empty);
  lay->addStretch(1);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  auto* open = buttons->addButton(tr("Open another…"), QDialogButtonBox::ActionRole);
  open->setToolTip(tr("Open a recording (.json) made with `gpulab bench`"));
  connect(open, &QPushButton::clicked, this, &RecordingsDialog::openAnother);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  lay->addWidget(buttons);

  connect(&m_ctx.results(), &ResultStore::recordingsChanged, this, &RecordingsDialog::rebuild);
  rebuild();
}

void RecordingsDialog::closeRecording(AppContext& ctx, int index) {
  const QVector<LoadedRecording> open = ctx.results().recordings();
  if (index < 0 || index >= open.size()) return;
  ctx.results().clearRecordings();
  for (int i = 0; i < open.size(); ++i)
    if (i != index) ctx.results().addRecording(open[i].path, open[i].recording);
}

QStringList RecordingsDialog::rowTexts() const { return m_rowTexts; }

QStringList RecordingsDialog::holdings(int index) const { return m_holdings.value(index); }

void RecordingsDialog::rebuild() {
  while (QLayoutItem* item = m_rows->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  m_rowTexts.clear();
  m_holdings.clear();
  const QVector<LoadedRecording>& open = m_ctx.results().recordings();
  m_empty->setVisible(open.isEmpty());
  for (int i = 0; i < open.size(); ++i) {
    const LoadedRecording& r = open[i];
    auto* row = new QFrame(this);
    row->setFrameShape(QFrame::StyledPanel);
    auto* h = new QHBoxLayout(row);
    QStringList details;
    if (const QString suite = contextValue(r.recording, "suite"); !suite.isEmpty()) details << tr("suite %1").arg(suite);
    details << tr("%n result(s)", nullptr, int(r.recording.results.size()));
    if (const QString host = contextValue(r.recording, "host"); !host.isEmpty()) details << tr("host %1").arg(host);
    // What it holds, page by page: a page shows a recording only at the settings it measured (the matmul page at
    // the sizes listed here), so say where to look.
    const QStringList holds = pageLines(r.recording, parentWidget());
    QStringList holdsHtml;
    for (const QString& line : holds) holdsHtml << line.toHtmlEscaped();
    auto* text = new QLabel(tr("<b>%1. %2</b><br>%3<br>%4<small>%5</small>")
                                .arg(i + 1)
                                .arg(r.label.toHtmlEscaped(), details.join(QStringLiteral(" · ")).toHtmlEscaped(),
                                     holdsHtml.isEmpty() ? QString()
                                                         : tr("Holds, by page:<br>&nbsp;&nbsp;%1<br>")
                                                               .arg(holdsHtml.join(QStringLiteral("<br>&nbsp;&nbsp;"))),
                                     QFileInfo(r.path).absoluteFilePath().toHtmlEscaped()),
                            row);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text->setWordWrap(true);
    h->addWidget(text, 1);
    auto* save = new QPushButton(tr("Save a copy…"), row);
    save->setToolTip(tr("Write this recording as JSON (the same format; it opens again with File → Open)"));
    connect(save, &QPushButton::clicked, this, [this, i] { saveCopy(i); });
    h->addWidget(save);
    auto* close = new QPushButton(tr("Close"), row);
    close->setToolTip(tr("Stop showing this recording's results; the others stay"));
    // Deferred: the click handler must not delete its own button while it runs.
    connect(close, &QPushButton::clicked, this, [this, i] {
      QMetaObject::invokeMethod(this, [this, i] { closeRecording(m_ctx, i); }, Qt::QueuedConnection);
    });
    h->addWidget(close);
    m_rows->addWidget(row);
    m_rowTexts << QStringLiteral("%1 — %2").arg(r.label, r.path);
    m_holdings << holds;
  }
}

void RecordingsDialog::openAnother() {
  auto settings = appSettings();
  const QString dir = settings->value(QStringLiteral("files/lastDir")).toString();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open a gpulab recording"), dir, tr("Recordings (*.json)"));
  if (path.isEmpty()) return;
  settings->setValue(QStringLiteral("files/lastDir"), QFileInfo(path).absolutePath());
  QString error;
  if (!m_ctx.openRecording(path, &error))
    QMessageBox::warning(this, tr("Could not open the recording"), tr("%1\n\n%2").arg(path, error));
}

void RecordingsDialog::saveCopy(int index) {
  const QVector<LoadedRecording>& open = m_ctx.results().recordings();
  if (index < 0 || index >= open.size()) return;
  const QString path = QFileDialog::getSaveFileName(this, tr("Save a copy of the recording"),
                                                    QFileInfo(open[index].path).fileName(), tr("Recordings (*.json)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportRecordingJson(open[index].recording, path, &error))
    QMessageBox::warning(this, tr("Could not save"), error);
}
