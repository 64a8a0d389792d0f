#pragma once
// One look for every QCustomPlot: theme colours, fonts and line widths; measured = solid marks, datasheet =
// dashed lines, model = thin dotted lines. Include this (and qcustomplot.h) only in .cpp files.
#include "theme.h"

#include <QPen>

class QCPGraph;
class QCustomPlot;

enum class SeriesKind { Measured, Recorded, Datasheet, Model };

void stylePlot(QCustomPlot* plot, const Theme& theme);
// The pen for a series of this kind in this colour (width from the theme).
QPen seriesPen(const Theme& theme, const QColor& color, SeriesKind kind);
// Line + scatter style for a graph of this kind.
void styleGraph(QCPGraph* graph, const Theme& theme, const QColor& color, SeriesKind kind);
// Log axis with SI tick labels ("1 G", "10 T") on the given axis (x: true = xAxis, false = yAxis).
void useLogAxis(QCustomPlot* plot, bool xAxis);
