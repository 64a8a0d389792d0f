#include "pages/amdahl_page.h"

#include "app_context.h"
#include "export/plot_csv.h"
#include "format.h"
#include "gpulab/amdahl_scaling.hpp"
#include "gpulab/models/amdahl_model.hpp"
#include "models/guarded_conclusions.h"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/plot_style.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"
#include "widgets/spread_marks.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <thread>
#include <utility>

using namespace gpulab;
using namespace gpulab::models;

namespace {

constexpr double k_maxWorkers = 10000;

// Speed-ups as the lesson prints them: "4096.0×", "19.9×", "5.9×", "1.33×" (two decimals below 10 would
// turn 5.9× into 5.93×; the lesson keeps one decimal for Amdahl and two for the data-loading 1.33×).
QString fmtTimes(double v, int decimals = 1) {
  if (!std::isfinite(v)) return QStringLiteral("∞");
  return fmtFixed(v, decimals) + QStringLiteral("×");
}

QString fmtLimit(double s) {
  if (s <= 0) return QObject::tr("none (∞)");
  const double lim = amdahl_limit(s);
  const bool whole = std::fabs(lim - std::round(lim)) < 0.05;
  return fmtTimes(lim, whole ? 0 : 1);
}

QString fmtPercent(double share) {
  const double p = share * 100;
  if (p == 0) return QStringLiteral("0 %");
  return fmtFixed(p, p < 2 ? 1 : (std::fabs(p - std::round(p)) < 1e-9 ? 0 : 1)) + QStringLiteral(" %");
}

int nearestIndex(const QVector<double>& steps, double v) {
  int best = 0;
  for (int i = 1; i < steps.size(); ++i)
    if (std::fabs(steps[i] - v) < std::fabs(steps[best] - v)) best = i;
  return best;
}

QSlider* makeSlider(int count, QWidget* parent) {
  auto* s = new QSlider(Qt::Horizontal, parent);
  s->setRange(0, count - 1);
  s->setPageStep(std::max(1, count / 10));
  return s;
}

QLabel* valueLabel(QWidget* parent) {
  auto* l = new QLabel(parent);
  l->setMinimumWidth(70);
  l->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  // Bold through a font that sets only the weight: the size still follows the theme (a style sheet here kept
  // the values at the normal theme's size in projector mode).
  QFont bold;
  bold.setBold(true);
  l->setFont(bold);
  return l;
}

}  // namespace

AmdahlPage::AmdahlPage(AppContext& ctx) : Page(ctx) {
  // Fine steps near 0, where a tenth of a percent already changes the ceiling a lot; 5 % and 50 % exact.
  for (int i = 0; i <= 20; ++i) m_serialSteps << i * 0.001;
  for (int i = 5; i <= 20; ++i) m_serialSteps << i * 0.005;
  for (int i = 11; i <= 100; ++i) m_serialSteps << i * 0.01;
  // Roughly logarithmic, and holding the lesson's 8 and 4,096 exactly.
  m_workerSteps = {1,    2,    3,    4,    5,    6,    8,    10,   12,   16,   20,   24,   32,   40,   50,
                   64,   80,   100,  128,  160,  200,  256,  320,  400,  512,  640,  800,  1000, 1024, 1280,
                   1600, 2000, 2048, 2560, 3200, 4000, 4096, 5000, 6400, 8000, 8192, 10000};
  m_factorSteps = {1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 8, 10, 16, 20, 50, 100, 1000};

  auto* visual = new QWidget;
  auto* col = new QVBoxLayout(visual);
  col->setContentsMargins(0, 0, 0, 0);
  col->setSpacing(6);

  m_plot = new QCustomPlot(visual);
  m_plot->setToolTip(tr("Speed-up against the number of workers (both axes logarithmic). Dotted: Amdahl's law "
                        "for the serial share you set; dashed: its ceiling 1/s; grey dotted: no serial part at "
                        "all. Solid marks: this CPU, measured; hollow: recorded."));
  m_plot->setMinimumHeight(220);
  useLogAxis(m_plot, true);
  useLogAxis(m_plot, false);
  m_plot->xAxis->setLabel(tr("workers N"));
  m_plot->yAxis->setLabel(tr("speed-up ×"));
  m_plot->xAxis->setRange(1, k_maxWorkers * 1.15);
  m_plot->yAxis->setRange(0.8, 14000);
  m_plot->legend->setVisible(true);
  // Top left: above the N× diagonal nothing is ever drawn; bottom right would hide the tracer and the curve.
  m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  m_ideal = m_plot->addGraph();
  m_ideal->setName(tr("no serial part: N×"));
  m_curve = m_plot->addGraph();
  m_curve->setName(tr("Amdahl: 1 / (s + (1−s)/N)"));
  m_limit = m_plot->addGraph();
  m_limit->setName(tr("ceiling 1/s"));
  m_measuredBig = m_plot->addGraph();
  m_measuredBig->setName(tr("this CPU, measured"));
  m_measuredBig->setLineStyle(QCPGraph::lsNone);
  m_recordedBig = m_plot->addGraph();
  m_recordedBig->setName(tr("recorded"));
  m_recordedBig->setLineStyle(QCPGraph::lsNone);
  m_tracer = new QCPItemTracer(m_plot);  // its graph is set once the curve has data (see the replot)
  m_tracer->setInterpolating(true);
  m_tracer->setStyle(QCPItemTracer::tsCircle);
  m_tracerText = new QCPItemText(m_plot);
  m_tracerText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
  m_tracerText->position->setParentAnchor(m_tracer->position);
  m_tracerText->position->setCoords(-8, -8);
  m_limitText = new QCPItemText(m_plot);
  m_limitText->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
  col->addWidget(m_plot, 5);

  auto* lower = new QHBoxLayout;
  lower->setSpacing(6);
  m_scalePlot = new QCustomPlot(visual);
  m_scalePlot->setToolTip(tr("The measured run close up: speed-up on this CPU against threads. Solid marks: measured "
                             "here; dotted: Amdahl's law at the run's serial share; grey: perfect scaling."));
  m_scalePlot->setMinimumHeight(150);
  m_scalePlot->xAxis->setLabel(tr("CPU threads"));
  m_scalePlot->yAxis->setLabel(tr("speed-up ×"));
  m_runIdeal = m_scalePlot->addGraph();
  m_runModel = m_scalePlot->addGraph();
  m_runMeasured = m_scalePlot->addGraph();
  m_runRecorded = m_scalePlot->addGraph();
  m_runRecorded->setLineStyle(QCPGraph::lsNone);
  for (QCPGraph* g : {m_ideal, m_curve, m_limit, m_runIdeal, m_runModel}) tagSource(g, tr("model"));
  for (QCPGraph* g : {m_measuredBig, m_runMeasured}) tagSource(g, tr("measured here"));
  m_runSpread = addSpreadBars(m_runMeasured, {}, {}, {}, QColor());
  m_bigSpread = addSpreadBars(m_measuredBig, {}, {}, {}, QColor());
  m_scaleNote = new QCPItemText(m_scalePlot);
  m_scaleNote->position->setType(QCPItemPosition::ptAxisRectRatio);
  m_scaleNote->position->setCoords(0.03, 0.05);
  m_scaleNote->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_scaleNote->setTextAlignment(Qt::AlignLeft);
  lower->addWidget(m_scalePlot, 1);

  m_barPlot = new QCustomPlot(visual);
  m_barPlot->setToolTip(tr("The lesson's data-loading example: the job's time before and after a faster GPU. The "
                           "loading part (orange) does not shrink, so the whole job speeds up far less than the GPU."));
  m_barPlot->setMinimumHeight(150);
  lower->addWidget(m_barPlot, 1);
  col->addLayout(lower, 3);
  setVisual(visual);

  m_modelBadge = new SourceBadge(SourceBadge::Kind::Model, tr("Amdahl's law (dotted, dashed)"));
  addBadge(m_modelBadge);
  m_measuredBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("thread scaling (solid)"));
  addBadge(m_measuredBadge);

  m_readout = addResultLabel(1, Qt::RichText);
  m_measuredLabel = addResultLabel(1, Qt::RichText);
  m_loadingLabel = addResultLabel(1, Qt::RichText);

  m_replot = makeRedrawTimer([this] { replot(); });

  buildControls();
  runBar()->setRunText(tr("Measure thread scaling"));
  runBar()->runButton()->setToolTip(tr("Time a job with a real serial part (a dependent chain) and a parallel part "
                                       "(independent chains) on 1, 2, 4 … threads of this CPU, at the serial share "
                                       "set above%1").arg(m_ctx.hasGpu() ? tr(", and the GPU's kernel-launch overhead")
                                                                         : QString()));
  recordingsChanged();
  replot();
}

QString AmdahlPage::takeaway() const {
  return tr("Workers only shorten the part of a job that can be split: a 5 % serial share caps any number of "
            "them at 20×.");
}

void AmdahlPage::buildControls() {
  auto* law = new QGroupBox(tr("Amdahl's law"));
  auto* g = new QGridLayout(law);
  g->addWidget(new QLabel(tr("Serial share s")), 0, 0, 1, 2);
  m_serialValue = valueLabel(law);
  g->addWidget(m_serialValue, 0, 2);
  m_serialSlider = makeSlider(int(m_serialSteps.size()), law);
  m_serialSlider->setObjectName(QStringLiteral("serialShare"));
  m_serialSlider->setToolTip(tr("The part of the job that must run one step after another (0–100 %; steps of "
                                "0.1 % below 2 %). It sets the ceiling 1/s and the run's serial prefix."));
  g->addWidget(m_serialSlider, 1, 0, 1, 3);
  auto* sp = new QHBoxLayout;
  for (double s : {0.0, 0.05, 0.5}) {
    auto* b = new QPushButton(fmtPercent(s), law);
    b->setToolTip(tr("Set the serial share to %1 (a value the lesson uses)").arg(fmtPercent(s)));
    connect(b, &QPushButton::clicked, this, [this, s] { setSerialShare(s); });
    sp->addWidget(b);
  }
  g->addLayout(sp, 2, 0, 1, 3);
  g->addWidget(new QLabel(tr("Workers N")), 3, 0, 1, 2);
  m_workersValue = valueLabel(law);
  g->addWidget(m_workersValue, 3, 2);
  m_workersSlider = makeSlider(int(m_workerSteps.size()), law);
  m_workersSlider->setObjectName(QStringLiteral("workers"));
  m_workersSlider->setToolTip(tr("How many workers share the parallel part: 1 to 10,000, in roughly logarithmic steps"));
  g->addWidget(m_workersSlider, 4, 0, 1, 3);
  auto* wp = new QHBoxLayout;
  for (int n : {8, 4096, 10000}) {
    auto* b = new QPushButton(fmtCount(n), law);
    b->setToolTip(tr("Set %1 workers").arg(fmtCount(n)));
    connect(b, &QPushButton::clicked, this, [this, n] { setWorkers(n); });
    wp->addWidget(b);
  }
  g->addLayout(wp, 5, 0, 1, 3);
  controls()->addWidget(law);

  auto* measured = new QGroupBox(tr("Measured run"));
  auto* mg = new QGridLayout(measured);
  mg->addWidget(new QLabel(tr("Threads up to")), 0, 0);
  m_maxThreads = new QSpinBox(measured);
  const int hw = std::max(1, int(std::thread::hardware_concurrency()));
  m_maxThreads->setRange(1, std::max(64, 2 * hw));
  m_maxThreads->setValue(std::max(2, hw));
  m_maxThreads->setToolTip(tr("The run times 1, 2, 4 … threads up to this many (this CPU has %1 logical cores; more "
                              "threads than cores cannot help)").arg(hw));
  mg->addWidget(m_maxThreads, 0, 1);
  auto* how = new QLabel(tr("Job: a serial chain (share s, from above), then independent chains over the threads."),
                         measured);
  how->setWordWrap(true);
  mg->addWidget(how, 1, 0, 1, 2);
  m_gpuNote = new QLabel(measured);
  m_gpuNote->setWordWrap(true);
  m_gpuNote->setTextFormat(Qt::RichText);
  mg->addWidget(m_gpuNote, 2, 0, 1, 2);
  controls()->addWidget(measured);

  auto* load = new QGroupBox(tr("Data loading vs a faster GPU"));
  auto* lg = new QGridLayout(load);
  lg->addWidget(new QLabel(tr("Time spent loading data")), 0, 0, 1, 2);
  m_loadValue = valueLabel(load);
  lg->addWidget(m_loadValue, 0, 2);
  m_loadSlider = makeSlider(101, load);
  m_loadSlider->setObjectName(QStringLiteral("loadingShare"));
  m_loadSlider->setToolTip(tr("The share of the job's time the CPU spends loading and preparing data (the GPU does "
                              "the rest)"));
  lg->addWidget(m_loadSlider, 1, 0, 1, 3);
  lg->addWidget(new QLabel(tr("New GPU is faster by")), 2, 0, 1, 2);
  m_factorValue = valueLabel(load);
  lg->addWidget(m_factorValue, 2, 2);
  m_factorSlider = makeSlider(int(m_factorSteps.size()), load);
  m_factorSlider->setObjectName(QStringLiteral("gpuFactor"));
  m_factorSlider->setToolTip(tr("How much faster the new GPU does its part (1× to 1000×)"));
  lg->addWidget(m_factorSlider, 3, 0, 1, 3);
  controls()->addWidget(load);

  m_serialSlider->setValue(nearestIndex(m_serialSteps, 0.05));
  m_workersSlider->setValue(nearestIndex(m_workerSteps, 4096));
  m_loadSlider->setValue(50);
  m_factorSlider->setValue(nearestIndex(m_factorSteps, 2));
  // Each control redraws the plots it feeds: the serial share both law plots, the workers only the big one's
  // marker, the data-loading pair only its bars.
  const std::pair<QSlider*, unsigned> feeds[] = {{m_serialSlider, Law | Scaling}, {m_workersSlider, Law},
                                                 {m_loadSlider, Loading}, {m_factorSlider, Loading}};
  for (auto [slider, parts] : feeds)
    connect(slider, &QSlider::valueChanged, this, [this, parts = parts] {
      updateReadouts();
      scheduleReplot(parts);
    });
  connect(m_maxThreads, &QSpinBox::valueChanged, this, [this] { scheduleReplot(Scaling); });
}

double AmdahlPage::serialShare() const { return m_serialSteps.value(m_serialSlider->value()); }
int AmdahlPage::workers() const { return int(m_workerSteps.value(m_workersSlider->value())); }
double AmdahlPage::loadingShare() const { return m_loadSlider->value() / 100.0; }
double AmdahlPage::gpuFactor() const { return m_factorSteps.value(m_factorSlider->value()); }

void AmdahlPage::setSerialShare(double share) { m_serialSlider->setValue(nearestIndex(m_serialSteps, share)); }
void AmdahlPage::setWorkers(int n) { m_workersSlider->setValue(nearestIndex(m_workerSteps, n)); }
void AmdahlPage::setLoading(double share, double factor) {
  m_loadSlider->setValue(int(std::lround(std::clamp(share, 0.0, 1.0) * 100)));
  m_factorSlider->setValue(nearestIndex(m_factorSteps, factor));
}
void AmdahlPage::setMaxThreads(int threads) { m_maxThreads->setValue(threads); }

QString AmdahlPage::readoutText() const { return m_readout->text(); }
QString AmdahlPage::loadingText() const { return m_loadingLabel->text(); }
QString AmdahlPage::measuredText() const { return m_measuredLabel->text(); }

int AmdahlPage::mainPlotMarkCount() const { return m_measuredBig->dataCount() + m_recordedBig->dataCount(); }

QVector<QPointF> AmdahlPage::measuredPoints() const {
  QVector<QPointF> out;
  for (const Point& p : m_measured) out << QPointF(p.threads, p.speedup);
  return out;
}

void AmdahlPage::scheduleReplot(unsigned parts) {
  m_dirty |= parts;
  if (!m_replot->isActive()) m_replot->start();
}

void AmdahlPage::updateReadouts() {
  const double s = serialShare();
  const int n = workers();
  const double sp = amdahl_speedup(s, n);
  m_serialValue->setText(fmtPercent(s));
  m_workersValue->setText(fmtCount(n));
  m_readout->setText(tr("<b style='font-size:large'>%1</b> with %2 workers at %3 serial · ceiling 1/s = <b>%4</b> · "
                        "each worker %5 busy")
                         .arg(fmtTimes(sp), fmtCount(n), fmtPercent(s), fmtLimit(s),
                              fmtPercent(amdahl_efficiency(s, n))));

  const double L = loadingShare(), k = gpuFactor();
  const double overall = partial_speedup(1.0 - L, k);
  m_loadValue->setText(fmtPercent(L));
  m_factorValue->setText(fmtTimes(k, k < 10 && k != std::round(k) ? 2 : 0));
  m_loadingLabel->setText(tr("Loading %1, GPU %2 faster → the job takes %3 of its old time: <b>%4 overall</b>")
                              .arg(fmtPercent(L), fmtTimes(k, k != std::round(k) ? 2 : 0),
                                   fmtPercent(L + (1 - L) / k), fmtTimes(overall, 2)));

  if (!m_measured.isEmpty()) {
    // What the last thread count implies, only as far as its per-round spread (and a quiet machine) allow.
    const Point& last = m_measured.back();
    const ShareInference inf = infer_serial_share(last.range, int(last.threads), m_busy.busy());
    const QString warning = busyWarningHtml(m_busy, m_ctx.theme());
    m_measuredLabel->setText((warning.isEmpty() ? QString() : warning + QStringLiteral("<br>")) +
                             tr("Measured here at serial share %1 (Amdahl on %2 threads: %3): %4")
                                 .arg(fmtPercent(m_runShare))
                                 .arg(int(last.threads))
                                 .arg(fmtTimes(amdahl_speedup(m_runShare, last.threads), 2),
                                      last.threads > 1 ? QString::fromStdString(inf.conclusion.text).toHtmlEscaped()
                                                       : fmtTimes(last.speedup, 2)));
  } else if (!m_recorded.isEmpty()) {
    const Point& last = m_recorded.back();
    m_measuredLabel->setText(tr("%1, serial share %2: %3 on %4 threads (Amdahl: %5)")
                                 .arg(m_recordedLabel, fmtPercent(m_recordedShare), fmtTimes(last.speedup, 2))
                                 .arg(int(last.threads))
                                 .arg(fmtTimes(amdahl_speedup(m_recordedShare, last.threads), 2)));
  } else if (m_measuredLabel->text().isEmpty()) {
    m_measuredLabel->setText(tr("Not measured yet: press <b>Space</b> to time this CPU with 1…%1 threads.")
                                 .arg(m_maxThreads->value()));
  }
  updateGpuNote();
}

void AmdahlPage::updateGpuNote() {
  QString text;
  if (m_launchPerKernel > 0) {
    const double work = 10e-6;  // a small kernel's own work, for the share below
    text = tr("<b>GPU serial part</b> (%1): each of 1,000 tiny kernels launched back to back costs <b>%2</b>. A "
              "kernel with %3 of real work spends %4 of its time just being launched — a serial share no number "
              "of SMs removes.")
               .arg(m_launchSource, fmtSeconds(m_launchPerKernel), fmtSeconds(work),
                    fmtPercent(m_launchPerKernel / (m_launchPerKernel + work)));
  } else if (gpulab::Backend* gpu = m_ctx.cuda()) {
    const Support ok = gpu->supports(LaunchOverheadSpec{});
    text = ok.ok ? tr("<b>GPU serial part</b>: the run also launches 1,000 tiny kernels on the GPU to time the fixed "
                      "cost of each launch.")
                 : tr("<b>GPU serial part</b>: not measured — %1.").arg(QString::fromStdString(ok.reason).toHtmlEscaped());
  } else {
    // The loader's reason can list every folder it searched: the first clause is enough here.
    QString why = m_ctx.gpuReason();
    if (const int cut = why.indexOf(QStringLiteral(" (")); cut > 0) why.truncate(cut);
    text = tr("<b>GPU serial part</b>: each kernel launch costs microseconds, so many tiny kernels act as a serial "
              "share. Not measured: %1. A recording made on a GPU shows it.")
               .arg(why.toHtmlEscaped());
  }
  m_gpuNote->setText(text);
}

void AmdahlPage::replot() {
  // Only what the changed controls feed is redrawn: a slider dragged on one plot must not pay for all three.
  const unsigned parts = std::exchange(m_dirty, 0u);
  const Theme& t = m_ctx.theme();
  const double s = serialShare();
  const int n = workers();

  QVector<double> mx, my, rx, ry, lows, highs;
  for (const Point& p : m_measured) mx << p.threads, my << p.speedup, lows << p.range.low, highs << p.range.high;
  for (QCPErrorBars* bars : {m_runSpread, m_bigSpread}) bars->data()->clear();
  for (const Point& p : m_recorded) rx << p.threads, ry << p.speedup;
  if (parts & Law) {
    QVector<double> xs, ys, ideal;
    for (int i = 0; i <= 200; ++i) {
      const double x = std::pow(10.0, 4.0 * i / 200.0);
      xs << x;
      ys << amdahl_speedup(s, x);
      ideal << x;
    }
    m_curve->setData(xs, ys, true);
    m_ideal->setData(xs, ideal, true);
    if (s > 0) {
      const double lim = amdahl_limit(s);
      m_limit->setData({1.0, k_maxWorkers * 1.15}, {lim, lim}, true);
      m_limit->setVisible(true);
      m_limitText->setVisible(true);
      m_limitText->position->setCoords(1.15, lim * 1.08);
      m_limitText->setText(tr("ceiling 1/s = %1").arg(fmtLimit(s)));
    } else {
      m_limit->setData(QVector<double>{}, QVector<double>{});
      m_limitText->setVisible(false);
    }
    // Attached only now that the curve has points: a tracer on an empty graph logs "graph has no data".
    m_tracer->setGraph(m_curve);
    m_tracer->setGraphKey(n);
    m_tracer->updatePosition();
    m_tracerText->setText(tr("%1 at %2").arg(fmtTimes(amdahl_speedup(s, n)), fmtCount(n)));
    // The big plot's curve is the slider's share: measured points belong on it only when they were run at that
    // share (a 30 % job under the 5 % curve would look like the law failing). The close-up always has them.
    const auto sameShare = [s](double share) { return share >= 0 && std::fabs(share - s) < 1e-9; };
    m_measuredBig->setData(sameShare(m_runShare) ? mx : QVector<double>{}, sameShare(m_runShare) ? my : QVector<double>{});
    for (int i = 0; sameShare(m_runShare) && i < my.size(); ++i) m_bigSpread->addData(my[i] - lows[i], highs[i] - my[i]);
    m_recordedBig->setData(sameShare(m_recordedShare) ? rx : QVector<double>{},
                           sameShare(m_recordedShare) ? ry : QVector<double>{});
    for (QCPGraph* g : {m_measuredBig, m_recordedBig}) {  // the key lists only the marks that are there
      if (g->data()->isEmpty()) g->removeFromLegend();
      else g->addToLegend();
    }
    m_plot->replot();
  }
  if (parts & Scaling) {
    // The close-up: threads on a linear axis, the model at the share the run used (not the slider's, which may
    // have moved since).
    double maxT = m_maxThreads->value();
    for (const Point& p : m_measured) maxT = std::max(maxT, p.threads);
    for (const Point& p : m_recorded) maxT = std::max(maxT, p.threads);
    const double runShare = m_runShare >= 0 ? m_runShare : (m_recordedShare >= 0 ? m_recordedShare : s);
    QVector<double> tx, tm, ti;
    for (int i = 0; i <= 100; ++i) {
      const double x = 1 + (maxT - 1) * i / 100.0;
      tx << x;
      tm << amdahl_speedup(runShare, x);
      ti << x;
    }
    m_runIdeal->setData(tx, ti, true);
    m_runModel->setData(tx, tm, true);
    m_runModel->setName(tr("Amdahl at s = %1").arg(fmtPercent(runShare)));
    m_runMeasured->setData(mx, my);
    for (int i = 0; i < my.size(); ++i) m_runSpread->addData(my[i] - lows[i], highs[i] - my[i]);
    m_runRecorded->setData(rx, ry);
    m_scalePlot->xAxis->setRange(0.7, maxT + 0.3);
    double top = std::max(2.0, maxT) * 1.08;
    for (double v : my) top = std::max(top, v * 1.15);
    m_scalePlot->yAxis->setRange(0, top);
    if (mx.isEmpty() && rx.isEmpty())
      m_scaleNote->setText(tr("Space: measure"));
    else if (mx.isEmpty())
      m_scaleNote->setText(tr("hollow: recorded"));
    else
      m_scaleNote->setText(tr("run at s = %1").arg(fmtPercent(runShare)));
    m_scalePlot->replot();
  }
  if (parts & Loading) {
    // Data loading, before and after: two stacked horizontal bars in units of the old job's time.
    m_barPlot->clearPlottables();
    m_barPlot->clearItems();
    const double L = loadingShare(), k = gpuFactor();
    auto* loadBars = new QCPBars(m_barPlot->yAxis, m_barPlot->xAxis);
    auto* gpuBars = new QCPBars(m_barPlot->yAxis, m_barPlot->xAxis);
    loadBars->setName(tr("loading data (CPU)"));
    gpuBars->setName(tr("GPU maths"));
    loadBars->setData({2.0, 1.0}, {L, L});
    gpuBars->setData({2.0, 1.0}, {1.0 - L, (1.0 - L) / k});
    gpuBars->moveAbove(loadBars);
    for (auto* b : {loadBars, gpuBars}) b->setWidth(0.6);
    loadBars->setBrush(t.cpu);
    loadBars->setPen(QPen(t.cpu.darker(130)));
    gpuBars->setBrush(t.gpu);
    gpuBars->setPen(QPen(t.gpu.darker(130)));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(2, tr("before"));
    ticker->addTick(1, tr("after"));
    m_barPlot->yAxis->setTicker(ticker);
    m_barPlot->yAxis->setRange(0.4, 2.6);
    m_barPlot->xAxis->setRange(0, 1.6);
    m_barPlot->xAxis->setLabel(tr("time, share of the old job"));
    auto* total = new QCPItemText(m_barPlot);
    total->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    total->position->setCoords(L + (1 - L) / k + 0.02, 1.0);
    total->setText(tr("%1 → %2").arg(fmtFixed(L + (1 - L) / k, 2), fmtTimes(partial_speedup(1 - L, k), 2)));
    total->setColor(t.text);
    QFont tf(QStringLiteral("DejaVu Sans"), t.plotFontPt);
    tf.setBold(true);
    total->setFont(tf);
    m_barPlot->legend->setVisible(true);
    placeLegendAbove(m_barPlot, 2);  // the bars and their total fill the axis rect: the key goes above it
    m_barPlot->replot();
  }
}

void AmdahlPage::applyTheme(const Theme& t) {
  Page::applyTheme(t);
  for (QCustomPlot* p : {m_plot, m_scalePlot, m_barPlot}) stylePlot(p, t);
  styleGraph(m_curve, t, t.accent, SeriesKind::Model);
  // The law is this page's main line: dotted like every model, but as thick as a measured line so a
  // projector shows it.
  QPen curvePen = seriesPen(t, t.accent, SeriesKind::Model);
  curvePen.setWidthF(t.lineWidth);
  m_curve->setPen(curvePen);
  styleGraph(m_ideal, t, t.model, SeriesKind::Model);
  styleGraph(m_limit, t, t.bad, SeriesKind::Datasheet);
  styleGraph(m_measuredBig, t, t.cpu, SeriesKind::Measured);
  styleGraph(m_recordedBig, t, t.cpu, SeriesKind::Recorded);
  styleGraph(m_runIdeal, t, t.model, SeriesKind::Model);
  m_runIdeal->setName(tr("perfect: N×"));
  m_runModel->setPen(curvePen);
  styleGraph(m_runMeasured, t, t.cpu, SeriesKind::Measured);
  for (QCPErrorBars* bars : {m_runSpread, m_bigSpread}) bars->setPen(QPen(t.cpu.darker(140), 1.5));
  m_runMeasured->setName(tr("measured here"));
  styleGraph(m_runRecorded, t, t.cpu, SeriesKind::Recorded);
  m_runRecorded->setName(tr("recorded"));
  m_scalePlot->legend->setVisible(true);
  placeLegendAbove(m_scalePlot, 2);  // a small plot: any corner of it would hide a line
  m_tracer->setPen(QPen(t.accent, t.lineWidth));
  m_tracer->setBrush(t.surface);
  m_tracer->setSize(t.markerSize + 4);
  QFont f(QStringLiteral("DejaVu Sans"), t.plotFontPt);
  f.setBold(true);
  m_tracerText->setFont(f);
  m_tracerText->setColor(t.accent);
  m_limitText->setFont(f);
  m_limitText->setColor(t.bad);
  QFont small(QStringLiteral("DejaVu Sans"), legendFontPt(t));
  m_scaleNote->setFont(small);
  m_scaleNote->setColor(t.mutedText);
  updateReadouts();
  m_dirty = All;  // a new theme restyles every plot
  replot();
}

void AmdahlPage::run() {
  if (isRunning()) return;
  AmdahlScalingSpec spec;
  spec.serial_share = serialShare();
  spec.threads = amdahl_thread_ladder(m_maxThreads->value());
  gpulab::Backend* cpu = &m_ctx.cpu();
  gpulab::Backend* gpu = m_ctx.cuda();
  const bool launch = gpu && gpu->supports(LaunchOverheadSpec{}).ok;
  MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 15;
  policy.time_budget_s = 0.6;
  m_measured.clear();
  m_runShare = spec.serial_share;
  m_busy.start();
  m_measuredLabel->setText(tr("Measuring…"));
  startJob(tr("Thread scaling at %1 serial").arg(fmtPercent(spec.serial_share)),
           [spec, cpu, gpu, launch](const RunContext& ctx) {
             RunContext sub = ctx;
             sub.progress_span = ctx.progress_span * (launch ? 0.85 : 1.0);
             run_amdahl_scaling(*cpu, spec, sub);
             if (launch && !ctx.cancelled()) {
               RunContext g = ctx;
               g.progress_base = ctx.progress_base + ctx.progress_span * 0.85;
               g.progress_span = ctx.progress_span * 0.15;
               run_launch_overhead(*gpu, LaunchOverheadSpec{1000, 1024}, g);
             }
           },
           policy);
}

void AmdahlPage::onResult(const gpulab::Result& r) {
  if (r.experiment == "launch_overhead") {
    if (r.ok() && r.param("per_launch_s") > 0) {
      m_launchPerKernel = r.param("per_launch_s");
      m_launchSource = tr("measured here");
    } else if (!r.error.empty()) {
      m_gpuNote->setText(tr("<b>GPU serial part</b>: %1").arg(QString::fromStdString(r.error).toHtmlEscaped()));
      return;
    }
    updateGpuNote();
    return;
  }
  if (r.experiment != "amdahl_scaling") return;
  if (!r.ok()) {
    m_measuredLabel->setText(tr("The %1-thread run failed: %2")
                                 .arg(int(r.param("threads")))
                                 .arg(QString::fromStdString(r.error).toHtmlEscaped()));
    return;
  }
  Point p;
  p.threads = r.param("threads");
  p.speedup = r.param("speedup", 1.0);
  p.seconds = r.stats.median_s;
  p.serialSeconds = r.param("serial_s");
  p.samples = r.samples_s;
  m_busy.note(r.stats.rel_spread, r.stats.median_s);
  // Paired with the 1-thread run of the same rounds (it reports first): the speed-up's range over the rounds.
  for (const Point& one : m_measured)
    if (one.threads == 1) p.range = paired_speedup_range(one.samples, p.samples);
  if (p.threads == 1) p.range = paired_speedup_range(p.samples, p.samples);
  m_measured.push_back(p);
  m_measuredBadge->set(SourceBadge::Kind::MeasuredHere, tr("thread scaling (solid)"));
  m_measuredBadge->show();
  fitBadges();
  updateReadouts();
  scheduleReplot();
}

void AmdahlPage::onRunFinished(bool) {
  m_busy.finish();
  updateReadouts();
  scheduleReplot();
}

void AmdahlPage::recordingsChanged() {
  m_recorded.clear();
  m_recordedShare = -1;
  if (m_launchSource != tr("measured here")) {
    m_launchPerKernel = 0;
    m_launchSource.clear();
  }
  const auto& all = m_ctx.results().all();
  // The newest recorded run: its share decides which recorded points belong together.
  for (auto it = all.crbegin(); it != all.crend(); ++it) {
    if (it->source < 0 || it->result.experiment != "amdahl_scaling" || !it->result.ok()) continue;
    m_recordedShare = it->result.param("serial_share");
    m_recordedLabel = m_ctx.results().sourceLabel(it->source);
    for (QCPGraph* g : {m_recordedBig, m_runRecorded}) tagSource(g, m_recordedLabel);
    break;
  }
  for (const StoredResult& sr : all) {
    if (sr.source < 0 || !sr.result.ok()) continue;
    if (sr.result.experiment == "amdahl_scaling" && sr.result.param("serial_share") == m_recordedShare) {
      Point p;
      p.threads = sr.result.param("threads");
      p.speedup = sr.result.param("speedup", 1.0);
      p.seconds = sr.result.stats.median_s;
      m_recorded.push_back(p);
    } else if (sr.result.experiment == "launch_overhead" && m_launchSource != tr("measured here") &&
               sr.result.param("per_launch_s") > 0) {
      m_launchPerKernel = sr.result.param("per_launch_s");
      m_launchSource = m_ctx.results().sourceLabel(sr.source);
    }
  }
  // The badge names what is on the plot: this machine's solid points once measured, until then a replayed
  // recording's outlined ones, and nothing at all before either ("measured here" only for what was).
  if (m_measured.empty() && !m_recorded.empty())
    m_measuredBadge->set(SourceBadge::Kind::Recorded, tr("thread scaling (outlined), %1").arg(m_recordedLabel));
  m_measuredBadge->setVisible(!m_measured.empty() || !m_recorded.empty());
  fitBadges();
  updateReadouts();
  scheduleReplot();
}

QList<PlotExport> AmdahlPage::plots() {
  QList<PlotExport> out;
  out.append(PlotExport{QStringLiteral("amdahl"), tr("Amdahl's law: speed-up against workers"), m_plot, nullptr,
                        [this] { return plotSeriesCsv(m_plot, QStringLiteral("workers"), QStringLiteral("speedup_x")); }});
  out.append(PlotExport{QStringLiteral("amdahl_measured"), tr("Measured thread scaling"), m_scalePlot, nullptr,
                        [this] { return plotSeriesCsv(m_scalePlot, QStringLiteral("threads"), QStringLiteral("speedup_x")); }});
  out.append(PlotExport{QStringLiteral("data_loading"), tr("Data loading vs a faster GPU"), m_barPlot, nullptr,
                        [this] {  // the lesson's example, computed: each bar's parts by the legend's names
                          const double L = loadingShare(), k = gpuFactor();
                          return QStringLiteral("bar,series,source,share_of_old_job\nbefore,%1,model,%3\nbefore,%2,model,"
                                                "%4\nafter,%1,model,%3\nafter,%2,model,%5\n")
                              .arg(tr("loading data (CPU)"), tr("GPU maths")).arg(L).arg(1 - L).arg((1 - L) / k);
                        }});
  return out;
}

LessonContent AmdahlPage::lesson() const {
  LessonContent c;
  c.intro = tr("Some work is a chain: each step waits for the one before it, and extra workers cannot help with it. "
               "Amdahl's law turns that into a number. If a share s of the job is strictly serial, N workers can "
               "speed it up by at most 1 / (s + (1 − s) / N), and no number of workers can beat 1 / s. With just "
               "5 % serial, 4,096 workers give 19.9× instead of 4,096×, and the ceiling is 20×. The layers of a network "
               "do run in order, but each one is a huge parallel product inside, so they are not where the serial "
               "share lives. On a GPU it hides in data loading on the CPU, Python overhead, kernel launches and the "
               "synchronisations between them — tiny kernels launched one after another.");
  c.questions.append({tr("Half of a training run's time goes to the CPU reading and preparing batches, the other "
                         "half to the GPU's arithmetic. The GPU is replaced by one with double the speed. What does "
                         "the whole run gain?"),
                      tr("About 1.33×, not 2×. The loading half still takes 0.5 of the old time; only the GPU half "
                         "shrinks, from 0.5 to 0.25. The new job takes 0.75 of the old time, and 1 / 0.75 ≈ 1.33. The "
                         "part you did not speed up now dominates — faster data loading would pay off more than "
                         "another GPU upgrade. Try it with the sliders in \"Data loading vs a faster GPU\".")});
  c.questions.append({tr("If 5 % of a job is strictly serial, what is the most that infinitely many cores could "
                         "give?"),
                      tr("20×, because 1 / 0.05 = 20. Even with the parallel 95 % taking no time at all, the serial "
                         "5 % is still there. The dashed line on the plot is that ceiling.")});
  c.exercises.append({tr("The practice script uses 4,096 workers. Change it to 8 workers: with a 5 % serial share, "
                         "what speed-up do you expect?"),
                      tr("×"), [] { return amdahl_speedup(0.05, 8); },
                      tr("1 / (0.05 + 0.95 / 8) ≈ 5.9×. With only 8 workers the parallel part still dominates the "
                         "time (0.119 against 0.05), so the serial part is not yet the main limit — it becomes the "
                         "limit as the number of workers grows."),
                      0.05});
  c.exercises.append({tr("Half the time is data loading and the new GPU is twice as fast. Predict the overall "
                         "speed-up of the job."),
                      tr("×"), [] { return partial_speedup(0.5, 2); },
                      tr("0.5 + 0.5 / 2 = 0.75 of the old time, so 1 / 0.75 ≈ 1.33×."), 0.03});
  c.exercises.append({tr("With 4,096 workers, what speed-up does a 50 % serial share leave?"), tr("×"),
                      [] { return amdahl_speedup(0.5, 4096); },
                      tr("1 / (0.5 + 0.5 / 4096) ≈ 2.0×: half the job is a chain, so at best the time halves."), 0.05});
  return c;
}

GPULAB_REGISTER_PAGE(90, AmdahlPage);
