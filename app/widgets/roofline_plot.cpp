#include "widgets/roofline_plot.h"

#include "widgets/legend_placement.h"
#include "widgets/recorded_look.h"

#include "gpulab/device_words.hpp"

#include "format.h"
#include "qcustomplot.h"

#include <QFontMetrics>
#include <QMap>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>
#include <cmath>
#include <limits>

namespace {
// Below this plot height the legend is left off (see rebuildNow).
constexpr int kLegendMinHeight = 480;

QString ridgeText(double ridge) {
  const QString v = ridge < 1 ? fmtFixed(ridge, 2) : ridge < 10 ? fmtFixed(ridge, 1) : fmtCount(std::llround(ridge));
  return QObject::tr("ridge %1 FLOP/B").arg(v);
}

QString csvField(QString s) {
  if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n'))) {
    s.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    s = QLatin1Char('"') + s + QLatin1Char('"');
  }
  return s;
}

}  // namespace

RooflinePlot::RooflinePlot(QWidget* parent) : QWidget(parent) {
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  m_plot = new QCustomPlot(this);
  m_plot->setObjectName(QStringLiteral("rooflinePlot"));
  m_plot->setMinimumSize(220, 180);
  m_plot->legend->setVisible(true);
  m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
  useLogAxis(m_plot, true);
  useLogAxis(m_plot, false, QStringLiteral("FLOP/s"));
  m_plot->xAxis->setLabel(tr("Arithmetic intensity (FLOPs per byte moved)"));
  m_plot->yAxis->setLabel(tr("Speed (FLOP/s)"));
  m_plot->setToolTip(tr("Rest the mouse on a point to see where it came from."));
  lay->addWidget(m_plot);

  m_rebuild = new QTimer(this);
  m_rebuild->setSingleShot(true);
  m_rebuild->setInterval(30);  // coalesces a stream of points into one replot
  connect(m_rebuild, &QTimer::timeout, this, &RooflinePlot::rebuild);

  connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
    const QString tip = tooltipAt(e->pos());
    if (tip.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(e->globalPosition().toPoint(), tip, m_plot);
  });
  rebuild();
}

RooflinePlot::~RooflinePlot() = default;

// A page redrawn once a frame hands over the same roofs and points most frames (a slider that moves only the other
// plot): the same picture is not rebuilt.
void RooflinePlot::setRoofs(const QVector<Roof>& roofs) {
  if (roofs == m_roofs) return;
  m_roofs = roofs;
  scheduleRebuild();
}

void RooflinePlot::setPoints(const QVector<Point>& points) {
  if (points == m_points) return;
  m_points = points;
  scheduleRebuild();
}

void RooflinePlot::addPoint(const Point& point) {
  m_points.push_back(point);
  scheduleRebuild();
}

void RooflinePlot::setHighlight(double intensity, double flops, const QString& label) {
  m_hiX = intensity;
  m_hiY = flops;
  m_hiLabel = label;
  scheduleRebuild();
}

void RooflinePlot::clear() {
  m_roofs.clear();
  m_points.clear();
  m_hiX = m_hiY = 0;
  m_hiLabel.clear();
  scheduleRebuild();
}

void RooflinePlot::setCompact(bool compact) {
  m_compact = compact;
  scheduleRebuild();
}

void RooflinePlot::setTitle(const QString& title) {
  if (title == m_title) return;  // a page sets it with every redraw
  m_title = title;
  scheduleRebuild();
}

void RooflinePlot::applyTheme(const Theme& theme) {
  m_theme = theme;
  rebuild();
}

void RooflinePlot::scheduleRebuild() { m_rebuild->start(); }

void RooflinePlot::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (m_plot && m_legendHasRoom != (!m_compact && m_plot->height() >= kLegendMinHeight)) scheduleRebuild();
}

void RooflinePlot::rebuildNow() {
  m_rebuild->stop();
  rebuild();
}

// Graphs are kept across redraws (issue 24): a redraw takes them in order and hides the ones left over, instead of
// deleting every graph and its legend item and making them again. Items (a few labels) are still remade.
QCPGraph* RooflinePlot::nextGraph(bool inLegend) {
  QCPGraph* g;
  if (m_graphsUsed < m_graphPool.size()) {
    g = m_graphPool[m_graphsUsed];
    g->setVisible(true);
    g->setLineStyle(QCPGraph::lsLine);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    g->setBrush(Qt::NoBrush);
  } else {
    g = m_plot->addGraph();
    m_graphPool.push_back(g);
    ++m_graphsCreated;
  }
  ++m_graphsUsed;
  g->setName(QString());
  if (inLegend) g->addToLegend();
  return g;
}

void RooflinePlot::rebuild() {
  m_graphsUsed = 0;
  m_plot->legend->clearItems();  // refilled in drawing order by nextGraph
  m_plot->clearItems();
  // The title row, when there is one, is element (0,0) above the axis rect.
  if (m_plot->plotLayout()->rowCount() > 1) {
    m_plot->plotLayout()->removeAt(0);
    m_plot->plotLayout()->simplify();
  }
  if (!m_title.isEmpty()) {
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, new QCPTextElement(m_plot, m_title));
  }
  stylePlot(m_plot, m_theme);
  // A short chart (a 1366×768 projector) has no room for the legend's many roofs without covering points: each
  // roof is labelled on its line anyway, and the badges above say what the marks are.
  m_legendHasRoom = !m_compact && m_plot->height() >= kLegendMinHeight;
  m_plot->legend->setVisible(m_legendHasRoom);
  {
    // The legend lists many roofs: a size below the axis text keeps it off the points (plot_style.h). A compact
    // chart beside another one keeps the theme's tick and title sizes (a projector needs them) and gets fewer
    // ticks instead, so the large labels do not collide.
    QFont lf = m_plot->legend->font();
    lf.setPointSize(legendFontPt(m_theme));
    m_plot->legend->setFont(lf);
    for (QCPAxis* axis : m_plot->axisRect()->axes()) {
      if (auto log = axis->ticker().dynamicCast<QCPAxisTickerLog>()) {
        log->setTickCount(m_compact ? 3 : 5);
        log->setSubTickCount(m_compact ? 0 : 8);
      }
    }
  }

  // Ranges: wide enough for every roof's corner and every point, with a decade of air; at least 0.01 … 1000 FLOP/B
  // so the lesson's 1.0 (batch 1) and 227.6 (batch 256) always fit.
  double xlo = 0.01, xhi = 1000, ylo = std::numeric_limits<double>::infinity(), yhi = 0;
  for (const Roof& r : m_roofs) {
    if (r.ridge() > 0) {
      xlo = std::min(xlo, r.ridge() / 10);
      xhi = std::max(xhi, r.ridge() * 10);
    }
    if (r.peakFlops > 0) {
      yhi = std::max(yhi, r.peakFlops);
      ylo = std::min(ylo, r.peakFlops / 300);
    }
  }
  for (const Point& p : m_points) {
    if (!(p.intensity > 0) || !(p.flops > 0)) continue;
    xlo = std::min(xlo, p.intensity / 3);
    xhi = std::max(xhi, p.intensity * 3);
    yhi = std::max(yhi, p.flops);
    ylo = std::min(ylo, p.flops / 3);
  }
  if (yhi <= 0) {
    // Nothing yet: the span from a laptop to an H200.
    for (const Roof& r : m_roofs)
      if (r.bandwidth > 0) yhi = std::max(yhi, r.bandwidth * xhi);
    if (yhi <= 0) yhi = 1e15;
  }
  yhi *= 3;
  if (!std::isfinite(ylo)) ylo = yhi / 1e5;
  ylo = std::max(ylo, yhi / 1e9);  // past nine decades the chart says nothing
  xlo = std::max(xlo, 1e-3);
  xhi = std::min(xhi, 1e6);
  m_plot->xAxis->setRange(xlo, xhi);
  m_plot->yAxis->setRange(ylo, yhi);

  QFont labelFont(QStringLiteral("DejaVu Sans"));
  labelFont.setPointSize(m_compact ? legendFontPt(m_theme) : std::max(7, m_theme.plotFontPt - 1));

  QVector<double> rx, ry;
  QVector<QColor> rc;
  // Ridge labels already placed, in pixels: two recordings' roofs share corners, and their "ridge 3.0 FLOP/B"
  // labels were written over each other. A label that would overlap one tries the corner's other side, else is
  // left out (the corner's diamond and the key still say which roof it is).
  QVector<QRectF> placedRidgeLabels;
  const QFontMetrics ridgeMetrics(labelFont);
  // The corners a ridge label may take around its diamond, in the order tried.
  enum class Side { aboveLeft, aboveRight, belowRight, belowLeft };
  auto ridgeLabelRect = [&](double x, double y, const QString& text, Side side) {
    const QSizeF size = QSizeF(ridgeMetrics.horizontalAdvance(text) + 8, ridgeMetrics.height() + 6);
    const QPointF at(m_plot->xAxis->coordToPixel(x), m_plot->yAxis->coordToPixel(y));
    switch (side) {
      case Side::aboveLeft: return QRectF(at - QPointF(size.width(), size.height()), size);
      case Side::aboveRight: return QRectF(at - QPointF(0, size.height()), size);
      case Side::belowLeft: return QRectF(at - QPointF(size.width(), 0), size);
      default: return QRectF(at, size);
    }
  };
  // A label must also lie wholly inside the chart (clipped, "ridge 21 FLOP/" and "32 FLOP/B" lost their ends at a
  // 1024×768 projector) and off the points, which sit under the roofs: so above the corner is tried first.
  QVector<QRectF> pointMarks;
  for (const Point& p : m_points)
    if (p.intensity > 0 && p.flops > 0) {
      const QPointF c(m_plot->xAxis->coordToPixel(p.intensity), m_plot->yAxis->coordToPixel(p.flops));
      const double h = m_theme.markerSize / 2.0 + 2;
      pointMarks << QRectF(c - QPointF(h, h), QSizeF(2 * h, 2 * h));
    }
  const QRectF chart = QRectF(m_plot->axisRect()->rect()).adjusted(2, 2, -2, -2);
  const bool laidOut = chart.width() > 50 && chart.height() > 50;  // before the first layout: nothing to judge by
  auto freeOfPlaced = [&](const QRectF& r) {
    auto clear = [&](const QVector<QRectF>& taken) {
      return std::none_of(taken.begin(), taken.end(), [&](const QRectF& p) { return p.intersects(r); });
    };
    return (!laidOut || chart.contains(r)) && clear(placedRidgeLabels) && clear(pointMarks);
  };
  for (const Roof& r : m_roofs) {
    if (!(r.peakFlops > 0) && !(r.bandwidth > 0)) continue;
    QVector<double> xs, ys;
    auto at = [&](double x) {
      double y = std::numeric_limits<double>::infinity();
      if (r.peakFlops > 0) y = r.peakFlops;
      if (r.bandwidth > 0) y = std::min(y, x * r.bandwidth);
      return y;
    };
    xs << xlo;
    ys << at(xlo);
    const double ridge = r.ridge();
    if (ridge > xlo && ridge < xhi) {
      xs << ridge;
      ys << r.peakFlops;
    }
    xs << xhi;
    ys << at(xhi);
    QCPGraph* g = nextGraph(true);
    g->setName(r.label);
    g->setData(xs, ys, true);
    styleGraph(g, m_theme, r.color, r.kind);
    if (r.kind == SeriesKind::Recorded && r.source > 0) {  // the second recording's roofs: dash-dot, not solid
      QPen pen = g->pen();
      pen.setStyle(Qt::DashDotLine);
      g->setPen(pen);
    }
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    if (ridge > xlo && ridge < xhi) {
      rx << ridge;
      ry << r.peakFlops;
      rc << r.color;
      const QString text = ridgeText(ridge);
      std::optional<Side> side;
      for (Side candidate : {Side::aboveLeft, Side::aboveRight, Side::belowRight, Side::belowLeft})
        if (!side && freeOfPlaced(ridgeLabelRect(ridge, r.peakFlops, text, candidate))) side = candidate;
      if (r.labelRidge && !m_compact && side) {
        placedRidgeLabels << ridgeLabelRect(ridge, r.peakFlops, text, *side);
        auto* t = new QCPItemText(m_plot);
        t->position->setCoords(ridge, r.peakFlops);
        switch (*side) {
          case Side::aboveLeft:
            t->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
            t->setPadding(QMargins(2, 2, 6, 4));
            break;
          case Side::aboveRight:
            t->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            t->setPadding(QMargins(6, 2, 2, 4));
            break;
          case Side::belowLeft:
            t->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
            t->setPadding(QMargins(2, 4, 6, 2));
            break;
          default:
            t->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
            t->setPadding(QMargins(6, 4, 2, 2));
        }
        t->setText(text);
        t->setFont(labelFont);
        t->setColor(r.color);
        t->setClipToAxisRect(true);
      }
    }
  }
  // Ridge corners: small open diamonds, one per roof, not in the legend.
  for (int i = 0; i < rx.size(); ++i) {
    QCPGraph* g = nextGraph(false);
    g->setData({rx[i]}, {ry[i]});
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(rc[i], 2), QBrush(m_theme.surface),
                                       m_theme.markerSize + 2));
  }

  // Points, one graph per group, in the order groups first appear.
  QStringList order;
  QMap<QString, QVector<int>> byGroup;
  for (int i = 0; i < m_points.size(); ++i) {
    const Point& p = m_points[i];
    if (!(p.intensity > 0) || !(p.flops > 0)) continue;
    if (!byGroup.contains(p.group)) order << p.group;
    byGroup[p.group].push_back(i);
  }
  for (const QString& group : order) {
    const QVector<int>& idx = byGroup[group];
    QVector<double> xs, ys;
    for (int i : idx) {
      xs << m_points[i].intensity;
      ys << m_points[i].flops;
    }
    const Point& first = m_points[idx.front()];
    QCPGraph* g = nextGraph(!group.isEmpty());
    g->setName(QStringLiteral("%1 (%2)").arg(group).arg(idx.size()));
    g->setData(xs, ys);
    if (first.recorded) styleRecordedGraph(g, m_theme, first.color, first.source);
    else styleGraph(g, m_theme, first.color, SeriesKind::Measured);
    g->setLineStyle(QCPGraph::lsNone);
    if (first.published)
      g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(first.color.darker(120), 2),
                                         QBrush(first.color), m_theme.markerSize + 3));
  }

  // Points above a roof, labelled with the reason (the highest point of each reason gets the note): a stream
  // beats the memory roof only from cache; a recording's points belong under another machine's roofs.
  m_aboveNotes.clear();
  {
    QMap<QString, int> highest;  // note -> index of its highest point
    for (int i = 0; i < m_points.size(); ++i) {
      const Point& p = m_points[i];
      if (!(p.intensity > 0) || !(p.flops > 0)) continue;
      // Above every measured roof that could hold it (datasheet roofs of other cards do not count): a stream
      // against the measured and recorded memory roofs, a recorded point against this machine's measured roofs.
      double highest_roof = 0;
      bool any = false;
      for (const Roof& r : m_roofs) {
        if (!(r.peakFlops > 0) && !(r.bandwidth > 0)) continue;
        if (r.kind == SeriesKind::Datasheet || r.kind == SeriesKind::Model) continue;
        if (p.stream ? !(r.bandwidth > 0) : (!p.recorded || r.kind != SeriesKind::Measured)) continue;
        double y = r.peakFlops > 0 ? r.peakFlops : std::numeric_limits<double>::infinity();
        if (r.bandwidth > 0) y = std::min(y, p.intensity * r.bandwidth);
        highest_roof = std::max(highest_roof, y);
        any = true;
      }
      if (!any || p.flops <= highest_roof * 1.05) continue;
      QString note;
      if (p.stream) note = tr("in cache");
      else if (p.recorded) note = p.device.isEmpty() ? tr("recorded: another machine's roofs")
                                                     : tr("recorded on %1: another machine's roofs").arg(p.device);
      if (note.isEmpty()) continue;
      if (!highest.contains(note) || m_points[highest[note]].flops < p.flops) highest[note] = i;
    }
    for (auto it = highest.cbegin(); it != highest.cend(); ++it) {
      const Point& p = m_points[it.value()];
      m_aboveNotes << it.key();
      auto* t = new QCPItemText(m_plot);
      t->setObjectName(QStringLiteral("aboveRoofNote"));
      t->position->setCoords(p.intensity, p.flops);
      // Right of the point in the left half of the chart, left of it in the right half, so it is never cut off.
      const bool rightHalf = std::log(p.intensity / xlo) > 0.5 * std::log(xhi / xlo);
      t->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
      t->setPadding(QMargins(6, 2, 6, 4));
      t->setText(it.key());
      t->setFont(labelFont);
      t->setColor(p.color);
      t->setClipToAxisRect(true);
    }
  }

  if (m_hiX > 0 && m_hiY > 0) {
    QCPGraph* g = nextGraph(false);
    g->setData({m_hiX}, {m_hiY});
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(m_theme.text, 2), Qt::NoBrush,
                                       m_theme.markerSize * 2 + 4));
    if (!m_hiLabel.isEmpty()) {
      auto* t = new QCPItemText(m_plot);
      t->position->setCoords(m_hiX, m_hiY);
      // Below the point, on whichever side has room, so the label never runs off the chart.
      const bool rightHalf = std::log(m_hiX) > 0.5 * (std::log(xlo) + std::log(xhi));
      t->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
      t->setPadding(rightHalf ? QMargins(2, 10, 12, 2) : QMargins(12, 10, 2, 2));
      t->setText(m_hiLabel);
      t->setFont(labelFont);
      t->setColor(m_theme.text);
      t->setClipToAxisRect(true);
    }
  }
  // Graphs this picture does not need: hidden and emptied, kept for the next one.
  for (int i = m_graphsUsed; i < m_graphPool.size(); ++i) {
    m_graphPool[i]->setVisible(false);
    m_graphPool[i]->data()->clear();
  }
  if (m_compact) {
    m_plot->xAxis->setLabel(tr("FLOPs per byte"));
    m_plot->yAxis->setLabel(tr("FLOP/s"));
  } else {
    // The long title only where the chart is wide enough for it (a 1024×768 projector cut it at "per byte mo").
    const QString full = tr("Arithmetic intensity (FLOPs per byte moved)");
    const QFontMetrics titleMetrics(m_plot->xAxis->labelFont());
    const int axisPx = m_plot->axisRect()->width();
    m_plot->xAxis->setLabel(axisPx < 50 || titleMetrics.horizontalAdvance(full) + 8 <= axisPx
                                ? full
                                : tr("FLOPs per byte moved"));
    m_plot->yAxis->setLabel(tr("Speed (FLOP/s)"));
  }
  m_plot->replot();
  fitLogTicksToSize();
  // Then the corner where the legend covers the fewest marks.
  // A key that hides points or labels in every corner (two recordings' roofs and points: a dozen entries) is left
  // off: each roof is labelled on its line, the summary below names every roof, and the badges (with their
  // tooltips) say which marks are which recording.
  // So is a key wider than the chart (a 1024 px window: 472 px of roofs' names on a 450 px chart).
  if (m_plot->legend->visible() &&
      (m_plot->legend->outerRect().width() > m_plot->axisRect()->width() || moveLegendOffData(m_plot) >= 10)) {
    m_plot->legend->setVisible(false);
    m_plot->replot();
  }
}

// As many decades labelled as the chart's size holds: the kernel page's Totals chart is half a projector's height,
// where the fixed five labels of nine decades were written over each other.
void RooflinePlot::fitLogTicksToSize() {
  bool changed = false;
  for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
    auto log = axis->ticker().dynamicCast<QCPAxisTickerLog>();
    if (!log) continue;
    const QFontMetrics fm(axis->tickLabelFont());
    // A label's extent along its axis: a line's height upright, a typical label's width ("100 T") across.
    const bool vertical = axis->orientation() == Qt::Vertical;
    const int extent = vertical ? fm.height() : fm.horizontalAdvance(QStringLiteral("100 m"));
    const int length = vertical ? m_plot->axisRect()->height() : m_plot->axisRect()->width();
    const int fits = std::clamp(length / (2 * std::max(1, extent)), 1, m_compact ? 3 : 5);
    if (log->tickCount() != fits) {
      log->setTickCount(fits);
      changed = true;
    }
  }
  if (changed) m_plot->replot();
}

QString RooflinePlot::tooltipAt(const QPoint& px) const {
  const double maxDist = 10 + m_theme.markerSize;
  double best = maxDist * maxDist;
  QString tip;
  for (const Point& p : m_points) {
    if (!(p.intensity > 0) || !(p.flops > 0)) continue;
    const double x = m_plot->xAxis->coordToPixel(p.intensity), y = m_plot->yAxis->coordToPixel(p.flops);
    const double d = (x - px.x()) * (x - px.x()) + (y - px.y()) * (y - px.y());
    if (d < best) {
      best = d;
      tip = p.tooltip;
    }
  }
  return tip;
}

QString RooflinePlot::csv() const {
  QString out = QStringLiteral("type,label,kind,intensity_flop_per_byte,flop_per_s,bandwidth_bytes_per_s,provenance\n");
  auto kindName = [](SeriesKind k) {
    switch (k) {
      case SeriesKind::Measured: return QStringLiteral("measured");
      case SeriesKind::Recorded: return QStringLiteral("recorded");
      case SeriesKind::Datasheet: return QStringLiteral("datasheet");
      case SeriesKind::Model: return QStringLiteral("model");
    }
    return QString();
  };
  for (const Roof& r : m_roofs)
    out += QStringLiteral("roof,%1,%2,%3,%4,%5,\n")
               .arg(csvField(r.label), kindName(r.kind))
               .arg(r.ridge(), 0, 'g', 6)
               .arg(r.peakFlops, 0, 'g', 6)
               .arg(r.bandwidth, 0, 'g', 6);
  for (const Point& p : m_points) {
    QString prov = p.tooltip;
    prov.replace(QLatin1Char('\n'), QStringLiteral("; "));
    out += QStringLiteral("point,%1,%2,%3,%4,,%5\n")
               .arg(csvField(p.group), p.published ? QStringLiteral("published")
                                       : p.recorded ? QStringLiteral("recorded")
                                       : p.model    ? QStringLiteral("model") : QStringLiteral("measured"))
               .arg(p.intensity, 0, 'g', 6)
               .arg(p.flops, 0, 'g', 6)
               .arg(csvField(prov));
  }
  return out;
}

QString shortDeviceName(const std::string& device, const QString& fallback) {
  // CPU model strings run long ("AMD EPYC 7B13 64-Core Processor"): the core's one rule cuts them for a legend.
  const QString name = QString::fromStdString(gpulab::short_device_name(device));
  if (!name.isEmpty()) return name;
  return fallback.isEmpty() ? QObject::tr("unknown device") : fallback;
}

QString shortDeviceName(const gpulab::Result& r) {
  auto it = r.provenance.find("device");
  return shortDeviceName(it == r.provenance.end() ? std::string() : it->second, QString::fromStdString(r.backend));
}

RooflinePlot::Point rooflinePointFor(const roofline_model::Point& p, const QString& sourceLabel, const Theme& theme) {
  RooflinePlot::Point out;
  out.intensity = p.intensity;
  out.flops = p.flopsPerS;
  out.recorded = p.source >= 0;
  out.source = p.source;
  out.stream = p.stream;
  const QString noun = QString::fromStdString(p.words.noun);
  out.device = shortDeviceName(p.device, noun);
  out.color = p.stream ? theme.memory : theme.precision(p.precision);
  const QString prec = QString::fromUtf8(gpulab::display_name(p.precision).data());
  const QString variant = QString::fromStdString(p.variant);
  out.group = p.stream ? QObject::tr("%1 · %2").arg(variant, sourceLabel) : QObject::tr("%1 GEMM · %2").arg(prec, sourceLabel);
  const QString size = p.stream ? fmtBytes(p.bytesPerArray) + QObject::tr(" per array")
                                : QStringLiteral("%1×%2×%3 (m×n×k)").arg(fmtCount(p.m), fmtCount(p.n), fmtCount(p.k));
  QString date = QString::fromStdString(p.date);
  date.replace(QLatin1Char('T'), QLatin1Char(' ')).remove(QLatin1Char('Z'));
  // The device's words (device_words), so a CPU-type Vulkan device or the emulator says it is not a GPU.
  out.tooltip = QObject::tr("%1 %2 on %3\n%4%5\n%6 at %7 FLOP/B, %8\n%9%10")
                    .arg(p.stream ? QObject::tr("Stream") : QObject::tr("GEMM"), variant,
                         QString::fromStdString(p.words.label))
                    .arg(p.stream ? QString() : prec + QStringLiteral(", "), size)
                    .arg(fmtSi(out.flops, "FLOP/s"), fmtFixed(out.intensity, out.intensity < 10 ? 2 : 1),
                         fmtSi(p.gbps * 1e9, "B/s"))
                    .arg(sourceLabel, date.isEmpty() ? QString() : QStringLiteral(", ") + date);
  return out;
}
