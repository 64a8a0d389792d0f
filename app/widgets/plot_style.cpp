#include "widgets/plot_style.h"

#include "qcustomplot.h"

void stylePlot(QCustomPlot* plot, const Theme& theme) {
  plot->setBackground(QBrush(theme.surface));
  QFont tick(QStringLiteral("DejaVu Sans"));
  tick.setPointSize(theme.plotFontPt);
  QFont label = tick;
  label.setBold(true);
  for (QCPAxis* axis : plot->axisRect()->axes()) {
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
    plot->legend->setFont(tick);
    plot->legend->setTextColor(theme.text);
    plot->legend->setBrush(QBrush(theme.surface));
    plot->legend->setBorderPen(QPen(theme.border));
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
