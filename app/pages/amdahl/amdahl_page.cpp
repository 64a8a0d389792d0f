#include "pages/amdahl/amdahl_page.h"

#include "app_context.h"
#include "widgets/plot_csv.h"
#include "format.h"
#include "gpulab/amdahl_scaling.hpp"
#include "gpulab/models/amdahl_model.hpp"
#include "models/guarded_conclusions.h"
#include "pages/amdahl/amdahl_page_detail.h"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/plot_style.h"
#include "widgets/run_bar.h"
#include "widgets/source_badge.h"
#include "widgets/spread_marks.h"
#include "widgets/stacked_or_tabbed.h"

#include <QBoxLayout>
#include <QEvent>
#include <QFontMetrics>
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
#include <set>
#include <cmath>
#include <thread>
#include <utility>

using namespace gpulab;
using namespace gpulab::models;
using namespace amdahl_page_detail;

namespace {

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

  m_plot = new QCustomPlot;
  m_plot->setToolTip(tr("Speed-up against the number of workers (both axes logarithmic). Dotted: Amdahl's law "
                        "for the serial share you set; dashed: its ceiling 1/s; grey dotted: no serial part at "
                        "all. Solid marks: this CPU, measured; hollow: recorded (round: the first recording, square: a "
                        "second)."));
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
  m_tracer = new QCPItemTracer(m_plot);  // its graph is set once the curve has data (see the replot)
  m_tracer->setInterpolating(true);
  m_tracer->setStyle(QCPItemTracer::tsCircle);
  m_tracerText = new QCPItemText(m_plot);
  m_tracerText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
  m_tracerText->position->setParentAnchor(m_tracer->position);
  m_tracerText->position->setCoords(-8, -8);
  m_limitText = new QCPItemText(m_plot);
  m_limitText->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);

  // The measured run and the data-loading bars side by side (one above the other where their keys need the width),
  // under the law when the page is tall enough for all three at readable sizes, else behind a second tab (a
  // projector at 1366×768, or a window with recordings' keys to show).
  m_lowerPane = new QWidget;
  m_lowerLayout = new QBoxLayout(QBoxLayout::LeftToRight, m_lowerPane);
  auto* lower = m_lowerLayout;
  lower->setContentsMargins(0, 0, 0, 0);
  lower->setSpacing(6);
  m_scalePlot = new QCustomPlot(m_lowerPane);
  m_scalePlot->setToolTip(tr("The measured run close up: speed-up on this CPU against threads. Solid marks: measured "
                             "here; dotted: Amdahl's law at the run's serial share; grey: perfect scaling."));
  m_scalePlot->xAxis->setLabel(tr("CPU threads"));
  m_scaleYTitle = tr("speed-up");  // short: it runs along a small plot under its keys
  m_scalePlot->yAxis->setLabel(m_scaleYTitle);
  m_runIdeal = m_scalePlot->addGraph();
  m_runModel = m_scalePlot->addGraph();
  m_runMeasured = m_scalePlot->addGraph();
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

  m_barPlot = new QCustomPlot(m_lowerPane);
  m_barPlot->setToolTip(tr("The lesson's data-loading example: the job's time before and after a faster GPU. The "
                           "loading part (orange) does not shrink, so the whole job speeds up far less than the GPU."));
  lower->addWidget(m_barPlot, 1);
  // As many speed-up ticks as the close-up's height holds without their labels touching (two to five).
  connect(m_scalePlot, &QCustomPlot::afterLayout, this, [this] {
    const int line = QFontMetrics(m_scalePlot->yAxis->tickLabelFont()).height();
    m_scalePlot->yAxis->ticker()->setTickCount(std::clamp(int(m_scalePlot->axisRect()->height() / (1.6 * line)), 2, 5));
  });
  // The bars' x range leaves room for the total's text: fitted again when the data area's width changes.
  connect(m_barPlot, &QCustomPlot::afterLayout, this, [this] {
    if (std::abs(m_barPlot->axisRect()->width() - m_barAreaPx) > 8) scheduleReplot(Loading);
  });
  m_visual = new StackedOrTabbed(m_plot, m_lowerPane, tr("Amdahl's law"), tr("Measured run · data loading"), 5, 3);
  m_visual->setObjectName(QStringLiteral("amdahlViews"));
  m_visual->installEventFilter(this);  // its width decides how the small plots and their keys are laid out
  setVisual(m_visual);

  m_modelBadge = new SourceBadge(SourceBadge::Kind::Model, tr("Amdahl's law (dotted, dashed)"));
  addBadge(m_modelBadge);
  m_measuredBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("thread scaling (solid)"));
  addBadge(m_measuredBadge);
  for (SourceBadge* b : m_recordedBadges.badges()) addBadge(b);  // each recording drawn: a badge of its own

  m_readout = addResultLabel(1, Qt::RichText);
  m_measuredLabel = addResultLabel(1, Qt::RichText);
  m_loadingLabel = addResultLabel(1, Qt::RichText);

  m_replot = makeRedrawTimer([this] { replot(); }, 16);  // one 60 Hz frame

  buildControls();
  runBar()->setRunText(tr("Measure thread scaling"));
  runBar()->runButton()->setToolTip(tr("Time a job with a real serial part (a dependent chain) and a parallel part "
                                       "(independent chains) on 1, 2, 4 … threads of this CPU, at the serial share "
                                       "set above%1")
                                       .arg(m_ctx.gpu() && m_ctx.gpu()->supports(LaunchOverheadSpec{}).ok
                                                ? tr(", and the GPU's kernel-launch overhead")
                                                : QString()));
  recordingsChanged();
  replot();
}

QString AmdahlPage::takeaway() const {
  // A no-break space keeps "5 %" on one line where the title wraps.
  return tr("Workers only shorten the part of a job that can be split: a 5\u00A0% serial share caps any number of "
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
  setControlId(m_serialSlider, QStringLiteral("amdahl.serial_share"), m_serialSteps);
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
  setControlId(m_workersSlider, QStringLiteral("amdahl.workers"), m_workerSteps);
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
  setControlId(m_maxThreads, QStringLiteral("amdahl.max_threads"));
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
  setControlId(m_loadSlider, QStringLiteral("amdahl.loading_percent"));
  m_loadSlider->setToolTip(tr("The share of the job's time the CPU spends loading and preparing data (the GPU does "
                              "the rest)"));
  lg->addWidget(m_loadSlider, 1, 0, 1, 3);
  lg->addWidget(new QLabel(tr("New GPU is faster by")), 2, 0, 1, 2);
  m_factorValue = valueLabel(load);
  lg->addWidget(m_factorValue, 2, 2);
  m_factorSlider = makeSlider(int(m_factorSteps.size()), load);
  m_factorSlider->setObjectName(QStringLiteral("gpuFactor"));
  setControlId(m_factorSlider, QStringLiteral("amdahl.gpu_speedup"), m_factorSteps);
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
    connect(slider, &QSlider::valueChanged, this, [this, parts = parts] { scheduleReplot(parts | Readouts); });
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

QString AmdahlPage::readoutText() const {
  flushPendingReplot();
  return m_readout->text();
}
QString AmdahlPage::loadingText() const {
  flushPendingReplot();
  return m_loadingLabel->text();
}
QString AmdahlPage::measuredText() const {
  flushPendingReplot();
  return m_measuredLabel->text();
}

void AmdahlPage::flushPendingReplot() const {
  if (!m_replot->isActive()) return;
  m_replot->stop();
  const_cast<AmdahlPage*>(this)->replot();
}

int AmdahlPage::mainPlotMarkCount() const {
  int marks = m_measuredBig->dataCount();
  for (const QCPGraph* g : m_recordedBig) marks += g->dataCount();
  return marks;
}

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

  if (!m_measured.empty()) {
    // What the last thread count implies, only as far as its per-round spread (and a quiet machine) allow.
    const Point& last = m_measured.back();
    const ShareInference inf = infer_serial_share(last.range, int(last.threads), m_busy.busy());
    const QString conclusion = last.threads > 1 ? QString::fromStdString(inf.conclusion.text).toHtmlEscaped()
                                                : fmtTimes(last.speedup, 2);
    const QString amdahl = fmtTimes(amdahl_speedup(m_runShare, last.threads), 2);
    if (m_busy.busy()) {
      // On a busy machine the strip says so in one line and gives the speed-up; the evidence and the reason no
      // share can be read are in the tooltip (the whole sentence took eleven lines at 1366×768 on a projector and
      // pushed the plots off the page).
      m_measuredLabel->setText(tr("<span style='color:%1'><b>⚠ The CPU was busy: these speed-ups may be low.</b></span>"
                                  "<br>Measured here at serial share %2: <b>%3</b> on %4 threads (Amdahl: %5).")
                                   .arg(m_ctx.theme().bad.name(), fmtPercent(m_runShare), fmtTimes(last.speedup, 2))
                                   .arg(int(last.threads))
                                   .arg(amdahl));
      m_measuredLabel->setToolTip(busyWarningHtml(m_busy, m_ctx.theme()) + QStringLiteral("<br>") + conclusion);
    } else {
      m_measuredLabel->setText(tr("Measured here at serial share %1 (Amdahl on %2 threads: %3): %4")
                                   .arg(fmtPercent(m_runShare))
                                   .arg(int(last.threads))
                                   .arg(amdahl, conclusion));
      m_measuredLabel->setToolTip(QString());
    }
  } else if (const QString recorded = recordedRunText(); !recorded.isEmpty()) {
    m_measuredLabel->setText(recorded);
  } else if (m_measuredLabel->text().isEmpty()) {
    m_measuredLabel->setText(tr("Not measured yet: press <b>Space</b> to time this CPU with 1…%1 threads.")
                                 .arg(m_maxThreads->value()));
  }
  updateGpuNote();
}

// What each recording's run reached on its most threads. Two recordings at the same share and thread count (the
// same job on two machines) share one sentence, each named with its speed-up; otherwise a sentence each.
QString AmdahlPage::recordedRunText() const {
  struct Last {
    const amdahl_page_model::RecordedRun* run;
    const Point* point;
    QString label;
  };
  QList<Last> lasts;
  for (size_t i = 0; i < m_recorded.size(); ++i)
    if (!m_recorded[i].points.empty())
      lasts.push_back({&m_recorded[i], &m_recorded[i].points.back(), m_recordedLabels.value(int(i))});
  if (lasts.isEmpty()) return {};
  const auto amdahlAt = [](const Last& l) { return fmtTimes(amdahl_speedup(l.run->share, l.point->threads), 2); };
  const bool alike = std::all_of(lasts.begin(), lasts.end(), [&](const Last& l) {
    return l.run->share == lasts.front().run->share && l.point->threads == lasts.front().point->threads;
  });
  if (lasts.size() > 1 && alike) {
    QStringList each;
    for (const Last& l : lasts) each << tr("<b>%1</b> %2").arg(fmtTimes(l.point->speedup, 2), l.label.toHtmlEscaped());
    return tr("Serial share %1 on %2 threads (Amdahl: %3): %4")
        .arg(fmtPercent(lasts.front().run->share))
        .arg(int(lasts.front().point->threads))
        .arg(amdahlAt(lasts.front()), each.join(QStringLiteral("; ")));
  }
  QStringList sentences;
  for (const Last& l : lasts)
    sentences << tr("%1, serial share %2: %3 on %4 threads (Amdahl: %5)")
                     .arg(l.label.toHtmlEscaped(), fmtPercent(l.run->share), fmtTimes(l.point->speedup, 2))
                     .arg(int(l.point->threads))
                     .arg(amdahlAt(l));
  return sentences.join(QStringLiteral("<br>"));
}

void AmdahlPage::updateGpuNote() {
  QString text;
  if (m_launchPerKernel > 0) {
    // Launches are asynchronous (issue 36): the pace measured is what a stream of tiny kernels pays each; a kernel
    // longer than it hides the next launch behind its own run, a shorter one leaves the GPU waiting for the CPU.
    const double longWork = 10e-6, shortWork = 1e-6;
    const double shortShare = std::max(0.0, m_launchPerKernel - shortWork) / std::max(m_launchPerKernel, shortWork);
    text = tr("<b>GPU serial part</b> (%1): 1,000 tiny kernels launched back to back, without waiting, run one every "
              "<b>%2</b>. Launches are asynchronous: a kernel with %3 of work hides the next launch behind its own "
              "run, but one with %4 leaves the GPU idle %5 of the time, waiting for the CPU to issue the next — a "
              "serial share no number of SMs removes. Waiting for each kernel costs more; a CUDA graph removes the "
              "CPU's work per launch.")
               .arg(m_launchSource, fmtSeconds(m_launchPerKernel), fmtSeconds(longWork), fmtSeconds(shortWork),
                    fmtPercent(shortShare));
  } else if (gpulab::Backend* gpu = m_ctx.gpu()) {
    const Support ok = gpu->supports(LaunchOverheadSpec{});
    text = ok.ok ? tr("<b>GPU serial part</b>: the run also launches 1,000 tiny kernels on the GPU to time the fixed "
                      "cost of each launch.")
                 : tr("<b>GPU serial part</b>: not measured — %1.").arg(QString::fromStdString(ok.reason).toHtmlEscaped());
  } else {
    // The loader's reason can list every folder it searched: the first clause is enough here.
    QString why = m_ctx.gpuReason();
    if (const int cut = why.indexOf(QStringLiteral(" (")); cut > 0) why.truncate(cut);
    text = tr("<b>GPU serial part</b>: each kernel launch costs microseconds of CPU time, so kernels shorter than "
              "that (or each waited for) act as a serial share. Not measured: %1. A recording made on a GPU shows it.")
               .arg(why.toHtmlEscaped());
  }
  m_gpuNote->setText(text);
}

gpulab::AmdahlControls AmdahlPage::runControls() const {
  gpulab::AmdahlControls c;
  c.serial_share = serialShare();
  c.max_threads = m_maxThreads->value();
  return c;
}

gpulab::Plan AmdahlPage::plan() { return gpulab::amdahl_plan(planBackends(), runControls()); }

void AmdahlPage::run() {
  if (isRunning()) return;
  MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 15;
  policy.time_budget_s = 0.6;
  m_measured.clear();
  m_runShare = serialShare();
  m_busy.start();
  m_measuredLabel->setText(tr("Measuring…"));
  if (m_visual->tabbed()) m_visual->showBottom(true);  // the run is drawn on the close-up: show it
  startPlan(tr("Thread scaling at %1 serial").arg(fmtPercent(m_runShare)), plan(), policy);
}

void AmdahlPage::onResult(const gpulab::Result& r) {
  using Kind = amdahl_page_model::Reading::Kind;
  amdahl_page_model::Reading reading = amdahl_page_model::read(r);
  switch (reading.kind) {
    case Kind::other:
      return;
    case Kind::launch:
      m_launchPerKernel = reading.perLaunchS;
      m_launchSource = tr("measured here");
      m_launchHere = true;
      updateGpuNote();
      return;
    case Kind::launchFailed:
      m_gpuNote->setText(tr("<b>GPU serial part</b>: %1").arg(QString::fromStdString(reading.error).toHtmlEscaped()));
      return;
    case Kind::stepFailed:
      m_measuredLabel->setText(tr("The %1-thread run failed: %2")
                                   .arg(reading.threads)
                                   .arg(QString::fromStdString(reading.error).toHtmlEscaped()));
      return;
    case Kind::step:
      break;
  }
  m_busy.note(reading.point.relSpread, reading.point.seconds);
  // Paired with the 1-thread run of the same rounds (it reports first): the speed-up's range over the rounds.
  amdahl_page_model::addToRun(m_measured, std::move(reading.point));
  m_measuredBadge->set(SourceBadge::Kind::MeasuredHere, tr("thread scaling (solid)"));
  m_measuredBadge->show();
  fitBadges();
  updateReadouts();
  scheduleReplot();
}

bool AmdahlPage::eventFilter(QObject* watched, QEvent* event) {
  // Before the views lay themselves out at the new width: the small plots' heights depend on it.
  if (watched == m_visual && event->type() == QEvent::Resize) fitLowerPane();
  return Page::eventFilter(watched, event);
}

void AmdahlPage::onRunFinished(bool) {
  m_busy.finish();
  updateReadouts();
  scheduleReplot();
}

void AmdahlPage::recordingsChanged() {
  const SourcedResults inputs = sourcedResults();
  const amdahl_page_model::Recorded rec = amdahl_page_model::recorded(inputs);
  m_recorded = rec.runs;
  m_recordedLabels.clear();
  std::set<int> drawn;
  for (const amdahl_page_model::RecordedRun& run : m_recorded) {
    m_recordedLabels << m_ctx.results().sourceLabel(run.source);
    drawn.insert(run.source);
  }
  if (!m_launchHere) {
    m_launchPerKernel = rec.perLaunchS;
    m_launchSource = rec.launchSource >= 0 ? m_ctx.results().sourceLabel(rec.launchSource) : QString();
  }
  // A badge per source on the plots: "measured here" only once this machine has measured, and one per recording
  // drawn (two recordings: two badges, each naming its own).
  m_measuredBadge->setVisible(!m_measured.empty());
  m_recordedBadges.show(drawn, tr("Hollow marks"));
  fitBadges();
  updateReadouts();
  m_recordedStale = Law | Scaling;
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

GPULAB_REGISTER_PAGE(90, AmdahlPage);
