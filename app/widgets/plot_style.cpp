#include "widgets/plot_style.h"

#include "qcustomplot.h"

#include <algorithm>
#include <cmath>
#include <typeinfo>
#include <utility>

namespace {
// QCustomPlot's own labels turn large and small numbers into powers of ten ("10" with a raised "14"); these
// tickers keep its tick positions and write each label with siTickLabel() instead.
class SiLogTicker : public QCPAxisTickerLog {
 public:
  enum class Style { Si, OneIn, Digits };
  SiLogTicker(QString unit, double scale, Style style = Style::Si) : m_unit(std::move(unit)), m_scale(scale), m_style(style) {}

 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override {
    switch (m_style) {
      case Style::OneIn: return oneInTickLabel(tick);
      case Style::Digits: return digitsTickLabel(tick);
      case Style::Si: break;
    }
    return siTickLabel(tick, m_unit, m_scale);
  }

 private:
  QString m_unit;
  double m_scale;
  Style m_style;
};

class SiLinearTicker : public QCPAxisTicker {
 public:
  SiLinearTicker(QString unit, double scale) : m_unit(std::move(unit)), m_scale(scale) {}
  void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
                QVector<double>* subTicks, QVector<QString>* tickLabels) override {
    m_step = getTickStep(range);
    QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
  }

 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override {
    // A tick at "zero" that is only rounding noise (0.1 + 0.2 - 0.3) is zero.
    if (m_step > 0 && std::fabs(tick) < m_step * 1e-9) tick = 0;
    return siTickLabel(tick, m_unit, m_scale);
  }

 private:
  QString m_unit;
  double m_scale;
  double m_step = 0;
};

// Up to three significant digits, no trailing zeros: 3.35, 25, 100, 0.01.
QString shortNumber(double m) {
  const double a = std::fabs(m);
  const int digits = a > 0 ? static_cast<int>(std::floor(std::log10(a))) : 0;
  const int decimals = std::clamp(2 - digits, 0, 12);
  QString s = QString::number(m, 'f', decimals);
  if (s.contains(QLatin1Char('.'))) {
    while (s.endsWith(QLatin1Char('0'))) s.chop(1);
    if (s.endsWith(QLatin1Char('.'))) s.chop(1);
  }
  if (s == QLatin1String("-0")) s = QStringLiteral("0");
  // Thousands separators in the whole part (10,000).
  const int dot = s.indexOf(QLatin1Char('.'));
  const int end = dot < 0 ? int(s.size()) : dot;
  const int start = s.startsWith(QLatin1Char('-')) ? 1 : 0;
  for (int i = end - 3; i > start; i -= 3) s.insert(i, QLatin1Char(','));
  return s;
}
}  // namespace

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
    // QCustomPlot's own tickers write powers of ten; a plot that kept them gets plain SI labels (plot_style.h).
    if (const auto t = axis->ticker(); t && typeid(*t) == typeid(QCPAxisTicker)) {
      QSharedPointer<QCPAxisTicker> si(new SiLinearTicker({}, 1));
      si->setTickCount(t->tickCount());
      axis->setTicker(si);
    } else if (const auto lt = axis->ticker().dynamicCast<QCPAxisTickerLog>(); lt && typeid(*lt) == typeid(QCPAxisTickerLog)) {
      QSharedPointer<QCPAxisTickerLog> si(new SiLogTicker({}, 1));
      si->setLogBase(lt->logBase());
      si->setSubTickCount(lt->subTickCount());
      si->setTickCount(lt->tickCount());
      axis->setTicker(si);
    }
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
  // The wrap first: setFillOrder re-flows the keys already there at the wrap it finds, setWrap alone moves none
  // (decode's two short keys stayed one to a row after the chart had grown wide enough for two).
  legend->setWrap(std::max(1, columns));
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
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


QString siTickLabel(double value, const QString& unit, double scale) {
  const double v = value * scale;
  if (!std::isfinite(v)) return {};
  const QString space = QStringLiteral(" ");
  if (std::fabs(v) < 1e-300) return unit.isEmpty() ? QStringLiteral("0") : QStringLiteral("0 ") + unit;
  static const char* const prefixes[] = {"y", "z", "a", "f", "p", "n", "µ", "m", "", "k", "M", "G", "T", "P", "E", "Z", "Y"};
  const double a = std::fabs(v);
  int p3 = 0;  // the power of 1000
  const bool plain = unit.isEmpty() && a >= 1e-3 && a < 1e6;
  if (!plain) p3 = std::clamp(static_cast<int>(std::floor(std::log10(a) / 3 + 1e-9)), -8, 8);
  double m = v / std::pow(1000.0, p3);
  // 999.7 rounds to 1,000: that is the next prefix.
  if (!plain && std::fabs(std::stod(QString::number(m, 'g', 3).toStdString())) >= 1000 && p3 < 8) {
    ++p3;
    m = v / std::pow(1000.0, p3);
  }
  const QString prefix = QString::fromUtf8(prefixes[p3 + 8]);
  QString text = shortNumber(m);
  if (!prefix.isEmpty() || !unit.isEmpty()) text += space + prefix + unit;
  return text;
}

QString oneInTickLabel(double ratio) {
  if (!(ratio > 0) || !std::isfinite(ratio)) return ratio == 0 ? QStringLiteral("0") : QString();
  if (ratio >= 0.01) return siTickLabel(ratio);
  const double n = 1 / ratio;
  static const char* const words[] = {"million", "billion", "trillion", "quadrillion", "quintillion"};
  int k = n >= 1e6 ? std::clamp(static_cast<int>(std::floor(std::log10(n * 1.0005) / 3)) - 2, 0, 4) : -1;
  if (k < 0) return QObject::tr("1 in %1").arg(siTickLabel(n));
  return QObject::tr("1 in %1 %2").arg(siTickLabel(n / std::pow(10.0, 6 + 3 * k)), QString::fromLatin1(words[k]));
}

void useOneInLogAxis(QCPAxis* axis) {
  axis->setScaleType(QCPAxis::stLogarithmic);
  QSharedPointer<QCPAxisTickerLog> ticker(new SiLogTicker({}, 1, SiLogTicker::Style::OneIn));
  ticker->setLogBase(10);
  ticker->setSubTickCount(8);
  axis->setTicker(ticker);
}

QString digitsTickLabel(double ratio) {
  if (!(ratio > 0) || !std::isfinite(ratio)) return {};
  if (ratio > 1.0001) return {};
  return QString::number(std::max(0L, std::lround(-std::log10(ratio))));
}

void useDigitsLogAxis(QCPAxis* axis) {
  axis->setScaleType(QCPAxis::stLogarithmic);
  QSharedPointer<QCPAxisTickerLog> ticker(new SiLogTicker({}, 1, SiLogTicker::Style::Digits));
  ticker->setLogBase(10);
  ticker->setSubTickCount(0);
  axis->setTicker(ticker);
}

void useLogAxis(QCPAxis* axis, const QString& unit, double scale) {
  axis->setScaleType(QCPAxis::stLogarithmic);
  QSharedPointer<QCPAxisTickerLog> ticker(new SiLogTicker(unit, scale));
  ticker->setLogBase(10);
  ticker->setSubTickCount(8);
  axis->setTicker(ticker);
}

void useLogAxis(QCustomPlot* plot, bool xAxis, const QString& unit, double scale) {
  useLogAxis(xAxis ? plot->xAxis : plot->yAxis, unit, scale);
}

void useSiAxis(QCPAxis* axis, const QString& unit, double scale) {
  axis->setScaleType(QCPAxis::stLinear);
  axis->setTicker(QSharedPointer<QCPAxisTicker>(new SiLinearTicker(unit, scale)));
}
