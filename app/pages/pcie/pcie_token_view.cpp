#include "pages/pcie/pcie_token_view.h"

#include "format.h"
#include "qcustomplot.h"
#include "widgets/plot_style.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace {
QString tr(const char* s) { return QCoreApplication::translate("PcieTokenView", s); }
}  // namespace

PcieTokenView::PcieTokenView() : m_plot(new QCustomPlot) {
  m_plot->setToolTip(tr("Seconds per generated token for the chosen model, format and card: all weights in the "
                        "card's memory (HBM or GDDR, as the card has) versus the part that does not fit streamed "
                        "over PCIe every token"));
  useLogAxis(m_plot, true, QStringLiteral("s"));
  m_plot->xAxis->setLabel(tr("time per token (log)"));
}

void PcieTokenView::show(const QVector<Row>& rows, const Theme& t) {
  m_rows = rows;
  if (!m_bars) {
    m_bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_bars->setWidth(0.6);
    m_bars->setBaseValue(1e-4);
  }
  while (m_texts.size() < rows.size()) {
    auto* txt = new QCPItemText(m_plot);
    txt->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    txt->setPadding(QMargins(6, 0, 0, 0));
    txt->setTextAlignment(Qt::AlignLeft);
    m_texts << txt;
  }
  m_bars->data()->clear();
  QSharedPointer<QCPAxisTickerText> ticker = m_plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
  if (!ticker) {
    ticker.reset(new QCPAxisTickerText);
    m_plot->yAxis->setTicker(ticker);
  }
  ticker->clear();
  double maxS = 0;
  for (int i = 0; i < m_texts.size(); ++i) m_texts[i]->setVisible(i < rows.size());
  for (int i = 0; i < rows.size(); ++i) {
    m_bars->addData(i + 1, rows[i].seconds);
    ticker->addTick(i + 1, rows[i].label);
    maxS = std::max(maxS, rows[i].seconds);
    QCPItemText* txt = m_texts[i];
    txt->position->setCoords(rows[i].seconds, i + 1);
    // The detail (bytes read or streamed) on a second line, so the text stays inside the plot.
    txt->setText(tr("%1/token = %2 tokens/s\n%3")
                     .arg(fmtSeconds(rows[i].seconds), fmtSi(1.0 / rows[i].seconds, "", 3).trimmed(), rows[i].detail));
    txt->setFont(QFont(QStringLiteral("DejaVu Sans"), legendFontPt(t)));
    txt->setColor(t.text);
  }
  m_bars->setPen(QPen(t.memory.darker(130)));
  m_bars->setBrush(t.memory);
  m_plot->yAxis->setRange(0.4, rows.size() + 0.6);
  m_plot->yAxis->setRangeReversed(true);
  m_plot->xAxis->setRange(1e-3, std::max(1.0, maxS * 200));
  stylePlot(m_plot, t);
  m_plot->replot();
  if (!rows.isEmpty()) keepTextsInside();
}

void PcieTokenView::keepTextsInside() {
  // With the projector's fonts (or a narrow plot) the log axis is widened by the decades the longest text
  // overflows.
  double overflowPx = 0;
  for (const QCPItemText* txt : m_texts)
    if (txt->visible()) overflowPx = std::max(overflowPx, txt->right->pixelPosition().x() - m_plot->axisRect()->right());
  const QCPRange range = m_plot->xAxis->range();
  const double pxPerDecade = m_plot->axisRect()->width() / std::log10(range.upper / range.lower);
  if (overflowPx > 0 && pxPerDecade > 0) {
    // Widening squeezes every decade, so ask for the overflow at the squeezed scale, plus a margin.
    const double decades = std::log10(range.upper / range.lower);
    const double textDecades = overflowPx / pxPerDecade;
    const double grow = textDecades * decades / std::max(1.0, decades - textDecades) * 1.15;
    m_plot->xAxis->setRange(range.lower, range.upper * std::pow(10.0, grow));
    m_plot->replot();
  }
}

QString PcieTokenView::csv() const {
  QString out = QStringLiteral("case,seconds_per_token,tokens_per_s,detail\n");
  for (const Row& r : m_rows)
    out += QStringLiteral("\"%1\",%2,%3,\"%4\"\n")
               .arg(QString(r.label).replace(QLatin1Char('\n'), QLatin1Char(' ')))
               .arg(r.seconds, 0, 'g', 6)
               .arg(1.0 / r.seconds, 0, 'g', 6)
               .arg(r.detail);
  return out;
}
