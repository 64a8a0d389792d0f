#pragma once
// How a page shows that its numbers are noisy: min–max error bars on measured marks, and the busy-machine
// warning line (its words come from models/busy_machine). Kept out of the pages so each draws them the same way.
#include "models/busy_machine.h"

#include <QColor>
#include <QString>
#include <QVector>

class QCPAbstractPlottable;
class QCPErrorBars;
class QCustomPlot;
class QCPItemLine;
struct Theme;

// Error bars on `target`'s values: each point spans low[i] … high[i] around values[i] (same order as the data
// was added). Points without a spread (low = high = value) get none drawn. Returns the bars (owned by the plot).
QCPErrorBars* addSpreadBars(QCPAbstractPlottable* target, const QVector<double>& values, const QVector<double>& low,
                            const QVector<double>& high, const QColor& color);
// The same on bars made before (a redraw that keeps its plot objects): new data, target and colour.
void setSpreadBars(QCPErrorBars* bars, QCPAbstractPlottable* target, const QVector<double>& values,
                   const QVector<double>& low, const QVector<double>& high, const QColor& color);

// A horizontal whisker (|—|) at `y` from `xLow` to `xHigh`: a bar chart's spread, drawn as an item so it
// follows the value axis even where the bars start at a log axis' floor.
void addWhisker(QCustomPlot* plot, double y, double xLow, double xHigh, const QColor& color);
// The same on a line item made before (a redraw that keeps its plot objects).
void setWhisker(QCPItemLine* whisker, double y, double xLow, double xHigh, const QColor& color);

// The warning as rich text in the theme's warning colour; empty when the machine was quiet.
QString busyWarningHtml(const gpulab::models::BusyWatch& watch, const Theme& theme);
