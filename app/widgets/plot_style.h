#pragma once
// One look for every QCustomPlot: theme colours, fonts and line widths; measured = solid marks, datasheet =
// dashed lines, model = thin dotted lines. Include this (and qcustomplot.h) only in .cpp files.
#include "theme.h"

#include <QPen>

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
// Log axis with SI tick labels ("1 G", "10 T") on the given axis (x: true = xAxis, false = yAxis).
void useLogAxis(QCustomPlot* plot, bool xAxis);
