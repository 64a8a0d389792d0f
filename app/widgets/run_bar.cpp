#include "widgets/run_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

RunBar::RunBar(QWidget* parent) : QWidget(parent) {
  auto* lay = new QHBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  m_run = new QPushButton(tr("Run"), this);
  m_run->setToolTip(tr("Run this page's experiment on this machine (Space)"));
  m_run->setDefault(true);
  m_cancel = new QPushButton(tr("Cancel"), this);
  m_cancel->setToolTip(tr("Stop now (Esc): within half a second; finished samples are kept"));
  m_cancel->setEnabled(false);
  m_progress = new QProgressBar(this);
  m_progress->setRange(0, 1000);
  m_progress->setTextVisible(false);
  m_progress->setMinimumWidth(160);
  m_progress->setMaximumHeight(14);
  m_status = new QLabel(this);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_status->setWordWrap(true);
  lay->addWidget(m_run);
  lay->addWidget(m_cancel);
  lay->addWidget(m_progress, 1);
  lay->addWidget(m_status, 2);
  connect(m_run, &QPushButton::clicked, this, &RunBar::runClicked);
  connect(m_cancel, &QPushButton::clicked, this, &RunBar::cancelClicked);
}

void RunBar::setRunText(const QString& text) { m_run->setText(text); }

void RunBar::setRunning(bool running) {
  m_running = running;
  m_cancelling = false;
  m_run->setEnabled(!running);
  m_cancel->setEnabled(running);
  if (running) {
    m_progress->setValue(0);
    m_status->setStyleSheet({});
  }
}

void RunBar::setProgress(double fraction, const QString& message) {
  m_progress->setValue(int(std::clamp(fraction, 0.0, 1.0) * 1000));
  // While cancelling, the last progress lines of the stopping job would hide "Cancelling…".
  if (!message.isEmpty() && !m_cancelling) m_status->setText(message);
}

void RunBar::setCancelling() {
  if (!m_running) return;
  m_cancelling = true;
  m_cancel->setEnabled(false);
  m_status->setStyleSheet({});
  m_status->setText(tr("Cancelling\u2026 (what has finished is kept)"));
}

void RunBar::showError(const QString& message) {
  m_status->setStyleSheet(QStringLiteral("color:#D55E00; font-weight:bold;"));
  m_status->setText(message);
}

void RunBar::showStatus(const QString& message) {
  m_status->setStyleSheet({});
  m_status->setText(message);
}

QString RunBar::statusText() const { return m_status->text(); }
