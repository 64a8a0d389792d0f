#include "widgets/spread_marks.h"

#include "qcustomplot.h"
#include "theme.h"

#include <algorithm>

QCPErrorBars* addSpreadBars(QCPAbstractPlottable* target, const QVector<double>& values, const QVector<double>& low,
                            const QVector<double>& high, const QColor& color) {
  if (!target || values.size() != low.size() || values.size() != high.size()) return nullptr;
  auto* bars = new QCPErrorBars(target->keyAxis(), target->valueAxis());
  bars->removeFromLegend();
  bars->setErrorType(QCPErrorBars::etValueError);
  setSpreadBars(bars, target, values, low, high, color);
  return bars;
}

void setSpreadBars(QCPErrorBars* bars, QCPAbstractPlottable* target, const QVector<double>& values,
                   const QVector<double>& low, const QVector<double>& high, const QColor& color) {
  if (!bars || !target || values.size() != low.size() || values.size() != high.size()) return;
  QVector<double> minus, plus;
  for (int i = 0; i < values.size(); ++i) {
    minus << std::max(0.0, values[i] - low[i]);
    plus << std::max(0.0, high[i] - values[i]);
  }
  bars->setDataPlottable(target);
  bars->setData(minus, plus);
  bars->setPen(QPen(color, 1.5));
  bars->setWhiskerWidth(7);
  bars->setSymbolGap(0);
  bars->setName(QString());
}

void addWhisker(QCustomPlot* plot, double y, double xLow, double xHigh, const QColor& color) {
  if (!(xHigh > xLow)) return;
  setWhisker(new QCPItemLine(plot), y, xLow, xHigh, color);
}

void setWhisker(QCPItemLine* whisker, double y, double xLow, double xHigh, const QColor& color) {
  whisker->start->setCoords(xLow, y);
  whisker->end->setCoords(xHigh, y);
  whisker->setPen(QPen(color, 1.5));
  whisker->setHead(QCPLineEnding(QCPLineEnding::esBar, 8, 8));
  whisker->setTail(QCPLineEnding(QCPLineEnding::esBar, 8, 8));
}

QString busyWarningHtml(const gpulab::models::BusyWatch& watch, const Theme& theme) {
  const std::string text = gpulab::models::busy_warning(watch.verdict());
  if (text.empty()) return {};
  return QStringLiteral("<span style='color:%1'><b>⚠ %2</b></span>")
      .arg(theme.bad.name(), QString::fromStdString(text).toHtmlEscaped());
}
