#pragma once
// The PCIe page's second chart: what one generated token costs, one bar per case (all weights in the card's memory,
// the rest streamed over the link by the datasheet, and by the link measured here or recorded), on a log axis of
// seconds, each bar with its time, rate and what it read. The page works out the rows; this draws them.
#include "theme.h"

#include <QString>
#include <QVector>

class QCPBars;
class QCPItemText;
class QCustomPlot;

class PcieTokenView {
 public:
  struct Row {
    QString label;   // the case, on the axis ("rest over PCIe\n(datasheet 32 GB/s)")
    double seconds = 0;
    QString detail;  // what it read or streamed, under its time
  };

  PcieTokenView();  // makes the chart; whoever lays it out owns it (Qt parenting)
  QCustomPlot* plot() const { return m_plot; }

  // Draws these rows (none: an empty chart). The bars and the row texts are made once (a text per row the chart has
  // ever shown) and moved after that.
  void show(const QVector<Row>& rows, const Theme& theme);
  QString csv() const;  // case, seconds per token, tokens per second, detail

 private:
  void keepTextsInside();  // widens the log axis until the longest row text ends inside the plot

  QCustomPlot* m_plot = nullptr;
  QCPBars* m_bars = nullptr;
  QVector<QCPItemText*> m_texts;
  QVector<Row> m_rows;
};
