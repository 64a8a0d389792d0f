#include "pages/pcie/pcie_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "gpulab/models/moe_model.hpp"
#include "gpulab/models/transfer_model.hpp"
#include "gpulab/models/vram_model.hpp"
#include "plans/pcie.hpp"
#include "pages/chosen_device.h"
#include "pages/page_registry.h"
#include "qcustomplot.h"
#include "widgets/choice_box.h"
#include "widgets/frame_coalescer.h"
#include "widgets/legend_placement.h"
#include "widgets/plot_style.h"
#include "widgets/run_bar.h"
#include "widgets/recorded_look.h"
#include "widgets/source_badge.h"
#include "widgets/stacked_or_tabbed.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <set>
#include <cmath>
#include <map>
#include <utility>

using namespace gpulab;
using namespace gpulab::models;

namespace {

using pcie_model::Series;

// The model box's role holding a mixture-of-experts preset's id (empty for a dense model).
constexpr int kMoeRole = Qt::UserRole + 1;

// `here`: measured on this machine. A recording's host memcpy ran on its own CPU, not on "this CPU".
QString seriesName(Series s, bool here = true) {
  switch (s) {
    case Series::h2dPinned: return QObject::tr("host→device, pinned");
    case Series::h2dPageable: return QObject::tr("host→device, pageable");
    case Series::d2hPinned: return QObject::tr("device→host, pinned");
    case Series::d2hPageable: return QObject::tr("device→host, pageable");
    case Series::d2d: return QObject::tr("device→device (VRAM)");
    case Series::h2h: return here ? QObject::tr("host memcpy (this CPU)") : QObject::tr("host memcpy");
  }
  return {};
}

QColor seriesColour(const Theme& t, Series s) {
  switch (s) {
    case Series::h2dPinned:
    case Series::h2dPageable: return okabe_ito::blue;
    case Series::d2hPinned:
    case Series::d2hPageable: return okabe_ito::vermillion;
    case Series::d2d: return t.gpu;
    case Series::h2h: return t.cpu;
  }
  return t.cpu;
}

}  // namespace

PciePage::PciePage(AppContext& ctx) : Page(ctx) {
  for (std::size_t b : gpulab::transfer_sweep_bytes()) m_sizes.push_back(double(b));

  m_plot = new QCustomPlot;
  m_plot->setToolTip(tr("Bandwidth of each kind of copy against its size (both axes logarithmic). Solid marks: "
                        "measured here; hollow: recorded; dashed: the chosen card's datasheet link and memory."));
  useLogAxis(m_plot, true, QStringLiteral("B"));
  useLogAxis(m_plot, false, QStringLiteral("B/s"), 1e9);  // the series are in GB/s
  m_plot->xAxis->setLabel(tr("size of one copy"));
  m_plot->yAxis->setLabel(tr("bandwidth"));
  m_plot->xAxis->setRange(32e3, 2.2e9);
  m_plot->yAxis->setRange(0.3, 10000);
  m_plot->legend->setVisible(true);
  m_note = new QCPItemText(m_plot);
  m_note->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_note->position->setType(QCPItemPosition::ptAxisRectRatio);
  m_note->position->setCoords(0.02, 0.02);
  m_note->setPadding(QMargins(6, 4, 6, 4));
  m_note->setTextAlignment(Qt::AlignLeft);
  // The note's lines within the data area at every width: a few points smaller where the chart is narrow (a
  // 1024 px projector with the side column open cut "Run: host memcpy (orange), RAM to RAM, no bus" at the edge).
  connect(m_plot, &QCustomPlot::afterLayout, this, [this] { fitNoteFont(); });

  // Stacked when the page is tall enough for both at the theme's fonts, else taking turns (a projector at 1366×768).
  m_visual = new StackedOrTabbed(m_plot, m_tokenView.plot(), tr("Bandwidth"), tr("One token over PCIe"));
  setVisual(m_visual);

  m_measuredBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("transfers (solid)"));
  addBadge(m_measuredBadge);
  for (SourceBadge* b : m_recordedBadges.badges()) addBadge(b);
  m_sheetBadge = new SourceBadge(SourceBadge::Kind::Datasheet, tr("link and card memory (dashed), token cost model"));
  addBadge(m_sheetBadge);

  m_summary = addResultLabel();
  m_h2h = addResultLabel();
  m_token = addResultLabel();

  m_replot = makeRedrawTimer([this] { replot(); });
  m_frame = new FrameCoalescer([this] { applyFrame(); }, this);
  connect(&m_ctx, &AppContext::gpuChanged, this, [this] { scheduleReplot(); });  // the note names the device

  buildControls();
  runBar()->setRunText(tr("Measure transfers"));
  replot();
}

void PciePage::buildControls() {
  auto* box = new QGroupBox(tr("Card (datasheet lines)"));
  auto* form = new QVBoxLayout(box);
  m_card = new QComboBox;
  setControlId(m_card, QStringLiteral("pcie.card"));
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_card->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_card->setMinimumContentsLength(10);
  const GpuSpec* detected = m_ctx.gpuInfo() ? find_gpu(m_ctx.gpuInfo()->name) : nullptr;
  for (const GpuSpec& g : catalogue())
    if (g.bandwidth_gbs > 0 && g.host_link_gbs > 0)
      addChoice(m_card, QString::fromStdString(g.name),
                tr("%1 GB %2, %3").arg(g.memory_gb).arg(QString::fromStdString(g.memory_type), QString::fromStdString(g.host_link)),
                QString::fromStdString(g.name));
  const QString initial = detected ? QString::fromStdString(detected->name) : QStringLiteral("RTX 4090");
  m_card->setCurrentIndex(std::max(0, m_card->findData(initial)));
  m_card->setToolTip(tr("Whose datasheet figures to draw: the PCIe link per direction and the on-card memory "
                        "bandwidth. The detected GPU is chosen when the catalogue knows it."));
  form->addWidget(m_card);
  controls()->addWidget(box);

  auto* tbox = new QGroupBox(tr("One token over PCIe"));
  auto* tform = new QFormLayout(tbox);
  m_model = new QComboBox;
  setControlId(m_model, QStringLiteral("pcie.model"));
  // Long item texts (device and card names) must not widen the controls column: the popup shows them whole.
  m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_model->setMinimumContentsLength(10);
  int lessonModel = 0;
  for (const ModelShape& s : model_presets()) {
    if (s.id == "lesson-7b") lessonModel = m_model->count();
    m_model->addItem(QString::fromUtf8(s.label.data(), int(s.label.size())), s.params);
  }
  // Mixtures of experts: their experts in host RAM, the active ones over the link for every token.
  for (const MoeModel& m : moe_presets()) {
    m_model->addItem(tr("%1 (MoE, experts in host RAM)").arg(QString::fromUtf8(m.shape.label.data(), int(m.shape.label.size()))),
                     m.shape.params);
    m_model->setItemData(m_model->count() - 1, QString::fromUtf8(m.shape.id.data(), int(m.shape.id.size())), kMoeRole);
  }
  m_model->setCurrentIndex(lessonModel);
  m_model->setToolTip(tr("The model whose weights are read once per generated token"));
  tform->addRow(tr("Model"), m_model);
  m_format = new QComboBox;
  setControlId(m_format, QStringLiteral("pcie.format"));
  m_format->addItem(QStringLiteral("FP32"), 4.0);
  m_format->addItem(QStringLiteral("FP16/BF16"), 2.0);
  m_format->addItem(QStringLiteral("INT8"), 1.0);
  m_format->addItem(QStringLiteral("INT4"), 0.5);
  m_format->setToolTip(tr("Bytes per weight: decides how much does not fit and must stream"));
  tform->addRow(tr("Format"), m_format);
  controls()->addWidget(tbox);
  auto* note = new QLabel(tr("The card keeps 1 GB for its own use; the rest holds weights. Whatever does not "
                             "fit is read over PCIe for every token (nothing is cached between tokens)."));
  note->setWordWrap(true);
  controls()->addWidget(note);

  // The card changes both charts (its datasheet lines and the token's cost); the model and format only the token's.
  connect(m_card, &QComboBox::currentIndexChanged, this, [this] { requestFrame(true, true); });
  for (auto* c : {m_model, m_format}) connect(c, &QComboBox::currentIndexChanged, this, [this] { requestFrame(false, true); });
}

void PciePage::setCard(const QString& name) {
  const int i = m_card->findData(name);
  if (i >= 0) m_card->setCurrentIndex(i);
  replot();
}

void PciePage::setModel(double params, double bytesPerParam) {
  int best = 0;
  for (int i = 0; i < m_model->count(); ++i)
    if (m_model->itemData(i, kMoeRole).toString().isEmpty() && std::abs(m_model->itemData(i).toDouble() - params) < std::abs(m_model->itemData(best).toDouble() - params)) best = i;
  m_model->setCurrentIndex(best);
  m_format->setCurrentIndex(std::max(0, m_format->findData(bytesPerParam)));
  replot();
}

void PciePage::setMoeModel(const QString& id, double bytesPerParam) {
  for (int i = 0; i < m_model->count(); ++i)
    if (m_model->itemData(i, kMoeRole).toString() == id) m_model->setCurrentIndex(i);
  m_format->setCurrentIndex(std::max(0, m_format->findData(bytesPerParam)));
  replot();
}

gpulab::TransferControls PciePage::runControls() const {
  gpulab::TransferControls c;
  c.cpu_bytes.clear();
  for (double b : m_sizes) c.cpu_bytes.push_back(static_cast<std::size_t>(b));
  c.gpu_bytes = c.cpu_bytes;
  return c;
}

gpulab::Plan PciePage::plan() { return gpulab::transfer_plan(planBackends(), runControls()); }

void PciePage::run() {
  MeasurePolicy policy;
  policy.min_samples = 3;
  policy.max_samples = 30;
  policy.time_budget_s = 0.4;
  startPlan(m_ctx.hasGpu() ? tr("Transfer sweep on %1").arg(chosen_device::name(m_ctx)) : tr("Host memcpy sweep"),
            plan(), policy);
}

void PciePage::onResult(const gpulab::Result& r) {
  // A size this machine cannot hold (RAM) is an error result; the sweep goes on.
  if (pcie_model::isOwnFailure(r)) runBar()->showStatus(QString::fromStdString(r.error));
  scheduleReplot();
}

void PciePage::onRunFinished(bool) { replot(); }

void PciePage::recordingsChanged() { scheduleReplot(); }

void PciePage::scheduleReplot() { m_replot->start(); }
void PciePage::requestFrame(bool bandwidth, bool token) {
  m_bandwidthDirty |= bandwidth;
  m_tokenDirty |= token;
  if (m_frame) m_frame->request();  // null while the constructor builds the controls
}
void PciePage::applyFrame() {
  const bool bandwidth = std::exchange(m_bandwidthDirty, false), token = std::exchange(m_tokenDirty, false);
  if (bandwidth) replotBandwidth();  // ends with the token's chart, whose link rate it may have changed
  else if (token) updateToken();
}
void PciePage::replot() {
  m_bandwidthDirty = m_tokenDirty = false;
  replotBandwidth();
}

std::vector<pcie_model::Point> PciePage::points() const {
  const SourcedResults in = sourcedResults();
  return pcie_model::points(in);
}

int PciePage::measuredPointCount() const { return pcie_model::measuredHereCount(points()); }

double PciePage::linkBytesPerS(QString* source) const {
  const pcie_model::Link link = pcie_model::measuredLink(points());
  if (link.found) {
    if (source) *source = link.source < 0 ? tr("measured here") : m_ctx.results().sourceLabel(link.source);
    return link.bytesPerS;
  }
  const GpuSpec* g = find_gpu(m_card->currentData().toString().toStdString());
  if (source) *source = tr("datasheet");
  return g ? g->host_link_gbs * 1e9 : 64e9;
}

void PciePage::replotBandwidth() {
  const Theme& t = m_ctx.theme();
  // The graphs of the last redraw handed out again in drawing order (their keys stay); one is made only where the
  // picture gained a series, and those it no longer needs are removed at the end.
  int graphsUsed = 0;
  auto nextGraph = [&] {
    QCPGraph* g = graphsUsed < m_plot->graphCount() ? m_plot->graph(graphsUsed) : m_plot->addGraph();
    ++graphsUsed;
    g->data()->clear();
    return g;
  };
  const GpuSpec* card = find_gpu(m_card->currentData().toString().toStdString());

  // Measured here (solid) and recorded (hollow), one graph per series and source.
  const std::vector<pcie_model::Point> pts = points();
  // "measured here" only once a transfer was timed on this machine since the app started (issue 13's badge rule).
  if (const bool measured = measuredPointCount() > 0; m_measuredBadge->isHidden() == measured) {
    m_measuredBadge->setVisible(measured);
    fitBadges();
  }
  std::map<std::pair<int, int>, QCPGraph*> graphs;  // (series, source) -> graph
  for (const pcie_model::Point& p : pts) {
    QCPGraph*& g = graphs[{int(p.series), p.source}];
    if (!g) {
      g = nextGraph();
      const bool here = p.source < 0;
      const QColor c = here ? seriesColour(t, p.series) : recordedColor(t, seriesColour(t, p.series), p.source);
      if (here) styleGraph(g, t, c, SeriesKind::Measured);
      else styleRecordedGraph(g, t, seriesColour(t, p.series), p.source);
      if (pcie_model::pageable(p.series)) {
        QPen pen = g->pen();
        pen.setStyle(Qt::DashDotLine);
        g->setPen(pen);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, c, here ? c : t.surface, t.markerSize));
      }
      g->setName(seriesName(p.series, here) +
                 (here ? QString() : QStringLiteral(" · %1").arg(m_ctx.results().sourceLabel(p.source))));
    }
    g->addData(p.bytes, p.gbps);
  }
  for (auto& [key, g] : graphs) g->data()->sort();
  std::set<int> drawn;  // one badge per recording drawn
  for (const auto& [key, g] : graphs) drawn.insert(key.second);
  if (m_recordedBadges.show(drawn, tr("Hollow marks"))) fitBadges();

  // Datasheet: the link per direction and the card's memory, as dashed lines across the plot.
  if (card) {
    auto hline = [&](double gbs, const QColor& c, const QString& name) {
      QCPGraph* g = nextGraph();
      styleGraph(g, t, c, SeriesKind::Datasheet);
      g->setName(name);
      g->addData(1e3, gbs);
      g->addData(1e12, gbs);
    };
    hline(card->host_link_gbs, t.memory, tr("%1 %2: %3/direction (datasheet)")
                                             .arg(QString::fromStdString(card->name), QString::fromStdString(card->host_link),
                                                  fmtSi(card->host_link_gbs * 1e9, "B/s")));
    // Each card's own memory type: HBM on the data-centre parts, GDDR6/GDDR6X on the L4, T4 and GeForce cards.
    hline(card->bandwidth_gbs, t.gpu, tr("%1 %2: %3 (datasheet)")
                                          .arg(QString::fromStdString(card->name),
                                               QString::fromStdString(card->memory_type.empty() ? card->memory_family()
                                                                                                : card->memory_type),
                                               fmtSi(card->bandwidth_gbs * 1e9, "B/s")));
  }
  while (m_plot->graphCount() > graphsUsed) m_plot->removeGraph(m_plot->graphCount() - 1);
  const pcie_model::Summary sum = pcie_model::summarize(pts);
  const double bestH2d = sum.bestH2dPinned, bestD2d = sum.d2d, bestH2h = sum.h2h;

  QString note;
  if (!m_ctx.hasGpu()) {
    note = tr("No GPU here: there is no PCIe hop to measure.\nRun: host memcpy (orange), RAM to RAM, no bus.\n"
              "Dashed: the card's datasheet link and memory.");
    m_plot->setToolTip(m_ctx.gpuReason());
    if (sum.gpuPoints > 0)
      note += sum.gpuIsCpuDevice ? tr("\nHollow marks: a CPU-type Vulkan device's copies from the open recording "
                                      "(not a GPU: RAM to RAM).")
                                 : tr("\nHollow marks: GPU transfers from the open recording.");
  } else if (chosen_device::kind(m_ctx) == gpulab::DeviceClass::vulkan_on_cpu) {
    note = tr("%1: its \"device\" memory is this computer's RAM,\nso host↔device copies cross no PCIe link.\n"
              "Dashed: the card's datasheet link and memory.")
               .arg(chosen_device::name(m_ctx));
  } else {
    note = tr("Pinned memory lets the copy engine read host RAM directly; pageable memory is first copied into a "
              "pinned staging buffer.");
    if (chosen_device::kind(m_ctx) == gpulab::DeviceClass::vulkan_gpu)
      note += tr("\nMeasured through Vulkan on %1; an integrated GPU shares the CPU's RAM (no PCIe hop).")
                  .arg(chosen_device::name(m_ctx));
  }
  m_note->setText(note);
  runBar()->runButton()->setToolTip(m_ctx.hasGpu()
                                        ? tr("Time host→device, device→host (pinned and pageable), device→device on "
                                             "%1 and host memcpy at sizes from 64 KiB to 1 GiB")
                                              .arg(chosen_device::name(m_ctx))
                                        : tr("No GPU here: times host memcpy at sizes from 64 KiB to 1 GiB"));
  // The note sits at the top of the plot, above the highest line: legend-sized, with decades of room above
  // the HBM line (more on a projector, where the text is taller).
  m_note->setFont(QFont(QStringLiteral("DejaVu Sans"), legendFontPt(t)));
  fitNoteFont();
  m_plot->yAxis->setRange(0.3, t.isProjector() ? 3e5 : 3e4);
  m_note->setColor(t.text);
  m_note->setBrush(QBrush(t.surface));
  m_note->setPen(QPen(t.border));

  // The link NVML read after the copy (a card in a slot wired x8, or trained to an older generation, shows here).
  const QString trainedLink =
      sum.pcieLink.empty() ? QString() : tr(" over PCIe %1 (NVML)").arg(QString::fromStdString(sum.pcieLink));
  m_summary->setText(bestH2d > 0 ? tr("Best pinned host→device: <b>%1</b>%2; device→device: <b>%3</b> — %4× faster")
                                       .arg(fmtSi(bestH2d * 1e9, "B/s") + trainedLink)
                                       .arg(card && card->host_link_gbs > 0
                                                ? tr(" (%1% of %2's %3)").arg(fmtFixed(100 * bestH2d / card->host_link_gbs, 0),
                                                                              QString::fromStdString(card->host_link),
                                                                              fmtSi(card->host_link_gbs * 1e9, "B/s"))
                                                : QString())
                                       .arg(bestD2d > 0 ? fmtSi(bestD2d * 1e9, "B/s") : tr("not measured"))
                                       .arg(bestD2d > 0 ? fmtFixed(bestD2d / bestH2d, 0) : QStringLiteral("?"))
                                 : card ? tr("Datasheet: %1 link %2 per direction vs %3 on the card: %4× apart")
                                              .arg(QString::fromStdString(card->host_link), fmtSi(card->host_link_gbs * 1e9, "B/s"),
                                                   fmtSi(card->bandwidth_gbs * 1e9, "B/s"),
                                                   fmtFixed(hbm_to_link_ratio(card->bandwidth_gbs, card->host_link_gbs), 0))
                                        : QString());
  m_h2h->setText(bestH2h > 0 ? tr("Host memcpy here: <b>%1</b> (bytes copied per second)").arg(fmtSi(bestH2h * 1e9, "B/s"))
                             : tr("Host memcpy here: press Run (Space) to measure"));
  stylePlot(m_plot, t);
  m_plot->replot();
  // The corner where the key hides the fewest points (recorded copies fill the bottom right).
  // The key above the chart: inside, it covered either the recorded copies (bottom right) or the note that says
  // what was timed (top), which a key's corner test does not see as hidden.
  placeLegendAboveFitting(m_plot);
  m_plot->replot();
  // As many decades labelled as the chart's height holds: the key's rows above it leave a projector's chart short.
  if (auto log = m_plot->yAxis->ticker().dynamicCast<QCPAxisTickerLog>()) {
    const int lineH = QFontMetrics(m_plot->yAxis->tickLabelFont()).height();
    const int wanted = std::clamp(m_plot->axisRect()->height() / (2 * lineH), 2, 8);
    if (log->tickCount() != wanted) {
      log->setTickCount(wanted);
      m_plot->replot();
    }
  }
  updateToken();
}

void PciePage::updateToken() {
  const Theme& t = m_ctx.theme();
  const GpuSpec* card = find_gpu(m_card->currentData().toString().toStdString());
  QVector<PcieTokenView::Row> rows;
  if (!card) {
    m_tokenView.show({}, t);
    return;
  }
  const double params = m_model->currentData().toDouble();
  const double bpp = m_format->currentData().toDouble();
  const double weights = params * bpp;
  const double vramForWeights = std::max(0.0, card->memory_bytes() - 1e9);
  const double hbm = card->bandwidth_bytes_s();
  QString linkSource;
  const double measuredLink = linkBytesPerS(&linkSource);
  const double sheetLink = card->host_link_gbs * 1e9;
  const QString mem = QString::fromStdString(card->memory_type.empty() ? card->memory_family() : card->memory_type);
  const MoeModel* moe = find_moe_preset(m_model->currentData(kMoeRole).toString().toStdString());

  const OffloadCost inHbm = offload_cost(weights, weights, hbm, sheetLink);
  const OffloadCost sheet = offload_cost(weights, vramForWeights, hbm, sheetLink);
  MoeOffload moeSheet;
  if (moe) {
    // A mixture of experts: its attention and router on the card, every expert in host RAM; a token reads its
    // active experts over the link (the card does their sums).
    moeSheet = moe_offload(*moe, bpp, hbm, sheetLink);
    rows.push_back({tr("all weights in %1").arg(mem), moeSheet.in_vram_s,
                    tr("%1 of %2 read at %3").arg(fmtBytes(moe->active_params * bpp), fmtBytes(weights), fmtSi(hbm, "B/s"))});
    rows.push_back({tr("experts in host RAM\n(datasheet %1)").arg(fmtSi(sheetLink, "B/s")), moeSheet.offloaded_s,
                    tr("%1 of experts over the link").arg(fmtBytes(moeSheet.bus_bytes_per_token))});
    if (linkSource != tr("datasheet")) {
      const MoeOffload meas = moe_offload(*moe, bpp, hbm, measuredLink);
      rows.push_back({tr("experts in host RAM\n(%1 %2)").arg(linkSource, fmtSi(measuredLink, "B/s")),
                      meas.offloaded_s, tr("%1 of experts over the link").arg(fmtBytes(meas.bus_bytes_per_token))});
    }
  } else {
    rows.push_back({tr("all weights in %1").arg(mem), inHbm.seconds_per_token,
                    tr("%1 read at %2").arg(fmtBytes(weights), fmtSi(hbm, "B/s"))});
    if (sheet.streamed_bytes > 0) {
      rows.push_back({tr("rest over PCIe\n(datasheet %1)").arg(fmtSi(sheetLink, "B/s")), sheet.seconds_per_token,
                      tr("%1 streamed").arg(fmtBytes(sheet.streamed_bytes))});
      if (linkSource != tr("datasheet")) {
        const OffloadCost meas = offload_cost(weights, vramForWeights, hbm, measuredLink);
        rows.push_back({tr("rest over PCIe\n(%1 %2)").arg(linkSource, fmtSi(measuredLink, "B/s")),
                        meas.seconds_per_token, tr("%1 streamed").arg(fmtBytes(meas.streamed_bytes))});
      }
    }
  }

  m_tokenView.show(rows, t);

  const QString model = m_model->currentText() + QStringLiteral(" ") + m_format->currentText();
  if (moe && moeSheet.in_vram_s > 0)
    // Users report that keeping experts in host RAM costs nearly half the speed: the model says what that needs.
    m_token->setText(tr("<b>%1</b> holds %2, but a token reads only %3 of it. With the experts in host RAM, "
                        "each token pulls its %4 active experts (%5) over %6: <b>%7</b> instead of %8 — <b>%9× "
                        "slower</b> (model). Offloads that users report costing nearly half the speed must move far less: for "
                        "half, at most %10 of a token's reads (%11 %) may cross the link, the rest staying on the "
                        "card — or the CPU must do the experts' sums in its own RAM.")
                         .arg(QString::fromUtf8(moe->shape.label.data(), int(moe->shape.label.size())) +
                                  QStringLiteral(" ") + m_format->currentText(),
                              fmtBytes(weights), fmtBytes(moe->active_params * bpp))
                         .arg(moe->active_experts)
                         .arg(fmtBytes(moeSheet.bus_bytes_per_token), QString::fromStdString(card->host_link),
                              fmtSeconds(moeSheet.offloaded_s), fmtSeconds(moeSheet.in_vram_s),
                              fmtFixed(moeSheet.slowdown, 1), fmtBytes(moeSheet.halving_bus_bytes),
                              fmtFixed(100 * moeSheet.halving_bus_bytes / (moe->active_params * bpp), 1)));
  else if (sheet.streamed_bytes > 0)
    m_token->setText(tr("<b>%1</b> (%2) on %3: %4 does not fit, so each token takes <b>%5</b> instead of %6 — "
                        "<b>%7× slower</b>")
                         .arg(model, fmtBytes(weights), QString::fromStdString(card->name), fmtBytes(sheet.streamed_bytes),
                              fmtSeconds(sheet.seconds_per_token), fmtSeconds(inHbm.seconds_per_token),
                              fmtFixed(sheet.slowdown, 1)));
  else
    m_token->setText(tr("<b>%1</b> (%2) fits on %3: nothing streams; %4 per token from its %5")
                         .arg(model, fmtBytes(weights), QString::fromStdString(card->name), fmtSeconds(inHbm.seconds_per_token),
                              QString::fromStdString(card->memory_type.empty() ? card->memory_family() : card->memory_type)));
}

QString PciePage::noteText() const { return m_note->text(); }

void PciePage::fitNoteFont() {
  const int room = m_plot->axisRect()->width();
  if (!m_note || room <= 0 || m_note->text().isEmpty()) return;
  const int full = legendFontPt(m_ctx.theme());
  const int least = std::max(8, full * 3 / 4);
  const QMargins pad = m_note->padding();
  const int left = int(0.02 * room) + pad.left() + pad.right() + 4;
  int pt = full;
  while (pt > least &&
         QFontMetrics(QFont(QStringLiteral("DejaVu Sans"), pt)).boundingRect(QRect(0, 0, 100000, 100000), 0, m_note->text()).width() + left > room)
    --pt;
  if (m_note->font().pointSize() == pt) return;
  m_note->setFont(QFont(QStringLiteral("DejaVu Sans"), pt));
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}
QString PciePage::tokenText() const { return m_token->text(); }
QString PciePage::summaryText() const { return m_summary->text() + QLatin1Char('\n') + m_h2h->text(); }

void PciePage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  // Room for the bandwidth plot's decades and the token plot's two-line row labels at the theme's fonts.
  m_visual->setViewMinimums(theme.isProjector() ? 340 : 220, theme.isProjector() ? 230 : 130);
  const QString css = QStringLiteral("font-size:%1pt;").arg(theme.baseFontPt + 1);
  for (QLabel* l : {m_summary, m_h2h, m_token}) l->setStyleSheet(css);
  replot();
}

QString PciePage::csvBandwidth() const {
  QString out = QStringLiteral("source,backend,direction,pinned,bytes,gb_per_s,median_s,n\n");
  for (const pcie_model::Point& p : points())
    out += QStringLiteral("\"%1\",%2,%3,%4,%5,%6,%7,%8\n")
               .arg(m_ctx.results().sourceLabel(p.source), QString::fromStdString(p.backend),
                    QString::fromStdString(p.direction))
               .arg(p.pinned ? 1 : 0)
               .arg(p.bytes, 0, 'f', 0)
               .arg(p.gbps, 0, 'g', 6)
               .arg(p.median_s, 0, 'g', 6)
               .arg(p.samples);
  if (const GpuSpec* card = find_gpu(m_card->currentData().toString().toStdString())) {
    out += QStringLiteral("\"datasheet\",%1,link,,,%2,,\n").arg(QString::fromStdString(card->name)).arg(card->host_link_gbs);
    out += QStringLiteral("\"datasheet\",%1,hbm,,,%2,,\n").arg(QString::fromStdString(card->name)).arg(card->bandwidth_gbs);
  }
  return out;
}

QList<PlotExport> PciePage::plots() {
  return {{QStringLiteral("transfer-bandwidth"), tr("Transfer bandwidth against copy size"), m_plot, nullptr,
           [this] { return csvBandwidth(); }},
          {QStringLiteral("token-over-pcie"), tr("One token with weights streamed over PCIe"), m_tokenView.plot(), nullptr,
           [this] { return m_tokenView.csv(); }}};
}

GPULAB_REGISTER_PAGE(70, PciePage);
