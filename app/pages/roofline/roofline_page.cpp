#include "pages/roofline/roofline_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/roofs.hpp"
#include "plans/roofline.hpp"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/roofline_model.hpp"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/run_bar.h"
#include "widgets/published_views.h"
#include "widgets/recorded_look.h"
#include "widgets/source_badge.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <set>
#include <cmath>
#include <limits>

using gpulab::Precision;

namespace {

QString precName(Precision p) { return QString::fromUtf8(gpulab::display_name(p).data()); }

}  // namespace

RooflinePage::RooflinePage(AppContext& ctx) : Page(ctx) {
  m_plot = new RooflinePlot(this);
  setVisual(m_plot);

  m_measuredBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("solid"));
  m_datasheetBadge = new SourceBadge(SourceBadge::Kind::Datasheet, tr("dashed, dense"));
  addBadge(m_measuredBadge);
  addBadge(m_datasheetBadge);
  for (SourceBadge* b : m_recordedBadges.badges()) addBadge(b);
  m_publishedBadge = new SourceBadge(SourceBadge::Kind::Published, tr("GPU GEMMs (diamonds)"));
  addBadge(m_publishedBadge);

  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  m_summary->setTextFormat(Qt::RichText);
  m_summary->setToolTip(tr("The ridge point of each roof: peak FLOP/s divided by bandwidth. A kernel needs at "
                           "least that many FLOPs per byte to be limited by arithmetic rather than memory."));
  resultsStrip()->addWidget(m_summary, 1);

  buildControls();
  runBar()->setRunText(tr("Measure ceilings"));
  runBar()->runButton()->setToolTip(
      tr("Measure this machine's roofs: a streaming triad for bandwidth, then a large GEMM in every precision the "
         "device supports for the compute peak (Space)."));

  m_refresh = makeRedrawTimer([this] { refresh(); });
  // Every page's results land here, so the chart fills as the class works through the lesson.
  connect(&m_ctx.results(), &ResultStore::resultAdded, this, [this] { scheduleRefresh(); });
  connect(&m_ctx.results(), &ResultStore::cleared, this, [this] { scheduleRefresh(); });
  refresh();
}

void RooflinePage::buildControls() {
  auto* form = new QFormLayout;
  m_precision = new QComboBox(this);
  setControlId(m_precision, QStringLiteral("roofline.precision"));
  for (Precision p : gpulab::all_precisions) m_precision->addItem(precName(p), static_cast<int>(p));
  // The lesson's roof: FP16 on the tensor cores (H100 SXM: ridge ≈ 295 FLOP/B). FP32's roof (ridge ≈ 20) is one
  // click away, and the measured roofs of every precision are drawn whichever is chosen here.
  m_precision->setCurrentIndex(m_precision->findData(static_cast<int>(Precision::fp16)));
  m_precision->setToolTip(tr("Which precision the datasheet roofs show. Compare like with like: a headline "
                             "FP8 or sparse figure is not the roof of an FP32 kernel."));
  form->addRow(tr("Datasheet precision"), m_precision);

  m_catalogue = new QComboBox(this);
  setControlId(m_catalogue, QStringLiteral("roofline.compare_with"));
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_catalogue->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_catalogue->setMinimumContentsLength(10);
  m_catalogue->addItem(tr("(none)"), QString());
  for (const auto& g : gpulab::models::catalogue())
    m_catalogue->addItem(QString::fromStdString(g.name), QString::fromStdString(g.name));
  // The lesson's reference card.
  const int h100 = m_catalogue->findData(QStringLiteral("H100 SXM"));
  m_catalogue->setCurrentIndex(h100 >= 0 ? h100 : 0);
  m_catalogue->setToolTip(tr("A GPU from the datasheet catalogue (data/gpu-specs.csv, dense figures) whose roofs "
                             "are drawn dashed beside this machine's measured ones."));
  form->addRow(tr("Compare with"), m_catalogue);
  controls()->addLayout(form);

  auto* show = new QGroupBox(tr("Show"), this);
  auto* sl = new QVBoxLayout(show);
  m_showMeasured = new QCheckBox(tr("Measured ceilings (solid)"), show);
  setControlId(m_showMeasured, QStringLiteral("roofline.show_measured"));
  m_showMeasured->setToolTip(tr("Roofs measured on this machine, and those of any opened recording."));
  m_showDatasheet = new QCheckBox(tr("Datasheet ceilings (dashed)"), show);
  setControlId(m_showDatasheet, QStringLiteral("roofline.show_datasheet"));
  m_showDatasheet->setToolTip(tr("Roofs from the catalogue: the detected GPU, recorded GPUs and the GPU chosen above."));
  m_showPoints = new QCheckBox(tr("Points from every page"), show);
  setControlId(m_showPoints, QStringLiteral("roofline.show_points"));
  m_showPoints->setToolTip(tr("Every GEMM and streaming run of this session, at its FLOPs per byte. Rest the "
                              "mouse on a point to see where it came from."));
  m_showRecorded = new QCheckBox(tr("Recordings"), show);
  setControlId(m_showRecorded, QStringLiteral("roofline.show_recordings"));
  m_showRecorded->setToolTip(tr("Points and roofs of opened recordings (File → Open), drawn hollow."));
  for (QCheckBox* c : {m_showMeasured, m_showDatasheet, m_showPoints, m_showRecorded}) {
    c->setChecked(true);
    sl->addWidget(c);
    connect(c, &QCheckBox::toggled, this, [this] { scheduleRefresh(); });
  }
  controls()->addWidget(show);

  m_legendNote = new QLabel(
      tr("Each roof is min(peak, intensity × bandwidth). The diamond marks its ridge point. "
         "Solid = measured, dashed = datasheet, dotted = model; hollow dots were recorded elsewhere."),
      this);
  m_legendNote->setWordWrap(true);
  controls()->addWidget(m_legendNote);

  connect(m_precision, &QComboBox::currentIndexChanged, this, [this] { scheduleRefresh(); });
  connect(m_catalogue, &QComboBox::currentIndexChanged, this, [this] { scheduleRefresh(); });
}

void RooflinePage::setCatalogueGpu(const QString& name) {
  const int i = m_catalogue->findData(name);
  m_catalogue->setCurrentIndex(i >= 0 ? i : 0);
  refreshNow();
}

void RooflinePage::setPrecision(Precision p) {
  m_precision->setCurrentIndex(m_precision->findData(static_cast<int>(p)));
  refreshNow();
}

Precision RooflinePage::precision() const { return static_cast<Precision>(m_precision->currentData().toInt()); }

void RooflinePage::scheduleRefresh() { m_refresh->start(); }

void RooflinePage::refreshNow() {
  m_refresh->stop();
  refresh();
  m_plot->rebuildNow();
}

QString RooflinePage::summaryText() const { return m_summary->text(); }

roofline_model::Model RooflinePage::model(bool includeRecorded) const {
  std::vector<roofline_model::Input> in;
  const auto& all = m_ctx.results().all();
  in.reserve(all.size());
  for (const StoredResult& s : all) in.push_back({&s.result, s.source});
  return roofline_model::build(in, includeRecorded);
}

double RooflinePage::measuredCpuBandwidth() const { return roofline_model::measuredCpuBandwidth(model(false)); }

double RooflinePage::measuredCpuPeak(Precision p) const { return roofline_model::measuredCpuPeak(model(false), p); }

void RooflinePage::refresh() {
  const Theme& theme = m_ctx.theme();
  const ResultStore& store = m_ctx.results();
  const bool showRecorded = m_showRecorded->isChecked();

  // 1. What each device showed in each source: best bandwidth, best GEMM per precision (roofline_model).
  const roofline_model::Model model = this->model(showRecorded);
  QVector<RooflinePlot::Point> points;
  if (m_showPoints->isChecked())
    for (const roofline_model::Point& p : model.points)
      points.push_back(rooflinePointFor(p, store.sourceLabel(p.source), theme));
  QVector<RooflinePlot::Roof> roofs;
  QStringList ridges;
  auto ridgeLine = [](const QString& what, double peak, double bw, const QString& how) {
    const double ridge = gpulab::models::ridge_point(peak, bw);
    return QObject::tr("<b>%1</b>: %2 ÷ %3 = ridge <b>%4 FLOP/B</b> <i>(%5)</i>")
        .arg(what, fmtSi(peak, "FLOP/s"), fmtSi(bw, "B/s"), fmtFixed(ridge, ridge < 10 ? 1 : 0), how);
  };

  // 2. Measured roofs: the memory roof with every measured precision's flat roof.
  if (m_showMeasured->isChecked()) {
    for (const roofline_model::DeviceCeilings& d : model.devices) {
      const Attribution a = attribution(d);
      if (d.peak.empty() && d.bandwidth > 0)
        roofs.push_back(deviceRoof(d, tr("%1%2 bandwidth %3 · %4")
                                          .arg(a.who, QString::fromStdString(d.bandwidthKind),
                                               fmtSi(d.bandwidth, "B/s"), a.how),
                                   0, d.bandwidth, theme.memory, theme));
      for (const auto& [p, peak] : d.peak) {
        roofs.push_back(deviceRoof(d, tr("%1%2 GEMM %3 · %4").arg(a.who, precName(p), fmtSi(peak, "FLOP/s"), a.how),
                                   peak, d.bandwidth, theme.precision(p), theme));
        if (d.bandwidth > 0)
          ridges << ridgeLine(tr("%1 %2").arg(a.device, precName(p)), peak, d.bandwidth, a.how);
      }
    }
    // Each device's own roofs, measured as such (gpulab bench --suite roofs, or "Measure ceilings"): the FMA
    // peak per precision (solid, with the device's memory roof) and the overhead floor (roofline_floors.cpp).
    bool cpuFmaMeasured = false;
    for (const roofline_model::DeviceCeilings& d : model.devices) {
      if (d.source < 0 && d.words.device_class == gpulab::DeviceClass::cpu && !d.fmaPeak.empty()) cpuFmaMeasured = true;
      const Attribution a = attribution(d);
      measuredRoofs(d, a.who, a.how, theme, roofs, ridges);
    }
    // The CPU's FMA peak as the app took it at start-up, until the roofs are measured as results: what the
    // cores could do if memory never held them up. Dotted: an upper bound the GEMM can approach.
    const double cpuBw = roofline_model::measuredCpuBandwidth(model);
    const auto& info = m_ctx.cpuInfo();
    const double fma = precision() == Precision::fp64 ? info.peak_gflops_fp64 : info.peak_gflops_fp32;
    const Precision fmaP = precision() == Precision::fp64 ? Precision::fp64 : Precision::fp32;
    if (fma > 0 && !cpuFmaMeasured) {
      RooflinePlot::Roof r;
      r.label = tr("CPU %1 FMA peak %2 (register FMA loop, no memory)").arg(precName(fmaP), fmtSi(fma * 1e9, "FLOP/s"));
      r.peakFlops = fma * 1e9;
      r.bandwidth = cpuBw;
      r.color = theme.cpu;
      r.kind = SeriesKind::Model;
      r.labelRidge = false;
      roofs.push_back(r);
      const double gemm = roofline_model::measuredCpuPeak(model, fmaP);
      if (gemm > 0)
        ridges << tr("CPU %1 GEMM reaches <b>%2 %</b> of the FMA peak")
                      .arg(precName(fmaP), fmtFixed(100.0 * gemm / (fma * 1e9), 0));
    }
  }

  // 3. Datasheet roofs for the chosen precision: the detected GPU, GPUs seen in recordings, the chosen card.
  if (m_showDatasheet->isChecked()) {
    QStringList names;
    if (const auto* gi = m_ctx.gpuInfo()) {
      if (const auto* spec = gpulab::models::find_gpu(gi->name)) names << QString::fromStdString(spec->name);
    }
    // Real GPUs only: lavapipe's device or the emulator never gets a GPU's datasheet roof.
    for (const std::string& gpu : roofline_model::measuredGpuNames(model))
      if (const auto* spec = gpulab::models::find_gpu(gpu)) names << QString::fromStdString(spec->name);
    const QString chosen = m_catalogue->currentData().toString();
    if (!chosen.isEmpty()) names << chosen;
    names.removeDuplicates();
    const Precision p = precision();
    for (const QString& name : names) {
      const auto* spec = gpulab::models::find_gpu(name.toStdString());
      if (!spec) continue;
      const auto peak = spec->peak_flops_for(p);
      RooflinePlot::Roof r;
      r.bandwidth = spec->bandwidth_bytes_s();
      r.peakFlops = peak ? *peak : 0;
      r.color = theme.gpu;
      r.kind = SeriesKind::Datasheet;
      r.label = peak ? tr("%1 %2 %3, %4 · datasheet")
                           .arg(name, precName(p), fmtSi(*peak, "FLOP/s"), fmtSi(r.bandwidth, "B/s"))
                     : tr("%1 %2 · datasheet (no %3 figure in the table)")
                           .arg(name, fmtSi(r.bandwidth, "B/s"), precName(p));
      roofs.push_back(r);
      if (peak) ridges << ridgeLine(tr("%1 %2").arg(name, precName(p)), *peak, r.bandwidth, tr("datasheet"));
    }
  }

  // No GPU here and no recording: what real GPUs did, as published, in their own marks (never a roof of this machine).
  const bool published = m_showPoints->isChecked() && showPublished(m_ctx);
  if (published) points += publishedRooflinePoints(theme);
  m_publishedBadge->setVisible(published);
  m_plot->setRoofs(roofs);
  m_plot->setPoints(points);
  // At most three ridges under the plot (the first two and the datasheet's, which is last); with two recordings
  // open there were five, three lines that a 1366×768 projector took from the plot. All of them are in the tooltip.
  QStringList shown = ridges;
  if (ridges.size() > 3) {
    shown = QStringList{ridges[0], ridges[1], ridges.last(),
                        tr("<i>%n more (hover)</i>", nullptr, int(ridges.size()) - 3)};
  }
  m_summary->setText(ridges.isEmpty()
                         ? tr("No roofs yet: press <b>Measure ceilings</b> (Space), or run experiments on other pages.")
                         : shown.join(QStringLiteral(" &nbsp;·&nbsp; ")));
  m_summary->setToolTip((ridges.size() > 3 ? ridges.join(QStringLiteral("<br>")) + QStringLiteral("<br><br>") : QString()) +
                        tr("The ridge point of each roof: peak FLOP/s divided by bandwidth. A kernel needs at least "
                           "that many FLOPs per byte to be limited by arithmetic rather than memory."));

  // Badges: say which kinds of figure are on screen.
  std::set<int> recs;  // one badge per recording drawn
  if (showRecorded)
    for (int i = 0; i < store.recordings().size(); ++i) recs.insert(i);
  m_recordedBadges.show(recs, tr("Hollow points and roofs"));
}

gpulab::Plan RooflinePage::plan() { return gpulab::roofline_plan(planBackends(), gpulab::RooflineControls{}); }

void RooflinePage::run() {
  gpulab::MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 20;
  policy.time_budget_s = 1.0;
  startPlan(tr("Measuring ceilings"), plan(), policy);
}

void RooflinePage::onResult(const gpulab::Result&) { scheduleRefresh(); }

void RooflinePage::onRunFinished(bool cancelled) {
  refreshNow();
  const double bw = measuredCpuBandwidth(), peak = measuredCpuPeak(Precision::fp32);
  if (!cancelled && bw > 0 && peak > 0)
    runBar()->showStatus(tr("CPU: %1 FP32 GEMM, %2 triad: ridge %3 FLOP/B")
                             .arg(fmtSi(peak, "FLOP/s"), fmtSi(bw, "B/s"), fmtFixed(peak / bw, 1)));
}

void RooflinePage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  m_plot->applyTheme(theme);
  m_summary->setStyleSheet(QStringLiteral("font-size:%1pt;").arg(theme.baseFontPt));
  m_legendNote->setStyleSheet(QStringLiteral("color:%1;").arg(theme.mutedText.name()));
  refresh();
}

QList<PlotExport> RooflinePage::plots() {
  PlotExport e;
  e.id = QStringLiteral("roofline");
  e.title = tr("Roofline: measured and datasheet ceilings");
  e.plot = m_plot->plot();
  e.csv = [this] { return m_plot->csv(); };
  return {e};
}

GPULAB_REGISTER_PAGE(50, RooflinePage);
