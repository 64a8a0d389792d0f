#include "widgets/published_ladder.h"

#include "app_context.h"
#include "format.h"
#include "models/published_results.h"
#include "widgets/plot_style.h"
#include "widgets/published_views.h"

#include "qcustomplot.h"

#include <QEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using gpulab::models::PublishedKind;
using gpulab::models::PublishedResult;

namespace {
// The same names as the page's own GPU rows (gpu/cuda/kernels/0N_*.cu), so the two ladders read side by side.
QString stepName(const std::string& v) {
  if (v == "naive") return QObject::tr("1 naive");
  if (v == "coalesced") return QObject::tr("2 coalesced");
  if (v == "smem") return QObject::tr("3 smem tiles");
  if (v == "blocktile1d") return QObject::tr("4 1D blocking");
  if (v == "blocktile2d") return QObject::tr("5 2D blocking");
  if (v == "vectorized") return QObject::tr("6 vectorised");
  if (v == "autotuned") return QObject::tr("6b autotuned");
  if (v == "warptile") return QObject::tr("7 warp tiles");
  if (v == "cublas") return QObject::tr("cuBLAS");
  return QString::fromStdString(v);
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
  connect(&m_ctx.results(), &ResultStore::recordingsChanged, this, [this] { updateVisibility(); });
  connect(&m_ctx, &AppContext::themeChanged, this, [this] { rebuild(); });
  rebuild();
  updateVisibility();
}

QString PublishedLadderPlot::title() const {
  const auto steps = ladder();
  if (steps.empty()) return {};
  return tr("%1 — SGEMM ladder, 4092²").arg(publishedLabel(steps.front()));
}

int PublishedLadderPlot::barCount() const { return int(ladder().size()); }

void PublishedLadderPlot::updateVisibility() { setVisible(showPublished(m_ctx) && barCount() > 0); }

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
  m_title->setText(title());
  m_plot->yAxis->setRangeReversed(true);  // naive on top, as on the page's chart
  m_plot->yAxis->setTickLength(0, 0);
  m_plot->yAxis->setSubTicks(false);
  m_plot->yAxis->grid()->setVisible(false);
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  QFont rowFont(QStringLiteral("DejaVu Sans"), std::max(9, th.plotFontPt - 2));
  m_plot->yAxis->setTickLabelFont(rowFont);
  for (int i = 0; i < int(steps.size()); ++i) ticker->addTick(i, stepName(steps[i].variant));
  m_plot->yAxis->setTicker(ticker);
  m_plot->yAxis->setRange(-0.6, double(steps.size()) - 0.4);
  // Log GFLOP/s: the naive kernel and cuBLAS are 75× apart; room on the right for the labels.
  useLogAxis(m_plot->xAxis, QStringLiteral("FLOP/s"), 1e9);
  m_plot->xAxis->setLabel(tr("published speed (longer is faster)"));
  const double lo = 100, hi = 23250 * 30;
  m_plot->xAxis->setRange(lo, hi);
  const QColor c = publishedColour(th);
  auto* bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
  bars->setName(title());
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
    t->setText(steps[i].variant == "cublas"
                   ? fmtSi(v * 1e9, "FLOP/s")
                   : tr("%1 · %2 % of cuBLAS").arg(fmtSi(v * 1e9, "FLOP/s"), fmtFixed(100 * steps[i].share(), steps[i].share() < 0.1 ? 1 : 0)));
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

QWidget* withPublishedLadder(QWidget* chart, AppContext& ctx) {
  auto* box = new QWidget;
  auto* lay = new QVBoxLayout(box);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->setSpacing(4);
  lay->addWidget(chart, 3);
  lay->addWidget(new PublishedLadderPlot(ctx, box), 2);
  return box;
}

QList<PlotExport> publishedLadderExports(const QWidget* page) {
  const auto* ladder = page ? page->findChild<PublishedLadderPlot*>() : nullptr;
  if (!ladder || !ladder->isVisibleTo(page)) return {};
  PlotExport e;
  e.id = QStringLiteral("published-ladder");
  e.title = ladder->title();
  e.plot = ladder->plot();
  e.csv = [ladder] { return ladder->csv(); };
  return {e};
}
