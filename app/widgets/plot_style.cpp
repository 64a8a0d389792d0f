#include "widgets/plot_style.h"

#include "qcustomplot.h"

int legendFontPt(const Theme& theme) {
  return theme.isProjector() ? std::max(16, theme.plotFontPt - 4) : std::max(8, theme.plotFontPt - 1);
}

void stylePlot(QCustomPlot* plot, const Theme& theme) {
  plot->setBackground(QBrush(theme.surface));
  QFont tick(QStringLiteral("DejaVu Sans"));
  tick.setPointSize(theme.plotFontPt);
  QFont label = tick;
  label.setBold(true);
  // Every axis rect: a plot with panels side by side (precision's three) styles them all alike.
  QList<QCPAxis*> axes;
  for (QCPAxisRect* rect : plot->axisRects()) axes += rect->axes();
  for (QCPAxis* axis : axes) {
    axis->setBasePen(QPen(theme.text, 1));
    axis->setTickPen(QPen(theme.text, 1));
    axis->setSubTickPen(QPen(theme.mutedText, 1));
    axis->setTickLabelColor(theme.text);
    axis->setLabelColor(theme.text);
    axis->setTickLabelFont(tick);
    axis->setLabelFont(label);
    axis->grid()->setPen(QPen(theme.grid, 1, Qt::SolidLine));
    axis->grid()->setSubGridPen(QPen(theme.grid.lighter(theme.dark ? 80 : 110), 1, Qt::DotLine));
  }
  if (plot->legend) {
    QFont legend = tick;
    legend.setPointSize(legendFontPt(theme));
    plot->legend->setFont(legend);
    plot->legend->setTextColor(theme.text);
    // A legend in a row of its own (placeLegendAbove) needs no box; one over the data does.
    const bool outside = plot->legend->layout() == plot->plotLayout();
    plot->legend->setBrush(outside ? QBrush(Qt::NoBrush) : QBrush(theme.surface));
    plot->legend->setBorderPen(outside ? QPen(Qt::NoPen) : QPen(theme.border));
  }
  for (int i = 0; i < plot->plotLayout()->elementCount(); ++i) {
    if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i))) {
      QFont f = label;
      f.setPointSize(theme.plotFontPt + 2);
      title->setFont(f);
      title->setTextColor(theme.text);
    }
  }
}

QPen seriesPen(const Theme& theme, const QColor& color, SeriesKind kind) {
  QPen pen(color);
  switch (kind) {
    case SeriesKind::Measured: pen.setWidthF(theme.lineWidth); break;
    case SeriesKind::Recorded: pen.setWidthF(theme.lineWidth); pen.setStyle(Qt::SolidLine); break;
    case SeriesKind::Datasheet: pen.setWidthF(theme.lineWidth); pen.setStyle(Qt::DashLine); break;
    case SeriesKind::Model:
      // Thinner than measured lines, but never under 3 px on a projector, where thin lines vanish.
      pen.setWidthF(std::max(theme.isProjector() ? 3.0 : 1.0, theme.lineWidth * 0.6));
      pen.setStyle(Qt::DotLine);
      break;
  }
  return pen;
}

void styleGraph(QCPGraph* graph, const Theme& theme, const QColor& color, SeriesKind kind) {
  graph->setPen(seriesPen(theme, color, kind));
  switch (kind) {
    case SeriesKind::Measured:
      graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, theme.markerSize));
      break;
    case SeriesKind::Recorded:
      graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 2), QBrush(theme.surface), theme.markerSize));
      break;
    default: graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone)); break;
  }
}

void placeLegendAbove(QCustomPlot* plot, int columns) {
  QCPLegend* legend = plot->legend;
  if (!legend) return;
  // QCustomPlot's minimumSizeHint() is its layout's, legend row included: an explicit minimum width keeps a
  // wide legend from widening the window (1366 px screens); the legend is clipped first instead.
  plot->setMinimumWidth(std::max(plot->minimumWidth(), 160));
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend->setWrap(std::max(1, columns));
  if (legend->layout() == plot->plotLayout()) return;  // moved already
  if (auto* inset = plot->axisRect()->insetLayout(); inset && inset->elements(false).contains(legend))
    inset->take(legend);
  QCPLayoutGrid* grid = plot->plotLayout();
  // Above the axis rect: find the axis rect's row (a title row may be above it).
  int row = 0;
  for (int r = 0; r < grid->rowCount(); ++r)
    if (grid->element(r, 0) == plot->axisRect()) row = r;
  grid->insertRow(row);
  grid->addElement(row, 0, legend);
  grid->setRowStretchFactor(row, 0.001);
  legend->setMargins(QMargins(4, 2, 4, 0));
  legend->setBorderPen(Qt::NoPen);
  legend->setBrush(Qt::NoBrush);
}

void useLogAxis(QCustomPlot* plot, bool xAxis) {
  QCPAxis* axis = xAxis ? plot->xAxis : plot->yAxis;
  axis->setScaleType(QCPAxis::stLogarithmic);
  QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
  ticker->setLogBase(10);
  ticker->setSubTickCount(8);
  axis->setTicker(ticker);
  axis->setNumberFormat(QStringLiteral("eb"));
  axis->setNumberPrecision(0);
}
