#pragma once
// One look for every QCustomPlot: theme colours, fonts and line widths; measured = solid marks, datasheet =
// dashed lines, model = thin dotted lines. Include this (and qcustomplot.h) only in .cpp files.
#include "theme.h"

#include <QPen>
#include <QString>

class QCPAxis;
class QCPGraph;
class QCustomPlot;

enum class SeriesKind { Measured, Recorded, Datasheet, Model };

void stylePlot(QCustomPlot* plot, const Theme& theme);
// Legends are smaller than the axis text so they hide less of the data: plotFontPt - 1 on a screen,
// plotFontPt - 4 (never under 16 pt) on a projector. stylePlot() gives every legend this size.
int legendFontPt(const Theme& theme);
// Moves the plot's legend out of the axis rect into a row above it, `columns` entries a row: for small plots
// where any corner of the data area would hide a curve. Safe to call again (it moves the legend once).
void placeLegendAbove(QCustomPlot* plot, int columns);
// The pen for a series of this kind in this colour (width from the theme).
QPen seriesPen(const Theme& theme, const QColor& color, SeriesKind kind);
// Line + scatter style for a graph of this kind.
void styleGraph(QCPGraph* graph, const Theme& theme, const QColor& color, SeriesKind kind);
// Tick labels a class reads aloud, in SI units: "100 TFLOP/s", "3.35 TB/s", "1 GB", "10 ms" — never 10^14 or 1e9.
// `unit` follows the prefix; without one a label is a plain number ("0.01", "250", "10,000"), with k, M, G … only
// from a million up. `scale` turns the plotted value into that unit (a plot of GFLOP/s: scale 1e9, unit "FLOP/s").
QString siTickLabel(double value, const QString& unit = {}, double scale = 1);
// Log axis (decades) with SI tick labels on the given axis (x: true = xAxis, false = yAxis), or on any axis.
void useLogAxis(QCustomPlot* plot, bool xAxis, const QString& unit = {}, double scale = 1);
void useLogAxis(QCPAxis* axis, const QString& unit = {}, double scale = 1);
// Log axis for small ratios (relative errors), labelled as a class says them: "0.1", "1 in 1,000",
// "1 in 10 million", "1 in 10 quadrillion".
QString oneInTickLabel(double ratio);
void useOneInLogAxis(QCPAxis* axis);
// Log axis of relative errors in a narrow panel, labelled in correct decimal digits: 1e-7 -> "7" (FP32 keeps
// about 7), 1e-3 -> "3"; ratios of 1 and more (no digit right) -> "0" and nothing beyond.
QString digitsTickLabel(double ratio);
void useDigitsLogAxis(QCPAxis* axis);
// Linear axis with SI tick labels (QCustomPlot's usual tick spacing).
void useSiAxis(QCPAxis* axis, const QString& unit = {}, double scale = 1);
