#include "widgets/recorded_look.h"

#include "widgets/plot_style.h"

#include "qcustomplot.h"

QColor recordedColor(const Theme& theme, const QColor& base, int source) {
  if (source <= 0) return base;
  // Far enough from the first to be told apart on a projector, still the same hue (CPU orange, GPU green).
  return theme.dark ? base.lighter(150) : base.darker(160);
}

QPen recordedBarPen(const Theme& theme, const QColor& base, int source) {
  QPen pen(recordedColor(theme, base, source), 2.5);
  if (source > 0) pen.setStyle(Qt::DashLine);
  return pen;
}

void styleRecordedGraph(QCPGraph* graph, const Theme& theme, const QColor& base, int source) {
  const QColor c = recordedColor(theme, base, source);
  styleGraph(graph, theme, c, SeriesKind::Recorded);
  if (source > 0) {
    QPen pen = graph->pen();
    pen.setStyle(Qt::DashLine);
    graph->setPen(pen);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(c, 2), QBrush(theme.surface), theme.markerSize));
  }
}
