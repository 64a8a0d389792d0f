#pragma once
// A legend drawn inside the data area must not hide the data: after a replot, this moves it to the corner of the
// axis rect where it covers the fewest marks (graph points and bar tops), then lines and text items. Include
// qcustomplot.h only in .cpp files.
#include <Qt>
#include <QList>
#include <QVector>

class QCustomPlot;

// Tries `corners` in order (the first wins a tie) and replots once more only when the legend moved. Call it after
// the plot's own replot(), so the layout and the legend's size are current. Returns what the legend still hides
// where it now is: 10 or more means a mark or a label (a point of a line counts 1); 0 when nothing.
double moveLegendOffData(QCustomPlot* plot, const QList<Qt::Alignment>& corners = {Qt::AlignTop | Qt::AlignLeft,
                                                                                 Qt::AlignTop | Qt::AlignRight,
                                                                                 Qt::AlignBottom | Qt::AlignRight,
                                                                                 Qt::AlignBottom | Qt::AlignLeft});

// The legend in a row above the chart (placeLegendAbove) with as many keys to a row as the plot's width holds,
// recounted whenever the plot is resized: a chart behind a tab is laid out at its real width only once shown.
void placeLegendAboveFitting(QCustomPlot* plot);
// True once the legend sits in a row above the chart (placeLegendAbove): call placeLegendAboveFitting again after
// adding keys, so they are laid out in the current number of columns.
bool legendIsAbove(QCustomPlot* plot);

// The width of keys `widths` (each key's own: icon, padding and text) laid out `columns` to a row, filling rows
// first (key i in column i % columns): each column as wide as its widest key. Spacing and margins not included.
int keyColumnsWidth(const QVector<int>& widths, int columns);
