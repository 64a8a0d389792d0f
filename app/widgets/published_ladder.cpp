#include "widgets/published_ladder.h"

#include "app_context.h"
#include "format.h"
#include "models/published_results.h"
#include "widgets/ladder_text.h"
#include "widgets/plot_style.h"
#include "widgets/published_views.h"

#include "qcustomplot.h"

#include <QEvent>
#include <QFontMetrics>
#include <QTabBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using gpulab::models::PublishedKind;
using gpulab::models::PublishedResult;

namespace {
// The ladder table's titles (gpulab/gemm_ladder.hpp), the same words as the page's own GPU rows, so the two ladders
// read side by side; a step the table lacks as the file spells it.
QString stepName(const std::string& v) {
  const std::optional<gpulab::LadderStep> step = gpulab::ladder_step_of(v);
  return step ? ladderTitle(*step) : QString::fromStdString(v);
}
std::vector<PublishedResult> ladder() { return gpulab::models::published_of_kind(PublishedKind::sgemm_ladder); }
}  // namespace

PublishedLadderPlot::PublishedLadderPlot(AppContext& ctx, QWidget* parent) : QWidget(parent), m_ctx(ctx) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  m_plot = new QCustomPlot(this);
  m_plot->setToolTip(tr("A GPU's SGEMM ladder as published by others (not measured here): each step keeps what the "
                        "last did and adds one idea; the share is of cuBLAS on the same card"));
  lay->addWidget(m_plot);
  m_plot->setMinimumHeight(120);
  connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
    const QString before = m_title ? m_title->text() : QString();
    fitTitle();
    if (m_title && m_title->text() != before) m_plot->replot(QCustomPlot::rpQueuedReplot);
  });
  connect(&m_ctx.results(), &ResultStore::recordingsChanged, this, [this] { emit wantedChanged(); });
  connect(&m_ctx, &AppContext::themeChanged, this, [this] {
    rebuild();
    emit wantedChanged();  // the fonts decide whether it fits under the chart
  });
  rebuild();
}

QString PublishedLadderPlot::title() const {
  const auto steps = ladder();
  if (steps.empty()) return {};
  return tr("%1 — SGEMM ladder, 4092²").arg(publishedLabel(steps.front()));
}

// Called after every layout of the chart, so it only measures: both texts are made by rebuild().
void PublishedLadderPlot::fitTitle() {
  if (!m_title || m_fullTitle.isEmpty()) return;
  // A 1024 px window's chart is narrower than the whole citation ("ublished: … 4092" cut at both ends): then the
  // card and the project, as the decode page's narrow key names a source; the whole citation stays in the bars'
  // name (the slide export's caption) and the CSV.
  const bool narrow =
      m_plot->width() > 0 && QFontMetrics(m_title->font()).horizontalAdvance(m_fullTitle) > m_plot->width() - 8;
  const QString& text = narrow ? m_shortTitle : m_fullTitle;
  if (m_title->text() != text) m_title->setText(text);
}

int PublishedLadderPlot::barCount() const { return int(ladder().size()); }

bool PublishedLadderPlot::wanted() const { return showPublished(m_ctx) && barCount() > 0; }

int PublishedLadderPlot::neededHeight() const {
  QFont f(QStringLiteral("DejaVu Sans"), m_ctx.theme().plotFontPt);
  const int line = QFontMetrics(f).height();
  // Nine rows a little more than a line apart, the title above, tick labels and the axis title below.
  return int(std::lround(barCount() * line * 1.25)) + 4 * line + 24;
}

void PublishedLadderPlot::rebuild() {
  const Theme& th = m_ctx.theme();
  const auto steps = ladder();
  m_plot->clearPlottables();
  m_plot->clearItems();
  stylePlot(m_plot, th);
  if (!m_title) {
    m_plot->plotLayout()->insertRow(0);
    m_title = new QCPTextElement(m_plot, QString());
    m_plot->plotLayout()->addElement(0, 0, m_title);
  }
  QFont tf(QStringLiteral("DejaVu Sans"), std::max(9, th.plotFontPt - 2));
  tf.setBold(true);
  m_title->setFont(tf);
  m_title->setTextColor(publishedColour(th).darker(th.dark ? 80 : 115));
  m_fullTitle = title();
  m_shortTitle = steps.empty() ? QString()
                               : tr("%1 — SGEMM ladder")
                                     .arg(QString::fromStdString(gpulab::models::published_short_label(steps.front())));
  fitTitle();
  m_plot->yAxis->setRangeReversed(true);  // naive on top, as on the page's chart
  m_plot->yAxis->setTickLength(0, 0);
  m_plot->yAxis->setSubTicks(false);
  m_plot->yAxis->grid()->setVisible(false);
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  // The rows at the plot's own size: the step names are what the class reads.
  m_plot->yAxis->setTickLabelFont(QFont(QStringLiteral("DejaVu Sans"), th.plotFontPt));
  for (int i = 0; i < int(steps.size()); ++i) ticker->addTick(i, stepName(steps[i].variant));
  m_plot->yAxis->setTicker(ticker);
  m_plot->yAxis->setRange(-0.6, double(steps.size()) - 0.4);
  // Log GFLOP/s: the naive kernel and cuBLAS are 75× apart; room on the right for the labels.
  useLogAxis(m_plot->xAxis, QStringLiteral("FLOP/s"), 1e9);
  m_plot->xAxis->setLabel(tr("published speed · % of cuBLAS on the same card"));
  const double lo = 100, hi = 23250 * 60;  // room right of the fastest bar for its label
  m_plot->xAxis->setRange(lo, hi);
  const QColor c = publishedColour(th);
  auto* bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
  bars->setName(m_fullTitle);
  bars->setWidth(0.62);
  bars->setBaseValue(lo);
  bars->setBrush(QBrush(c, Qt::DiagCrossPattern));
  bars->setPen(QPen(c.darker(115), 2));
  QFont labelFont(QStringLiteral("DejaVu Sans"), std::max(8, th.plotFontPt - 3));
  for (int i = 0; i < int(steps.size()); ++i) {
    const double v = steps[i].typical_si() / 1e9;
    bars->addData(i, v - lo);
    auto* t = new QCPItemText(m_plot);
    t->setFont(labelFont);
    t->setColor(th.text);
    t->position->setCoords(v, i);
    t->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    t->setPadding(QMargins(8, 0, 0, 0));
    // Short, so a projector's font fits: what the percentage is of says the axis title.
    // The reference bar (cuBLAS against itself: its figure is its own reference) shows its rate alone.
    const bool reference = steps[i].share() == 1.0;
    t->setText(reference
                   ? fmtSi(v * 1e9, "FLOP/s")
                   : tr("%1 · %2 %").arg(fmtSi(v * 1e9, "FLOP/s"), fmtFixed(100 * steps[i].share(), steps[i].share() < 0.1 ? 1 : 0)));
  }
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString PublishedLadderPlot::csv() const {
  QString out = QStringLiteral("step,variant,device,m,n,k,gflops,share_of_cublas,source\n");
  for (const PublishedResult& r : ladder())
    out += QStringLiteral("\"%1\",%2,\"%3\",%4,%5,%6,%7,%8,\"%9\"\n")
               .arg(stepName(r.variant), QString::fromStdString(r.variant), QString::fromStdString(r.device))
               .arg(r.m)
               .arg(r.n)
               .arg(r.k)
               .arg(r.typical_si() / 1e9, 0, 'g', 6)
               .arg(r.share(), 0, 'g', 4)
               .arg(publishedLabel(r));
  return out;
}

namespace {

// The chart and the ladder one above the other, or behind two tabs when that would squeeze either.
class PublishedLadderStack : public QWidget {
 public:
  PublishedLadderStack(QWidget* chart, AppContext& ctx) : m_chart(chart) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(4);
    m_tabs = new QTabBar(this);
    m_tabs->addTab(tr("This machine"));
    m_tabs->addTab(tr("Published GPU"));
    m_tabs->setTabToolTip(0, tr("What ran here, or in an open recording"));
    m_tabs->setTabToolTip(1, tr("An SGEMM ladder on a real GPU as others published it (not measured here)"));
    m_tabs->setDrawBase(false);
    m_tabs->setExpanding(false);
    m_ladder = new PublishedLadderPlot(ctx, this);
    lay->addWidget(m_tabs);
    lay->addWidget(chart, 3);
    lay->addWidget(m_ladder, 2);
    connect(m_tabs, &QTabBar::currentChanged, this, [this] { arrange(); });
    connect(m_ladder, &PublishedLadderPlot::wantedChanged, this, [this] { arrange(); });
    arrange();
  }

 protected:
  void resizeEvent(QResizeEvent* e) override {
    QWidget::resizeEvent(e);
    arrange();
  }

 private:
  void arrange() {
    const bool wanted = m_ladder->wanted();
    // The chart above needs about as much as the ladder: both fit when twice the ladder's height does.
    const bool tabbed = wanted && height() > 0 && height() < 2 * m_ladder->neededHeight();
    m_tabs->setVisible(tabbed);
    const bool ladderTab = tabbed && m_tabs->currentIndex() == 1;
    m_chart->setVisible(!ladderTab);
    m_ladder->setVisible(wanted && (!tabbed || ladderTab));
  }

  QWidget* m_chart;
  QTabBar* m_tabs = nullptr;
  PublishedLadderPlot* m_ladder = nullptr;
};

}  // namespace

QWidget* withPublishedLadder(QWidget* chart, AppContext& ctx) { return new PublishedLadderStack(chart, ctx); }

QList<PlotExport> publishedLadderExports(const QWidget* page) {
  const auto* ladder = page ? page->findChild<PublishedLadderPlot*>() : nullptr;
  if (!ladder || !ladder->wanted()) return {};  // behind its tab it is still the page's plot
  PlotExport e;
  e.id = QStringLiteral("published-ladder");
  e.title = ladder->title();
  e.plot = ladder->plot();
  e.csv = [ladder] { return ladder->csv(); };
  return {e};
}
