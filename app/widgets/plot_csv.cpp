#include "widgets/plot_csv.h"

#include "models/series_csv.h"
#include "qcustomplot.h"

#include <cmath>

namespace {
const char* const k_sourceProperty = "gpulabSource";

// The error bars drawn on `graph`, if any: their minus/plus around each point, in data order.
const QCPErrorBars* errorBarsOf(QCustomPlot* plot, const QCPGraph* graph) {
  for (int i = 0; i < plot->plottableCount(); ++i)
    if (auto* bars = qobject_cast<QCPErrorBars*>(plot->plottable(i)); bars && bars->dataPlottable() == graph)
      return bars;
  return nullptr;
}

bool hasData(const QCPAbstractPlottable* p) {
  if (qobject_cast<const QCPErrorBars*>(p)) return false;  // a mark's spread, not a series of its own
  if (auto* g = qobject_cast<const QCPGraph*>(p)) return !g->data()->isEmpty();
  if (auto* b = qobject_cast<const QCPBars*>(p)) return !b->data()->isEmpty();
  return true;
}
}  // namespace

void tagSource(QCPAbstractPlottable* plottable, const QString& source) {
  if (plottable) plottable->setProperty(k_sourceProperty, source);
}

QString sourceTag(const QCPAbstractPlottable* plottable) {
  return plottable ? plottable->property(k_sourceProperty).toString() : QString();
}

QString plotSeriesCsv(QCustomPlot* plot, const QString& xName, const QString& yName) {
  std::vector<gpulab::models::CsvPoint> points;
  for (int g = 0; plot && g < plot->graphCount(); ++g) {
    const QCPGraph* graph = plot->graph(g);
    if (graph->name().isEmpty() || graph->data()->isEmpty()) continue;
    const QString tag = sourceTag(graph);
    const std::string series = graph->name().toStdString(), source = (tag.isEmpty() ? QStringLiteral("untagged") : tag).toStdString();
    const QCPErrorBars* bars = errorBarsOf(plot, graph);
    int i = 0;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it, ++i) {
      gpulab::models::CsvPoint p{series, source, it->key, it->value};
      if (bars && i < bars->dataCount()) {
        const QCPErrorBarsData e = bars->data()->at(i);
        p.low = it->value - e.errorMinus;
        p.high = it->value + e.errorPlus;
      }
      points.push_back(p);
    }
  }
  return QString::fromStdString(gpulab::models::series_csv(xName.toStdString(), yName.toStdString(), points));
}

QStringList seriesMissingFromCsv(QCustomPlot* plot, const QString& csv) {
  std::vector<std::string> drawn;
  for (int i = 0; plot && i < plot->plottableCount(); ++i)
    if (const QCPAbstractPlottable* p = plot->plottable(i); hasData(p)) drawn.push_back(p->name().toStdString());
  QStringList out;
  for (const std::string& name : gpulab::models::series_missing(drawn, csv.toStdString())) out << QString::fromStdString(name);
  return out;
}
