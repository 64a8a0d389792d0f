#include "pages/roofline_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/experiments.hpp"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/gemm_model.hpp"
#include "gpulab/models/roofline_model.hpp"
#include "pages/page_registry.h"
#include "runner/dram_bandwidth.h"
#include "qcustomplot.h"
#include "widgets/run_bar.h"
#include "widgets/published_views.h"
#include "widgets/source_badge.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMap>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

using gpulab::Precision;

namespace {

// The ceilings one device showed in one source (measured here, or one recording).
struct DeviceCeilings {
  int source = -1;
  QString device;        // short name
  QString fullDevice;    // as the provenance has it (for the catalogue lookup)
  std::string backend;   // "cpu" | "cuda"
  double bandwidth = 0;  // streaming bytes/s at the largest arrays measured (see runner/dram_bandwidth.h)
  QString bandwidthKind;
  gpulab::Result bandwidthResult;  // the result it came from
  bool hasBandwidth = false;
  QMap<int, double> peak;  // Precision -> best GEMM FLOP/s
};

QString precName(Precision p) { return QString::fromUtf8(gpulab::display_name(p).data()); }

}  // namespace

RooflinePage::RooflinePage(AppContext& ctx) : Page(ctx) {
  m_plot = new RooflinePlot(this);
  setVisual(m_plot);

  m_measuredBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("solid"));
  m_datasheetBadge = new SourceBadge(SourceBadge::Kind::Datasheet, tr("dashed, dense"));
  m_recordedBadge = new SourceBadge(SourceBadge::Kind::Recorded, QString());
  addBadge(m_measuredBadge);
  addBadge(m_datasheetBadge);
  addBadge(m_recordedBadge);
  m_recordedBadge->hide();
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
  for (Precision p : gpulab::all_precisions) m_precision->addItem(precName(p), static_cast<int>(p));
  // The lesson's roof: FP16 on the tensor cores (H100 SXM: ridge ≈ 295 FLOP/B). FP32's roof (ridge ≈ 20) is one
  // click away, and the measured roofs of every precision are drawn whichever is chosen here.
  m_precision->setCurrentIndex(m_precision->findData(static_cast<int>(Precision::fp16)));
  m_precision->setToolTip(tr("Which precision the datasheet roofs show. Compare like with like: a headline "
                             "FP8 or sparse figure is not the roof of an FP32 kernel."));
  form->addRow(tr("Datasheet precision"), m_precision);

  m_catalogue = new QComboBox(this);
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
  m_showMeasured->setToolTip(tr("Roofs measured on this machine, and those of any opened recording."));
  m_showDatasheet = new QCheckBox(tr("Datasheet ceilings (dashed)"), show);
  m_showDatasheet->setToolTip(tr("Roofs from the catalogue: the detected GPU, recorded GPUs and the GPU chosen above."));
  m_showPoints = new QCheckBox(tr("Points from every page"), show);
  m_showPoints->setToolTip(tr("Every GEMM and streaming run of this session, at its FLOPs per byte. Rest the "
                              "mouse on a point to see where it came from."));
  m_showRecorded = new QCheckBox(tr("Recordings"), show);
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

double RooflinePage::measuredCpuBandwidth() const {
  const StoredResult* best = dramBandwidthResult(m_ctx.results().all(), [](const StoredResult& s) {
    return s.source < 0 && s.result.ok() && s.result.backend == "cpu" && s.result.experiment == "bandwidth";
  });
  return best ? best->result.gbps * 1e9 : 0;
}

double RooflinePage::measuredCpuPeak(Precision p) const {
  double best = 0;
  for (const auto& s : m_ctx.results().all())
    if (s.source < 0 && s.result.ok() && s.result.backend == "cpu" && s.result.experiment == "gemm" &&
        s.result.precision == p)
      best = std::max(best, s.result.gflops * 1e9);
  return best;
}

void RooflinePage::refresh() {
  const Theme& theme = m_ctx.theme();
  const ResultStore& store = m_ctx.results();
  const bool showRecorded = m_showRecorded->isChecked();

  // 1. What each device showed in each source: best bandwidth, best GEMM per precision.
  QVector<DeviceCeilings> devices;
  auto deviceFor = [&](const StoredResult& s) -> DeviceCeilings& {
    const QString name = shortDeviceName(s.result);
    for (auto& d : devices)
      if (d.source == s.source && d.backend == s.result.backend && d.device == name) return d;
    DeviceCeilings d;
    d.source = s.source;
    d.device = name;
    auto it = s.result.provenance.find("device");
    d.fullDevice = it == s.result.provenance.end() ? name : QString::fromStdString(it->second);
    d.backend = s.result.backend;
    devices.push_back(d);
    return devices.back();
  };
  QVector<RooflinePlot::Point> points;
  for (const StoredResult& s : store.all()) {
    const gpulab::Result& r = s.result;
    if (!r.ok() || !(r.stats.median_s > 0)) continue;
    if (s.source >= 0 && !showRecorded) continue;
    if (r.experiment == "bandwidth") {
      DeviceCeilings& d = deviceFor(s);
      if (betterDramBandwidth(r, d.hasBandwidth ? &d.bandwidthResult : nullptr)) {
        d.bandwidth = r.gbps * 1e9;
        d.bandwidthKind = QString::fromStdString(r.variant);
        d.bandwidthResult = r;
        d.hasBandwidth = true;
      }
    } else if (r.experiment == "gemm" && r.gflops > 0) {
      DeviceCeilings& d = deviceFor(s);
      d.peak[static_cast<int>(r.precision)] = std::max(d.peak.value(static_cast<int>(r.precision)), r.gflops * 1e9);
    }
    RooflinePlot::Point pt;
    if (m_showPoints->isChecked() && rooflinePointFor(r, store.sourceLabel(s.source), s.source >= 0, theme, &pt))
      points.push_back(pt);
  }

  QVector<RooflinePlot::Roof> roofs;
  QStringList ridges;
  auto ridgeLine = [](const QString& what, double peak, double bw, const QString& how) {
    const double ridge = gpulab::models::ridge_point(peak, bw);
    return QObject::tr("<b>%1</b>: %2 ÷ %3 = ridge <b>%4 FLOP/B</b> <i>(%5)</i>")
        .arg(what, fmtSi(peak, "FLOP/s"), fmtSi(bw, "B/s"), fmtFixed(ridge, ridge < 10 ? 1 : 0), how);
  };

  // 2. Measured roofs: the memory roof with every measured precision's flat roof.
  if (m_showMeasured->isChecked()) {
    for (const DeviceCeilings& d : devices) {
      const bool recorded = d.source >= 0;
      const QString src = store.sourceLabel(d.source);
      const QString how = recorded ? src : tr("measured here");
      if (d.peak.isEmpty() && d.bandwidth > 0) {
        RooflinePlot::Roof r;
        r.label = tr("%1 %2 bandwidth %3 · %4").arg(d.device, d.bandwidthKind, fmtSi(d.bandwidth, "B/s"), how);
        r.bandwidth = d.bandwidth;
        r.color = theme.memory;
        r.kind = recorded ? SeriesKind::Recorded : SeriesKind::Measured;
        roofs.push_back(r);
      }
      for (auto it = d.peak.cbegin(); it != d.peak.cend(); ++it) {
        const auto p = static_cast<Precision>(it.key());
        RooflinePlot::Roof r;
        r.label = tr("%1 %2 GEMM %3 · %4").arg(d.device, precName(p), fmtSi(it.value(), "FLOP/s"), how);
        r.peakFlops = it.value();
        r.bandwidth = d.bandwidth;
        r.color = theme.precision(p);
        r.kind = recorded ? SeriesKind::Recorded : SeriesKind::Measured;
        roofs.push_back(r);
        if (d.bandwidth > 0)
          ridges << ridgeLine(tr("%1 %2").arg(d.device, precName(p)), it.value(), d.bandwidth, how);
      }
    }
    // The CPU's FMA peak: what the cores could do if memory never held them up. Dotted: an upper bound the
    // GEMM can approach, not a kernel of the lesson.
    const double cpuBw = [&] {
      for (const DeviceCeilings& d : devices)
        if (d.source < 0 && d.backend == "cpu") return d.bandwidth;
      return 0.0;
    }();
    const auto& info = m_ctx.cpuInfo();
    const double fma = precision() == Precision::fp64 ? info.peak_gflops_fp64 : info.peak_gflops_fp32;
    const Precision fmaP = precision() == Precision::fp64 ? Precision::fp64 : Precision::fp32;
    if (fma > 0) {
      RooflinePlot::Roof r;
      r.label = tr("CPU %1 FMA peak %2 (register FMA loop, no memory)").arg(precName(fmaP), fmtSi(fma * 1e9, "FLOP/s"));
      r.peakFlops = fma * 1e9;
      r.bandwidth = cpuBw;
      r.color = theme.cpu;
      r.kind = SeriesKind::Model;
      r.labelRidge = false;
      roofs.push_back(r);
      const double gemm = measuredCpuPeak(fmaP);
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
    for (const DeviceCeilings& d : devices)
      if (d.backend == "cuda" && (d.source < 0 || showRecorded))
        if (const auto* spec = gpulab::models::find_gpu(d.fullDevice.toStdString()))
          names << QString::fromStdString(spec->name);
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
  m_summary->setText(ridges.isEmpty()
                         ? tr("No roofs yet: press <b>Measure ceilings</b> (Space), or run experiments on other pages.")
                         : ridges.join(QStringLiteral(" &nbsp;·&nbsp; ")));

  // Badges: say which kinds of figure are on screen.
  QStringList recs;
  for (const auto& rec : store.recordings()) recs << rec.label;
  m_recordedBadge->setVisible(showRecorded && !recs.isEmpty());
  if (!recs.isEmpty()) m_recordedBadge->set(SourceBadge::Kind::Recorded, recs.join(QStringLiteral(" · ")));
}

void RooflinePage::run() {
  gpulab::Backend* cpu = &m_ctx.cpu();
  gpulab::Backend* gpu = m_ctx.cuda();
  gpulab::MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 20;
  policy.time_budget_s = 1.0;
  startJob(tr("Measuring ceilings"), [cpu, gpu](const gpulab::RunContext& ctx) {
    std::vector<gpulab::Backend*> backends{cpu};
    if (gpu) backends.push_back(gpu);
    // Steps: a bandwidth run and one GEMM per precision, per backend.
    struct Step {
      gpulab::Backend* be;
      bool stream;
      gpulab::GemmSpec gemm;
    };
    std::vector<Step> steps;
    for (gpulab::Backend* be : backends) {
      const bool onGpu = be->kind() == "cuda";
      steps.push_back({be, true, {}});
      for (Precision p : gpulab::all_precisions) {
        gpulab::GemmSpec s;
        // Large enough to be compute-bound everywhere (intensity n/6 for FP32 at m=n=k), small enough for a
        // 2-core laptop to finish in seconds.
        s.m = s.n = s.k = onGpu ? 8192 : 2048;
        s.precision = p;
        bool found = false;
        for (const std::string& v : onGpu ? std::vector<std::string>{"cublaslt", "cublas"} : std::vector<std::string>{"blas"}) {
          s.variant = v;
          if (be->supports(s).ok) {
            found = true;
            break;
          }
        }
        if (found) steps.push_back({be, false, s});
      }
    }
    for (std::size_t i = 0; i < steps.size() && !ctx.cancelled(); ++i) {
      gpulab::RunContext sub = ctx;
      sub.progress_base = double(i) / steps.size();
      sub.progress_span = 1.0 / steps.size();
      if (steps[i].stream) {
        gpulab::BandwidthSpec b;
        b.kind = "triad";
        // Beyond every cache: 3 × 64 MiB on a CPU, 3 × 1 GiB past an H200's 50 MB L2 many times over.
        b.bytes_per_array = steps[i].be->kind() == "cuda" ? (std::size_t(1) << 30) : (std::size_t(64) << 20);
        gpulab::run_bandwidth(*steps[i].be, b, sub);
      } else {
        gpulab::run_gemm(*steps[i].be, steps[i].gemm, sub);
      }
    }
  }, policy);
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

LessonContent RooflinePage::lesson() const {
  LessonContent c;
  c.intro = tr(
      "Every kernel has to fetch its numbers before it can compute with them. The roofline puts both limits on one "
      "chart: the slanted roof is bandwidth (bytes per second times FLOPs per byte), the flat roof is the compute "
      "peak. A kernel sits under whichever is lower at its arithmetic intensity. The corner where they meet, the "
      "ridge point, is peak divided by bandwidth: an H100 needs roughly 300 FLOPs for every byte it reads before "
      "its cores, not its memory, become the limit. The roofs here are measured on this machine; the dashed ones "
      "come from datasheets, so you can see how far a real kernel gets.");
  c.questions << LessonQuestion{
      tr("Generating text for one user reads every weight once and does about 2 FLOPs with it. Where does that land "
         "on an H100's roofline?"),
      tr("At about 1 FLOP per byte in FP16 — some 300 times left of the ridge point. It is firmly memory-bound: the "
         "cores wait on HBM almost all the time, so a faster chip with the same bandwidth would not help.")};
  c.questions << LessonQuestion{
      tr("A datasheet lists 1,979 TFLOP/s for a GPU and your FP32 training step runs at 50 TFLOP/s. Is the kernel "
         "really using only 2.5 % of the chip?"),
      tr("Not necessarily: compare like with like. On the H100 SXM sheet 1,979 is FP16/BF16 with 2:4 sparsity "
         "(the same number as dense FP8); the dense figures this app draws are 989 for FP16/BF16 and 67 for plain "
         "FP32, so 50 is about three quarters of the FP32 roof. The roof that matters is the one for the precision the kernel runs in — switch "
         "the datasheet precision above and watch the flat roof move by an order of magnitude.")};
  c.questions << LessonQuestion{
      tr("Why is the measured roof below the datasheet roof, even for the best library GEMM?"),
      tr("Datasheet peaks assume every unit busy every clock at the boost clock. Real kernels lose some time to "
         "loading tiles, synchronising and the tail of the grid, and clocks drop under power limits. 75–90 % of "
         "the dense peak is a very good GEMM; a streaming kernel reaching ~90 % of rated bandwidth is good too.")};
  c.exercises << LessonExercise{
      tr("Predict the H100 SXM's FP16 ridge point from its datasheet (989.4 TFLOP/s dense, 3.35 TB/s)."),
      tr("FLOPs per byte"),
      [] {
        const auto* g = gpulab::models::find_gpu("H100 SXM");
        return g ? gpulab::models::ridge_point(*g->peak_flops_for(Precision::fp16), g->bandwidth_bytes_s()) : 0.0;
      },
      tr("Peak ÷ bandwidth: 989.4e12 / 3.35e12 ≈ 295 FLOPs per byte — the lesson's \"roughly 300\"."),
      0.05};
  const RooflinePage* self = this;
  LessonExercise ridge{
      tr("Measure the ceilings first (Space). Predict this CPU's FP32 ridge point: its GEMM peak divided by its "
         "triad bandwidth."),
      tr("FLOPs per byte"),
      [self] {
        // Only what was measured here: no stand-in figure until both roofs exist.
        const double peak = self->measuredCpuPeak(Precision::fp32), bw = self->measuredCpuBandwidth();
        return peak > 0 && bw > 0 ? peak / bw : std::numeric_limits<double>::quiet_NaN();
      },
      tr("The answer is this machine's own ridge: its measured FP32 GEMM peak ÷ its measured triad bandwidth. "
         "Desktop and laptop CPUs land roughly between 10 and 30 FLOPs per byte in FP32; an H100 in FP16 needs "
         "about 300 before its thousands of cores are fed."),
      0.15};
  ridge.measured = true;  // a new measurement changes the answer: "Measure again" reads the latest roofs
  ridge.unavailable = tr("Nothing measured yet: press Measure ceilings (Space) for this CPU's FP32 GEMM peak and "
                         "triad bandwidth, then Check.");
  c.exercises << ridge;
  return c;
}

GPULAB_REGISTER_PAGE(50, RooflinePage);
