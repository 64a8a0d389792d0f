#include "pages/whatgpu/whatgpu_page.h"
#include "models/simd_lanes.h"

#include "app_context.h"
#include "format.h"
#include "gpulab/models/catalogue.hpp"
#include "pages/matmul/matmul_page.h"
#include "pages/page_registry.h"
#include "pages/whatgpu/model/cpu_bandwidth.h"
#include "widgets/source_badge.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPainter>
#include <QHBoxLayout>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iterator>

using namespace gpulab;

namespace {

// The timeline above the picture: the lesson's three dates.
struct Milestone {
  int year;
  const char* text;
};
const Milestone k_milestones[] = {
    {2007, QT_TRANSLATE_NOOP("CpuGpuView", "CUDA: GPUs programmable for general maths")},
    {2012, QT_TRANSLATE_NOOP("CpuGpuView", "AlexNet trained on two gaming GPUs wins ImageNet")},
    {2017, QT_TRANSLATE_NOOP("CpuGpuView", "Volta (V100) adds Tensor Cores")},
};

// FP32 lanes per SM from the datasheet: peak / (SMs × clock × 2 FLOPs per FMA). 128 on recent NVIDIA parts.
int lanesPerSm(const models::GpuSpec& g) {
  if (!g.fp32_tflops || g.sms <= 0 || g.boost_mhz <= 0) return 0;
  return int(std::lround(*g.fp32_tflops * 1e12 / (double(g.sms) * g.boost_mhz * 1e6 * 2.0)));
}

// The grid that fits `n` squares into `area` with the largest square: columns, rows and the side.
struct Grid {
  int cols = 1, rows = 1;
  double side = 0;
};
Grid fitGrid(int n, const QRectF& area, double gapShare) {
  Grid best;
  for (int cols = 1; cols <= std::max(1, n); ++cols) {
    const int rows = (n + cols - 1) / cols;
    const double side = std::min(area.width() / cols, area.height() / rows);
    if (side > best.side) best = {cols, rows, side};
  }
  best.side *= (1.0 - gapShare);
  return best;
}

}  // namespace

CpuGpuView::CpuGpuView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("cpuGpuView"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  setToolTip(tr("Drawn to the real counts: every square on the left is one of this machine's CPU cores, every "
                "square on the right one SM of the chosen card"));
}

void CpuGpuView::setSides(const Side& cpu, const Side& gpu) {
  m_cpu = cpu;
  m_gpu = gpu;
  update();
}

void CpuGpuView::setTheme(const Theme& theme) {
  m_theme = theme;
  update();
}

void CpuGpuView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), m_theme.background);
  QFont f = font();
  f.setPointSize(m_theme.baseFontPt);
  p.setFont(f);
  const QFontMetricsF fm(f);
  const double line = fm.height();
  const double pad = line * 0.6;

  // Timeline across the top, as tall as its longest milestone needs at this width (up to four lines): at 1366 px
  // two lines cut "AlexNet trained on two gaming GPUs wi…".
  bool cut = false;  // any text shortened to fit: the fit test reads it as the property gpulabTextCut
  const int n = int(std::size(k_milestones));
  const double slot = (width() - 2 * pad) / n;
  const double textWidth = slot - 8;
  double textLines = 1;
  for (const Milestone& m : k_milestones) {
    const QRectF need = fm.boundingRect(QRectF(0, 0, textWidth, line * 100), Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
                                        tr(m.text));
    textLines = std::max(textLines, std::min(4.0, std::ceil(need.height() / line - 0.05)));
  }
  const QRectF tl(pad, pad, width() - 2 * pad, line * (1.5 + textLines));
  p.setPen(QPen(m_theme.mutedText, 2));
  const double axisY = tl.top() + line * 0.6;
  p.drawLine(QPointF(tl.left(), axisY), QPointF(tl.right(), axisY));
  for (int i = 0; i < n; ++i) {
    const double x = tl.left() + slot * (i + 0.5);
    p.setBrush(m_theme.gpu);
    p.setPen(Qt::NoPen);
    p.drawEllipse(QPointF(x, axisY), line * 0.28, line * 0.28);
    const QRectF box(x - slot / 2, axisY + line * 0.4, slot, line * (1.1 + textLines));
    QFont bold = f;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(m_theme.text);
    p.drawText(QRectF(box.left(), box.top(), box.width(), line), Qt::AlignHCenter | Qt::AlignTop,
               QString::number(k_milestones[i].year));
    p.setFont(f);
    p.setPen(m_theme.mutedText);
    // The words wrap; what still does not fit four lines is cut with an ellipsis.
    const QRectF textBox(box.left() + 4, box.top() + line, textWidth, line * (textLines + 0.1));
    const QString text = tr(k_milestones[i].text);
    const QRectF need = fm.boundingRect(textBox, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, text);
    const bool fits = need.height() <= textBox.height() + 1;
    cut = cut || !fits;
    p.drawText(textBox, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
               fits ? text : fm.elidedText(text, Qt::ElideRight, textBox.width() * textLines - fm.averageCharWidth() * 4));
  }

  // The two chips.
  const double top = tl.bottom() + pad;
  const double h = height() - top - pad;
  const double cpuW = (width() - 3 * pad) * 0.42;
  const QRectF cpuBox(pad, top, cpuW, h);
  const QRectF gpuBox(cpuBox.right() + pad, top, width() - cpuBox.right() - 2 * pad, h);

  // Text that wraps onto at most `lines` lines; what still does not fit is cut with an ellipsis.
  auto wrapped = [&](const QRectF& r, int lines, const QString& text, Qt::Alignment align) {
    const QRectF need = fm.boundingRect(r, align | Qt::TextWordWrap, text);
    cut = cut || need.height() > r.height() + 1;
    p.drawText(r, align | Qt::TextWordWrap,
               need.height() <= r.height() + 1 ? text
                                               : fm.elidedText(text, Qt::ElideRight, r.width() * lines - fm.averageCharWidth() * 6));
  };
  auto drawChip = [&](const QRectF& box, const Side& s, const QColor& hue, const QString& unitWord, bool lanesInside) {
    p.setPen(QPen(hue, 2));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(box, 6, 6);
    QFont bold = f;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(m_theme.text);
    const QRectF head(box.left() + 8, box.top() + 4, box.width() - 16, line);
    p.drawText(head, Qt::AlignLeft | Qt::AlignVCenter, QFontMetricsF(bold).elidedText(s.name, Qt::ElideRight, head.width()));
    p.setFont(f);
    p.setPen(m_theme.mutedText);
    const QString count = s.lanesPerUnit > 0
                              ? tr("%1 %2 × %3 FP32 lanes = %4 lanes")
                                    .arg(s.units)
                                    .arg(unitWord)
                                    .arg(s.lanesPerUnit)
                                    .arg(fmtCount(qint64(s.units) * s.lanesPerUnit))
                              : tr("%1 %2").arg(s.units).arg(unitWord);
    const QRectF sub(box.left() + 8, head.bottom(), box.width() - 16, line * 2);
    wrapped(sub, 2, count, Qt::AlignLeft | Qt::AlignTop);
    const QString peak = s.peakGflops > 0 ? tr("FP32 peak %1 (%2)").arg(fmtSi(s.peakGflops * 1e9, "FLOP/s"), s.peakSource)
                                          : tr("FP32 peak unknown");
    const QRectF foot(box.left() + 8, box.bottom() - 2 * line - 4, box.width() - 16, line * 2);
    wrapped(foot, 2, peak, Qt::AlignLeft | Qt::AlignBottom);

    const QRectF area(box.left() + 10, sub.bottom() + 6, box.width() - 20, foot.top() - sub.bottom() - 12);
    const int units = std::max(1, s.units);
    const Grid g = fitGrid(units, area, lanesInside ? 0.12 : 0.18);
    const double cellW = area.width() / g.cols, cellH = area.height() / g.rows;
    for (int i = 0; i < units; ++i) {
      const int r = i / g.cols, c = i % g.cols;
      const QRectF cell(area.left() + c * cellW + (cellW - g.side) / 2, area.top() + r * cellH + (cellH - g.side) / 2,
                        g.side, g.side);
      QColor fill = hue;
      fill.setAlpha(m_theme.dark ? 110 : 70);
      p.setPen(QPen(hue, g.side > 12 ? 1.5 : 0.8));
      p.setBrush(fill);
      p.drawRect(cell);
      if (lanesInside && s.lanesPerUnit > 0 && g.side > 24) {
        // A CPU core: a big control-and-cache block with its SIMD lanes along the bottom.
        const int lanes = s.lanesPerUnit;
        const double lw = (cell.width() - 8) / lanes;
        p.setPen(Qt::NoPen);
        p.setBrush(hue);
        for (int l = 0; l < lanes; ++l)
          p.drawRect(QRectF(cell.left() + 4 + l * lw + lw * 0.15, cell.bottom() - cell.height() * 0.28, lw * 0.7,
                            cell.height() * 0.22));
        p.setPen(m_theme.text);
        if (fm.horizontalAdvance(tr("control,")) < cell.width() - 10 && g.side > 60)
          p.drawText(cell.adjusted(4, 4, -4, -cell.height() * 0.3), Qt::AlignCenter | Qt::TextWordWrap,
                     tr("control, caches"));
      }
    }
  };
  drawChip(cpuBox, m_cpu, m_theme.cpu, tr("cores"), true);
  drawChip(gpuBox, m_gpu, m_theme.gpu, tr("SMs"), false);
  setProperty("gpulabTextCut", cut);
}

// ---- the page ----------------------------------------------------------------------------------------------

WhatGpuPage::WhatGpuPage(AppContext& ctx) : Page(ctx) {
  m_view = new CpuGpuView;
  setVisual(m_view);
  m_cpuBadge = new SourceBadge(SourceBadge::Kind::MeasuredHere, tr("this CPU"));
  m_gpuBadge = new SourceBadge(SourceBadge::Kind::Datasheet, tr("the card"));
  addBadge(m_cpuBadge);
  addBadge(m_gpuBadge);

  auto* box = new QGroupBox(tr("Compare this CPU with"));
  auto* form = new QFormLayout(box);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  m_card = new QComboBox(box);
  m_card->setObjectName(QStringLiteral("whatgpuCard"));
  setControlId(m_card, QStringLiteral("whatgpu.card"));
  m_card->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_card->setMinimumContentsLength(10);
  for (const auto& g : models::catalogue())
    m_card->addItem(QString::fromStdString(g.name), QString::fromStdString(g.name));
  // The detected GPU when there is one and the catalogue knows it; else the lesson's H100.
  const models::GpuSpec* detected = ctx.gpuInfo() ? models::find_gpu(ctx.gpuInfo()->name) : nullptr;
  const int start = m_card->findData(detected ? QString::fromStdString(detected->name) : QStringLiteral("H100 SXM"));
  m_card->setCurrentIndex(std::max(0, start));
  m_card->setToolTip(tr("The GPU drawn on the right and listed in the table below: its SMs, lanes and peaks come "
                        "from the datasheet catalogue"));
  form->addRow(tr("GPU"), m_card);
  controls()->addWidget(box);

  auto* noteBox = new QGroupBox(tr("Reading the picture"));
  auto* nl = new QVBoxLayout(noteBox);
  m_cpuNote = new QLabel(noteBox);
  m_cpuNote->setWordWrap(true);
  nl->addWidget(m_cpuNote);
  controls()->addWidget(noteBox);
  controls()->addStretch(1);

  m_figures = addResultLabel(1, Qt::RichText);
  m_figures->setObjectName(QStringLiteral("whatgpuFigures"));
  m_figures->setToolTip(tr("The same figures side by side: this CPU as detected and measured here, the card from "
                           "its datasheet"));

  connect(m_card, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
  // The bandwidth row follows the triads measured here (any page's) and the recordings opened.
  connect(&ctx.results(), &ResultStore::resultAdded, this, [this] { m_figures->setText(figuresText()); });
  connect(&ctx.results(), &ResultStore::recordingsChanged, this, [this] { m_figures->setText(figuresText()); });
  connect(&ctx.results(), &ResultStore::cleared, this, [this] { m_figures->setText(figuresText()); });
  refresh();
}

QString WhatGpuPage::takeaway() const {
  return tr("A CPU spends its chip on a few clever cores; a GPU on dozens of SMs full of simple lanes, all doing "
            "the same sum on different data.");
}

void WhatGpuPage::setCard(const QString& name) {
  const int i = m_card->findData(name);
  if (i >= 0) m_card->setCurrentIndex(i);
}

QString WhatGpuPage::card() const { return m_card->currentData().toString(); }

void WhatGpuPage::refresh() {
  const DeviceInfo& ci = m_ctx.cpuInfo();
  const bool measured = ci.peak_source.rfind("measured", 0) == 0;
  CpuGpuView::Side cpu;
  cpu.name = tr("This CPU: %1").arg(QString::fromStdString(ci.name));
  cpu.units = std::max(1, ci.compute_units);
  // FMAs per clock per core, as the GPU's lanes per SM are counted (issue 36: floats per instruction undercounted).
  cpu.lanesPerUnit = models::cpu_fma_lanes_per_core(ci.simd);
  cpu.peakGflops = ci.peak_gflops_fp32;
  cpu.peakSource = measured ? tr("measured here") : tr("model");
  QString how = QString::fromStdString(ci.peak_source);
  if (how.startsWith(QLatin1String("measured: "))) how = how.mid(10);
  m_cpuBadge->set(measured ? SourceBadge::Kind::MeasuredHere : SourceBadge::Kind::Model, tr("CPU peak: %1").arg(how));

  const models::GpuSpec* g = models::find_gpu(card().toStdString());
  CpuGpuView::Side gpu;
  if (g) {
    gpu.name = tr("%1 (%2, %3)").arg(QString::fromStdString(g->name), QString::fromStdString(g->vendor),
                                     QString::fromStdString(g->arch));
    gpu.units = g->sms;
    gpu.lanesPerUnit = lanesPerSm(*g);
    gpu.peakGflops = g->fp32_tflops.value_or(0) * 1e3;
    gpu.peakSource = tr("datasheet");
    m_gpuBadge->set(SourceBadge::Kind::Datasheet, QString::fromStdString(g->source));
  }
  m_view->setSides(cpu, gpu);

  m_cpuNote->setText(
      tr("Left: %1 cores, mostly control logic and cache, each doing %2 FP32 FMAs a clock (FMA units × SIMD "
         "width). Right: %3 SMs doing %4 FP32 FMAs a clock each, plus Tensor Cores: far less logic per lane, far "
         "more lanes.")
          .arg(cpu.units)
          .arg(cpu.lanesPerUnit > 0 ? QString::number(cpu.lanesPerUnit) : tr("some"))
          .arg(gpu.units)
          .arg(gpu.lanesPerUnit));
  m_figures->setText(figuresText());
}

QString WhatGpuPage::figuresText() const {
  const DeviceInfo& ci = m_ctx.cpuInfo();
  const models::GpuSpec* g = models::find_gpu(card().toStdString());
  const bool measured = ci.peak_source.rfind("measured", 0) == 0;
  const QString dash = QStringLiteral("—");
  auto row = [](const QString& what, const QString& a, const QString& b) {
    return QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2&nbsp;</td><td align=right>&nbsp;%3</td></tr>")
        .arg(what.toHtmlEscaped(), a.toHtmlEscaped(), b.toHtmlEscaped());
  };
  const int lanes = models::cpu_fma_lanes_per_core(ci.simd);
  QString t = QStringLiteral("<table cellspacing=0>");
  t += QStringLiteral("<tr><th></th><th align=right>&nbsp;%1&nbsp;</th><th align=right>&nbsp;%2</th></tr>")
           .arg(tr("this CPU (%1)").arg(measured ? tr("detected, peak measured here") : tr("detected, peak model")),
                g ? tr("%1 (datasheet)").arg(QString::fromStdString(g->name)) : dash);
  t += row(tr("cores / SMs"), QString::number(ci.compute_units), g ? QString::number(g->sms) : dash);
  t += row(tr("FP32 FMAs per clock"), lanes > 0 ? fmtCount(qint64(ci.compute_units) * lanes) : dash,
           g && lanesPerSm(*g) > 0 ? fmtCount(qint64(g->sms) * lanesPerSm(*g)) : dash);
  t += row(tr("clock"), ci.clock_mhz > 0 ? fmtSi(ci.clock_mhz * 1e6, "Hz") : dash,
           g && g->boost_mhz > 0 ? fmtSi(g->boost_mhz * 1e6, "Hz") : dash);
  t += row(tr("FP32 peak"), ci.peak_gflops_fp32 > 0 ? fmtSi(ci.peak_gflops_fp32 * 1e9, "FLOP/s") : dash,
           g && g->fp32_tflops ? fmtSi(*g->fp32_tflops * 1e12, "FLOP/s") : dash);
  // The CPU column is what was detected: a Xeon with AMX has matrix units of its own (not measured here).
  t += row(tr("FP16 matrix units (Tensor Cores, AMX)"),
           models::cpu_has_matrix_units(ci.simd) ? tr("AMX (not measured here)") : tr("none detected"),
           g && g->fp16_tflops ? fmtSi(*g->fp16_tflops * 1e12, "FLOP/s") : dash);
  // This CPU's triad where one was measured here or recorded on a CPU of its name (whatgpu_model::cpuBandwidth).
  const whatgpu_model::CpuBandwidth bw = whatgpu_model::cpuBandwidth(sourcedResults(), ci.name);
  t += row(tr("memory bandwidth"),
           bw.found() ? tr("%1 (triad, %2)").arg(fmtSi(bw.bytesPerS, "B/s"),
                                                 bw.source < 0 ? tr("measured here") : resultStore().sourceLabel(bw.source))
                      : tr("tens of GB/s (typical desktop, not measured)"),
           g ? tr("%1 (%2)").arg(fmtSi(g->bandwidth_gbs * 1e9, "B/s"), QString::fromStdString(g->memory_type)) : dash);
  t += QStringLiteral("</table>");
  return t;
}

QString WhatGpuPage::csv() const {
  const DeviceInfo& ci = m_ctx.cpuInfo();
  const models::GpuSpec* g = models::find_gpu(card().toStdString());
  const bool measured = ci.peak_source.rfind("measured", 0) == 0;
  QString out = QStringLiteral("device,units,fp32_fma_lanes_per_unit,clock_mhz,fp32_peak_gflops,source\n");
  out += QStringLiteral("\"%1\",%2,%3,%4,%5,%6\n")
             .arg(QString::fromStdString(ci.name))
             .arg(ci.compute_units)
             .arg(models::cpu_fma_lanes_per_core(ci.simd))
             .arg(ci.clock_mhz, 0, 'f', 0)
             .arg(ci.peak_gflops_fp32, 0, 'f', 1)
             .arg(measured ? QStringLiteral("measured here") : QStringLiteral("model"));
  if (g)
    out += QStringLiteral("\"%1\",%2,%3,%4,%5,datasheet\n")
               .arg(QString::fromStdString(g->name))
               .arg(g->sms)
               .arg(lanesPerSm(*g))
               .arg(g->boost_mhz)
               .arg(g->fp32_tflops.value_or(0) * 1e3, 0, 'f', 1);
  return out;
}

void WhatGpuPage::applyTheme(const Theme& theme) {
  Page::applyTheme(theme);
  m_view->setTheme(theme);
  // On a projector the picture is the slide: the six-row table under it (a long readout the class need not read
  // at once) moves to a "Numbers" tab of the side column, and comes back under the picture in the window.
  QTabWidget* side = sideTabs();
  const int at = side->indexOf(m_figures);
  if (theme.isProjector() && at < 0) {
    resultsStrip()->removeWidget(m_figures);
    side->addTab(m_figures, tr("Numbers"));
    side->setTabToolTip(side->indexOf(m_figures), m_figures->toolTip());
  } else if (!theme.isProjector() && at >= 0) {
    side->removeTab(at);
    resultsStrip()->addWidget(m_figures, 1);
    m_figures->show();
  }
}

QList<PlotExport> WhatGpuPage::plots() {
  return {PlotExport{QStringLiteral("cpu_vs_gpu"), tr("This CPU beside a GPU"), nullptr, m_view, [this] { return csv(); }}};
}

GPULAB_REGISTER_PAGE(5, WhatGpuPage);
