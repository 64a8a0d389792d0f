#include "pages/multigpu/multigpu_page.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/experiments.hpp"
#include "gpulab/models/catalogue.hpp"
#include "plans/multigpu.hpp"
#include "pages/multigpu/model/multigpu_model.h"
#include "pages/page_registry.h"
#include "pages/running_example.h"
#include "qcustomplot.h"
#include "widgets/choice_box.h"
#include "widgets/parallelism_view.h"
#include "widgets/plot_style.h"
#include "widgets/run_bar.h"
#include "widgets/projector_side_tab.h"
#include "widgets/source_badge.h"
#include "widgets/stacked_or_tabbed.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMap>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTabBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

using namespace gpulab::models;

QVector<MultiGpuPage::Link> MultiGpuPage::catalogueLinks() {
  // GPU-to-GPU links ("NVLink4 900 GB/s") with the cards that have them, then the PCIe host links. Every figure
  // per direction: vendors quote NVLink and Infinity Fabric with both directions added (900 = 450 each way),
  // PCIe per direction (64 GB/s), and a ring all-reduce sends and receives at once, each at one direction's rate.
  std::map<QString, std::pair<double, QStringList>> gpuLinks;
  std::map<QString, double> hostLinks;
  for (const GpuSpec& g : catalogue()) {
    if (g.interconnect_per_direction_gbs() > 0) {
      auto& e = gpuLinks[QString::fromStdString(g.interconnect_name())];
      e.first = g.interconnect_per_direction_gbs();
      e.second << QString::fromStdString(g.name);
    }
    if (g.host_link_gbs > 0) hostLinks[QString::fromStdString(g.host_link)] = g.host_link_gbs;
  }
  QVector<Link> out;
  for (const auto& [kind, v] : gpuLinks)
    out.push_back({QStringLiteral("%1 (%2)").arg(kind, v.second.front()), kind, v.first, true});
  for (const auto& [kind, gbs] : hostLinks) out.push_back({kind, kind, gbs, false});
  std::stable_sort(out.begin(), out.end(), [](const Link& a, const Link& b) { return a.gbs > b.gbs; });
  return out;
}

double MultiGpuPage::ringAllReduceSeconds(double bytes, int gpus, double bytesPerSecond) {
  if (gpus < 2 || !(bytesPerSecond > 0)) return 0;
  return 2.0 * (gpus - 1) / gpus * bytes / bytesPerSecond;
}

MultiGpuPage::~MultiGpuPage() = default;

MultiGpuPage::MultiGpuPage(AppContext& ctx) : Page(ctx) {
  m_links = catalogueLinks();

  m_view = new ParallelismView;  // its height follows the theme's fonts (minimumSizeHint)
  m_linkPlot = new QCustomPlot;
  m_linkPlot->setToolTip(tr("Interconnect bandwidth from the datasheets, each way: NVLink and Infinity Fabric are "
                            "quoted with both directions added (NVLink 4: 900 GB/s), so they are halved here to "
                            "compare with PCIe's per-direction figure. GPU-to-GPU links in green, PCIe host links "
                            "in blue."));
  m_linkPlot->setMinimumHeight(150);
  m_visual = new StackedOrTabbed(m_view, m_linkPlot, tr("Picture"), tr("Link speeds"));
  setVisual(m_visual);

  m_sheetBadge = new SourceBadge(SourceBadge::Kind::Datasheet, tr("link figures"));
  addBadge(m_sheetBadge);
  addBadge(new SourceBadge(SourceBadge::Kind::Model, tr("ring all-reduce")));
  m_peerBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("GPU→GPU copies (solid)"));
  m_peerBadge->setVisible(false);
  addBadge(m_peerBadge);

  // How to split.
  auto* split = new QGroupBox(tr("How to split the work"));
  auto* sl = new QVBoxLayout(split);
  auto* row = new QHBoxLayout;
  m_modes = new QButtonGroup(this);
  const QString names[] = {tr("Data"), tr("Tensor"), tr("Pipeline")};
  const char* const ids[] = {"data", "tensor", "pipeline"};  // their class-plan ids: multigpu.split_data …
  const QString tips[] = {tr("Data parallel: every GPU has the whole model and a slice of the batch; the gradients "
                             "are all-reduced each step"),
                          tr("Tensor parallel: every layer's matrices are split across the GPUs; partial results "
                             "are exchanged inside each layer"),
                          tr("Pipeline parallel: consecutive layers on consecutive GPUs; activations are handed from "
                             "stage to stage")};
  for (int i = 0; i < 3; ++i) {
    auto* b = new QPushButton(names[i], split);
    b->setCheckable(true);
    b->setToolTip(tips[i]);
    m_modes->addButton(b, i);
    setControlId(b, QStringLiteral("multigpu.split_") + QLatin1String(ids[i]));
    row->addWidget(b);
  }
  m_modes->button(0)->setChecked(true);
  sl->addLayout(row);
  auto* row2 = new QHBoxLayout;
  m_viewLink = new QComboBox(split);
  setControlId(m_viewLink, QStringLiteral("multigpu.view_link"));
  m_viewLink->addItem(tr("NVLink"));
  m_viewLink->addItem(tr("PCIe"));
  m_viewLink->setToolTip(tr("Which link the animation draws between the GPUs"));
  row2->addWidget(new QLabel(tr("Link"), split));
  row2->addWidget(m_viewLink, 1);
  m_pause = new QPushButton(tr("Pause"), split);
  m_pause->setCheckable(true);
  setControlId(m_pause, QStringLiteral("multigpu.pause"));
  m_pause->setToolTip(tr("Freeze the animation (it also stops by itself while the page is hidden)"));
  row2->addWidget(m_pause);
  sl->addLayout(row2);
  controls()->addWidget(split);

  // Peer-to-peer: measured when a second GPU is there, otherwise the reason and the datasheet figures.
  auto* peer = new QGroupBox(tr("Peer-to-peer bandwidth"));
  auto* pl = new QVBoxLayout(peer);
  m_peer = new QLabel(peer);
  m_peer->setWordWrap(true);
  m_peer->setTextFormat(Qt::RichText);
  pl->addWidget(m_peer);
  controls()->addWidget(peer);

  // The all-reduce calculator.
  auto* calc = new QGroupBox(tr("All-reduce the gradients (model)"));
  auto* form = new QFormLayout(calc);
  m_params = new QDoubleSpinBox(calc);
  setControlId(m_params, QStringLiteral("multigpu.params"));
  m_params->setRange(0.1, 2000);
  m_params->setDecimals(1);
  m_params->setValue(7);
  m_params->setSuffix(tr(" B params"));
  m_params->setToolTip(tr("Model size in billions of parameters: one gradient per parameter crosses the link"));
  form->addRow(tr("Model"), m_params);
  m_gradFormat = new QComboBox(calc);
  setControlId(m_gradFormat, QStringLiteral("multigpu.gradients"));
  addChoice(m_gradFormat, tr("BF16 / FP16"), tr("2 bytes per gradient"), 2.0);
  addChoice(m_gradFormat, tr("FP32"), tr("4 bytes per gradient"), 4.0);
  m_gradFormat->setToolTip(tr("Bytes per gradient sent over the link"));
  form->addRow(tr("Gradients"), m_gradFormat);
  m_gpus = new QSpinBox(calc);
  setControlId(m_gpus, QStringLiteral("multigpu.gpus"));
  m_gpus->setRange(2, 1024);
  m_gpus->setValue(8);
  m_gpus->setToolTip(tr("GPUs in the ring (8 in one NVLink server is typical)"));
  form->addRow(tr("GPUs"), m_gpus);
  m_link = new QComboBox(calc);
  setControlId(m_link, QStringLiteral("multigpu.link"));
  for (const Link& l : m_links)
    addChoice(m_link, tr("%1 · %2").arg(l.kind, fmtSi(l.gbs * 1e9, "B/s")), tr("%1, %2 per direction (datasheet)").arg(l.name, fmtSi(l.gbs * 1e9, "B/s")), l.gbs);
  m_link->setToolTip(tr("The link the gradients cross (datasheet figure)"));
  // Long link names must not widen the controls column: the combo shows what fits, the list shows all.
  for (QComboBox* c : {m_link, m_gradFormat, m_viewLink}) {
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(10);
  }
  form->addRow(tr("Link"), m_link);
  controls()->addWidget(calc);
  m_calcTab = std::make_unique<ProjectorSideTab>(
      sideTabs(), controls(), QList<QWidget*>{calc}, nullptr, tr("All-reduce"),
      tr("The all-reduce calculator: its own tab on a projector, so the controls need no scrolling"));

  m_result = addResultLabel(1, Qt::RichText);
  m_compare = addResultLabel(1, Qt::RichText);

  connect(m_modes, &QButtonGroup::idClicked, this, [this](int id) { setMode(id); });
  connect(m_pause, &QPushButton::toggled, this, [this](bool on) {
    m_view->setPaused(on);
    m_pause->setText(on ? tr("Play") : tr("Pause"));
  });
  connect(m_viewLink, &QComboBox::currentIndexChanged, this, [this](int i) {
    m_view->setLinkName(i == 0 ? tr("NVLink 4 · 450 GB/s each way (900 both ways)") : tr("PCIe Gen5 x16 · 64 GB/s each way"));
  });
  m_view->setLinkName(tr("NVLink 4 · 450 GB/s each way (900 both ways)"));
  connect(m_params, &QDoubleSpinBox::valueChanged, this, [this] { updateCalculator(); });
  connect(m_gpus, &QSpinBox::valueChanged, this, [this] {
    m_view->setGpuCount(m_gpus->value());  // the picture shows the calculator's GPUs
    updateCalculator();
  });
  m_view->setGpuCount(m_gpus->value());
  connect(m_gradFormat, &QComboBox::currentIndexChanged, this, [this] { updateCalculator(); });
  connect(m_link, &QComboBox::currentIndexChanged, this, [this] { updateCalculator(); });
  if (canRun()) {
    runBar()->setRunText(tr("Measure GPU→GPU"));
    runBar()->runButton()->setToolTip(tr("Copy 64 MiB, 256 MiB and 1 GiB from this GPU into the second one and time "
                                         "each copy (each checked byte for byte)"));
  }
  updateCalculator();
  updatePeer();
}

QString MultiGpuPage::peerUnavailableReason() const {
  gpulab::Backend* gpu = m_ctx.gpu();
  if (!gpu) {
    QString why = m_ctx.gpuReason();
    if (const int cut = why.indexOf(QStringLiteral(" (")); cut > 0) why.truncate(cut);
    return tr("it needs at least two GPUs in one machine, and this one has none (%1)").arg(why);
  }
  const gpulab::Support s = gpu->supports(gpulab::TransferSpec{"p2p", true, 64u << 20});
  return s.ok ? QString() : QString::fromStdString(s.reason);
}

bool MultiGpuPage::canRun() const { return m_ctx.gpu() && peerUnavailableReason().isEmpty(); }

gpulab::Plan MultiGpuPage::plan() { return gpulab::multigpu_plan(planBackends(), {}); }

void MultiGpuPage::run() {
  if (isRunning() || !canRun()) return;
  m_peerRates.erase(std::remove_if(m_peerRates.begin(), m_peerRates.end(),
                                   [this](const PeerRate& r) { return r.source == tr("measured here"); }),
                    m_peerRates.end());
  startPlan(tr("GPU→GPU copies"), plan());
}

void MultiGpuPage::onResult(const gpulab::Result& r) {
  if (const auto why = multigpu_model::peerFailure(r)) {
    runBar()->showStatus(QString::fromStdString(*why));
    return;
  }
  const auto copy = multigpu_model::peerCopy(r);
  if (!copy) return;
  m_peerRates.prepend({copy->bytes, copy->gbs, tr("measured here")});
  updatePeer();
}

void MultiGpuPage::recordingsChanged() {
  m_peerRates.erase(std::remove_if(m_peerRates.begin(), m_peerRates.end(),
                                   [this](const PeerRate& r) { return r.source != tr("measured here"); }),
                    m_peerRates.end());
  for (const StoredResult& sr : m_ctx.results().all())
    if (sr.source >= 0)
      if (const auto copy = multigpu_model::peerCopy(sr.result))
        m_peerRates.push_back({copy->bytes, copy->gbs, m_ctx.results().sourceLabel(sr.source)});
  updatePeer();
}

QMap<QString, MultiGpuPage::PeerRate> MultiGpuPage::bestPeerRates() const {
  // The best copy of each source: the largest copies get closest to the link's speed.
  QMap<QString, PeerRate> best;
  for (const PeerRate& r : m_peerRates)
    if (!best.contains(r.source) || r.gbs > best[r.source].gbs) best[r.source] = r;
  return best;
}

void MultiGpuPage::updatePeer() {
  QStringList lines;
  const QMap<QString, PeerRate> best = bestPeerRates();
  for (auto it = best.cbegin(); it != best.cend(); ++it)
    lines << tr("<b>%1</b> GPU→GPU (%2 copy), %3").arg(fmtSi(it->gbs * 1e9, "B/s"), fmtBytes(it->bytes), it.key());
  const QString why = peerUnavailableReason();
  // The loader's detail (why there is no GPU at all) for whoever hovers; the side column keeps the short reason.
  m_peer->setToolTip(why);
  if (lines.isEmpty())
    m_peer->setText(why.isEmpty() ? tr("Two GPUs are here: press <b>Measure GPU→GPU</b> to time copies between them "
                                       "and compare them with the datasheet links below.")
                                  : tr("Not measured here: %1. The figures below are datasheet values; a recording "
                                       "from a machine with two GPUs shows its measured copies.")
                                        .arg(why.section(QStringLiteral(" ("), 0, 0).toHtmlEscaped()));
  else
    m_peer->setText(lines.join(QStringLiteral("<br>")) +
                    tr("<br>A copy moves one way: compare it with the per-direction datasheet bars."));
  const bool here = best.contains(tr("measured here"));
  m_peerBadge->setVisible(!best.isEmpty());
  if (here) m_peerBadge->set(SourceBadge::Kind::MeasuredHere, tr("GPU→GPU copies (solid)"));
  else if (!best.isEmpty()) m_peerBadge->set(SourceBadge::Kind::Recorded, tr("GPU→GPU copies (outlined), %1").arg(best.firstKey()));
  rebuildLinkPlot(m_ctx.theme());
}

QString MultiGpuPage::takeaway() const {
  return tr("When one card is not enough, split the data, the layers or the matrices — and pay for what must cross "
            "the link between GPUs.");
}

void MultiGpuPage::setMode(int mode) {
  const auto m = mode == 1 ? ParallelismView::Mode::Tensor
                           : (mode == 2 ? ParallelismView::Mode::Pipeline : ParallelismView::Mode::Data);
  m_view->setMode(m);
  if (auto* b = m_modes->button(std::clamp(mode, 0, 2))) b->setChecked(true);
  updateCalculator();
}

void MultiGpuPage::setCalculator(double paramsBillions, double bytesPerGradient, int gpus, const QString& linkName) {
  m_params->setValue(paramsBillions);
  m_gradFormat->setCurrentIndex(std::max(0, m_gradFormat->findData(bytesPerGradient)));
  m_gpus->setValue(gpus);
  for (int i = 0; i < m_link->count(); ++i)
    if (m_link->itemText(i).contains(linkName, Qt::CaseInsensitive)) {
      m_link->setCurrentIndex(i);
      break;
    }
  updateCalculator();
}

QString MultiGpuPage::calculatorText() const { return m_result->text(); }
QString MultiGpuPage::peerText() const { return m_peer->text(); }

void MultiGpuPage::updateCalculator() {
  const double bytes = m_params->value() * 1e9 * m_gradFormat->currentData().toDouble();
  const int n = m_gpus->value();
  const double gbs = m_link->currentData().toDouble();
  const int mode = m_modes->checkedId();
  if (mode == 1 || mode == 2) {
    // Tensor and pipeline parallelism give each GPU its own part of the weights: its gradients belong to it
    // alone, so there is no all-reduce of the whole model's gradients among these GPUs.
    m_seconds = 0;
    m_result->setText(mode == 1
                          ? tr("Tensor parallel over %1 GPUs: each holds 1/%1 of every layer (%2 of gradients each), "
                               "so no gradient all-reduce among them — the link carries partial results inside every "
                               "layer, forward and backward, many times per step (model)")
                                .arg(n)
                                .arg(fmtBytes(bytes / n))
                          : tr("Pipeline parallel over %1 GPUs: each holds 1/%1 of the layers (%2 of gradients each), "
                               "so no gradient all-reduce among them — the link carries activations to the next "
                               "stage and their gradients back (model)")
                                .arg(n)
                                .arg(fmtBytes(bytes / n)));
    m_compare->setText(tr("A gradient all-reduce comes back only across copies of the model: data parallelism "
                          "(press Data)."));
    return;
  }
  m_seconds = ringAllReduceSeconds(bytes, n, gbs * 1e9);
  m_result->setText(tr("%1 of gradients, ring all-reduce over %2 GPUs at %3 each way: 2·(N−1)/N · bytes ÷ "
                       "bandwidth ≈ <b>%4</b> per step (model)")
                        .arg(fmtBytes(bytes))
                        .arg(n)
                        .arg(fmtSi(gbs * 1e9, "B/s"), fmtSeconds(m_seconds)));
  // The same gradients over the slowest and the fastest links of the catalogue, for scale.
  if (!m_links.isEmpty()) {
    const Link& fast = m_links.front();
    // The lesson's PCIe figure (Gen5 x16, 64 GB/s) when the catalogue has it, else the slowest link.
    const Link* slowest = &m_links.back();
    for (const Link& l : m_links)
      if (l.name.contains(QStringLiteral("Gen5 x16"))) slowest = &l;
    const Link& slow = *slowest;
    const double tFast = ringAllReduceSeconds(bytes, n, fast.gbs * 1e9), tSlow = ringAllReduceSeconds(bytes, n, slow.gbs * 1e9);
    m_compare->setText(tr("Over %1: %2 · over %3: %4 (%5× slower)")
                           .arg(fast.name, fmtSeconds(tFast), slow.name, fmtSeconds(tSlow),
                                fmtFixed(tFast > 0 ? tSlow / tFast : 0, 1)));
  }
}

void MultiGpuPage::applyTheme(const Theme& t) {
  Page::applyTheme(t);
  m_calcTab->place(t.isProjector());  // a projector's fonts cannot hold every group in the column
  m_view->setTheme(t);
  rebuildLinkPlot(t);
  // The minimum heights follow the theme: both stacked, or taking turns when the page is too short for both.
  auto* column = static_cast<StackedOrTabbed*>(m_visual);
  column->updateGeometry();
  column->relayout();
}

bool MultiGpuPage::calculatorInOwnTab() const { return m_calcTab->inOwnTab(); }

bool MultiGpuPage::visualTabbed() const { return static_cast<StackedOrTabbed*>(m_visual)->tabbed(); }

void MultiGpuPage::showLinkChart(bool chart) {
  auto* column = static_cast<StackedOrTabbed*>(m_visual);
  column->showBottom(chart);
}

void MultiGpuPage::rebuildLinkPlot(const Theme& t) {
  stylePlot(m_linkPlot, t);
  m_linkPlot->clearPlottables();
  auto* gpuBars = new QCPBars(m_linkPlot->yAxis, m_linkPlot->xAxis);
  auto* hostBars = new QCPBars(m_linkPlot->yAxis, m_linkPlot->xAxis);
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  QVector<double> gk, gv, hk, hv;
  for (int i = 0; i < m_links.size(); ++i) {
    const double key = m_links.size() - i;  // fastest on top
    // The axis names the link only ("NVLink4"); the card that has it is in the calculator and the CSV.
    QString name = m_links[i].name;
    if (const int cut = name.indexOf(QStringLiteral(" (")); cut > 0) name.truncate(cut);
    ticker->addTick(key, name);
    (m_links[i].gpuToGpu ? gk : hk) << key;
    (m_links[i].gpuToGpu ? gv : hv) << m_links[i].gbs;
  }
  // Measured or recorded GPU→GPU copies go on top, one row per source (its best copy): solid when measured
  // here, outlined when recorded, as everywhere in the app.
  const QMap<QString, PeerRate> best = bestPeerRates();
  QVector<double> hereK, hereV, recK, recV;
  int row = int(m_links.size());
  for (auto it = best.cbegin(); it != best.cend(); ++it) {
    ++row;
    QString label = it.key();
    if (label.size() > 28) label = label.left(27) + QStringLiteral("…");
    ticker->addTick(row, tr("GPU→GPU copy, %1").arg(label));
    const bool here = it.key() == tr("measured here");
    (here ? hereK : recK) << row;
    (here ? hereV : recV) << it.value().gbs;
  }
  gpuBars->setData(gk, gv);
  hostBars->setData(hk, hv);
  gpuBars->setName(tr("GPU↔GPU link"));
  hostBars->setName(tr("PCIe host link"));
  for (auto [keys, values, here] : {std::tuple{&hereK, &hereV, true}, std::tuple{&recK, &recV, false}}) {
    if (keys->isEmpty()) continue;
    auto* bars = new QCPBars(m_linkPlot->yAxis, m_linkPlot->xAxis);
    bars->setData(*keys, *values);
    bars->setName(here ? tr("GPU→GPU copy, measured here") : tr("GPU→GPU copy, recorded"));
    bars->setWidth(0.7);
    bars->setBrush(here ? QBrush(t.gpu) : QBrush(Qt::NoBrush));
    bars->setPen(QPen(here ? t.gpu.darker(140) : t.gpu, here ? 1.5 : t.lineWidth));
  }
  // Datasheet figures: outlined with a dashed pen, as every datasheet figure in the app.
  for (auto [bars, c] : {std::pair{gpuBars, t.gpu}, std::pair{hostBars, okabe_ito::blue}}) {
    bars->setWidth(0.7);
    QColor fill = c;
    fill.setAlpha(150);
    bars->setBrush(fill);
    bars->setPen(QPen(c.darker(130), 1.5, Qt::DashLine));
  }
  m_linkPlot->yAxis->setTicker(ticker);
  // Nine named rows at the theme's plot font: the plot is tall enough for them (minimum height below).
  const int copyRows = row - int(m_links.size());
  // Each row needs a line of tick-label text and a little air (the fit test's rule), plus the x axis below.
  const int lineH = QFontMetrics(m_linkPlot->yAxis->tickLabelFont()).height();
  const int rowsNeed = int(std::ceil(row * lineH * 1.1)) + 3 * lineH + 20;
  m_linkPlot->setMinimumHeight(std::max(rowsNeed, t.isProjector() ? 330 + 32 * copyRows : 150 + 14 * copyRows));
  m_linkPlot->yAxis->setRange(0.4, row + 0.6);
  m_linkPlot->xAxis->setRange(0, 500);
  m_linkPlot->xAxis->setLabel(best.isEmpty() ? tr("GB/s each way (datasheet)")
                                             : tr("GB/s each way (datasheet: dashed; copies: solid or outlined)"));
  m_linkPlot->legend->setVisible(true);
  m_linkPlot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
  m_linkPlot->replot();
}

QList<PlotExport> MultiGpuPage::plots() {
  QList<PlotExport> out;
  out.append(PlotExport{QStringLiteral("parallelism"), tr("Data, tensor and pipeline parallelism"), nullptr, m_view, {}});
  out.append(PlotExport{QStringLiteral("links"), tr("Interconnect bandwidth"), m_linkPlot, nullptr, [this] {
                          QString csv = QStringLiteral("link,GB_per_s,kind,source,copy_bytes\n");
                          for (const Link& l : m_links)
                            csv += QStringLiteral("\"%1\",%2,%3,datasheet,\n")
                                       .arg(l.name)
                                       .arg(l.gbs)
                                       .arg(l.gpuToGpu ? QStringLiteral("gpu-gpu") : QStringLiteral("pcie-host"));
                          for (const PeerRate& r : m_peerRates)
                            csv += QStringLiteral("GPU to GPU copy,%1,gpu-gpu-copy,\"%2\",%3\n")
                                       .arg(r.gbs, 0, 'g', 5)
                                       .arg(r.source)
                                       .arg(r.bytes, 0, 'f', 0);
                          return csv;
                        }});
  return out;
}

GPULAB_REGISTER_PAGE(110, MultiGpuPage);
