// The precision page's views: one tab with the three panels and the table when they fit, else the panels, the
// table and the underflow demo taking turns behind tabs (a projector at 1366×768 has room for one chart of seven
// formats with readable labels, not three side by side over a table).
#include "pages/precision/precision_page.h"

#include "app_context.h"
#include "qcustomplot.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace {

QWidget* emptyPage(QWidget* parent) {
  auto* page = new QWidget(parent);
  auto* lay = new QVBoxLayout(page);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->setSpacing(4);
  return page;
}

void moveInto(QWidget* w, QWidget* page, int stretch, Qt::Alignment align = {}) {
  if (w->parentWidget() == page && page->layout()->indexOf(w) >= 0) return;
  if (QWidget* old = w->parentWidget(); old && old->layout()) old->layout()->removeWidget(w);
  static_cast<QVBoxLayout*>(page->layout())->addWidget(w, stretch, align);
  w->show();
}

}  // namespace

void PrecisionPage::buildViews() {
  m_views = new QTabWidget(this);
  m_views->setObjectName(QStringLiteral("precisionViews"));
  m_views->setToolTip(tr("The formats side by side (speed, bytes, error and every number), and what FP16's range "
                         "does to tiny gradients."));
  for (QWidget*& page : m_viewPages) page = emptyPage(m_views);
  QWidget* under = m_viewPages[std::size_t(View::underflow)];
  under->layout()->addWidget(m_uplot);
  under->layout()->addWidget(m_ulabel);
  static_cast<QVBoxLayout*>(under->layout())->setStretch(0, 1);
  connect(m_views, &QTabWidget::currentChanged, this, [this] {
    placeSharedWidgets();
    scheduleReplot();
  });
  m_compact = true;  // so that the first call builds the tabs
  setCompact(false);
}

PrecisionPage::View PrecisionPage::currentView() const {
  for (std::size_t i = 0; i < m_viewPages.size(); ++i)
    if (m_viewPages[i] == m_views->currentWidget()) return View(i);
  return View::all;
}

void PrecisionPage::showView(View v) {
  if (m_compact && v == View::all) v = View::speed;
  if (!m_compact && (v == View::speed || v == View::bytes || v == View::error || v == View::numbers)) v = View::all;
  m_views->setCurrentWidget(m_viewPages[std::size_t(v)]);
}

void PrecisionPage::setCompact(bool compact) {
  if (compact == m_compact) return;
  const View was = m_views->count() ? currentView() : View::all;
  m_compact = compact;
  {
    const QSignalBlocker block(m_views);
    while (m_views->count()) m_views->removeTab(0);
    auto add = [this](View v, const QString& title, const QString& tip) {
      const int i = m_views->addTab(m_viewPages[std::size_t(v)], title);
      m_views->setTabToolTip(i, tip);
    };
    if (compact) {
      add(View::speed, tr("Speed"), tr("Throughput per format: the chosen card's datasheet (dashed) and what ran here"));
      add(View::bytes, tr("Bytes"), tr("Bytes per value, and what a 7B model's weights take in each format"));
      add(View::error, tr("Error"), tr("Correct digits of a GEMM in each format, against FP64"));
      add(View::numbers, tr("Numbers"), tr("Every figure and each format's status on this device"));
    } else {
      add(View::all, tr("Speed · size · error"), tr("Throughput, bytes per value and error, with every number below"));
    }
    add(View::underflow, tr("FP16 underflow"), tr("What FP16's range does to tiny gradients, and loss scaling"));
  }
  showView(was == View::all && compact ? (m_lastPanel == Panel::bytes   ? View::bytes
                                          : m_lastPanel == Panel::error ? View::error
                                                                        : View::speed)
                                       : was);
  placeSharedWidgets();
  scheduleReplot();
}

void PrecisionPage::updateCompact() {
  if (!m_views || m_views->width() <= 0) return;
  // What the three panels and the table need at the theme's fonts: seven rows of labelled bars (datasheet,
  // measured here, each opened recording) plus the axis below; the panels' titles and value labels across; the
  // table's rows.
  QFont tick(QStringLiteral("DejaVu Sans"));
  tick.setPointSize(m_ctx.theme().plotFontPt);
  QFont bold = tick;
  bold.setBold(true);
  const QFontMetrics fm(tick), fb(bold);
  const int line = fm.height();
  const int chartH = 7 * ((2 + int(m_recordedSources.size())) * line + 8) + 3 * line + 24;
  const int tableH = (m_table->rowCount() + 1) * (m_table->fontMetrics().height() + 10) + 8;
  const int chartW = fm.horizontalAdvance(QStringLiteral("FP64 ")) + 3 * fm.horizontalAdvance(QStringLiteral("1.98 PFLOP/s")) +
                     fb.horizontalAdvance(tr("Bytes · 7B model")) + fb.horizontalAdvance(tr("Correct digits")) + 120;
  const int room = m_views->height() - m_views->tabBar()->sizeHint().height();
  setCompact(room < chartH + tableH || m_views->width() < chartW);
}

void PrecisionPage::placeSharedWidgets() {
  const View v = currentView();
  switch (v) {
    case View::all:
      // The chart above the table: both taken out first, so the order is right whichever came back first.
      for (QWidget* w : {static_cast<QWidget*>(m_plot), static_cast<QWidget*>(m_table)})
        if (QWidget* old = w->parentWidget(); old && old->layout()) old->layout()->removeWidget(w);
      moveInto(m_plot, m_viewPages[std::size_t(View::all)], 1);
      moveInto(m_table, m_viewPages[std::size_t(View::all)], 0);
      break;
    case View::speed:
    case View::bytes:
    case View::error:
      m_lastPanel = v == View::speed ? Panel::speed : v == View::bytes ? Panel::bytes : Panel::error;
      moveInto(m_plot, m_viewPages[std::size_t(v)], 1);
      break;
    case View::numbers:
      moveInto(m_table, m_viewPages[std::size_t(View::numbers)], 0, Qt::AlignTop);
      break;
    case View::underflow:
      break;
  }
}

QVector<PrecisionPage::Panel> PrecisionPage::shownPanels() const {
  if (!m_compact || !m_exportSize.isEmpty()) return {Panel::speed, Panel::bytes, Panel::error};
  return {m_lastPanel};
}
