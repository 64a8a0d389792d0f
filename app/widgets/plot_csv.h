#pragma once
// The CSV behind a plot, written from what the plot draws, so it cannot leave a series out: every graph with
// points, each row with the graph's legend name, its source and its error bars' range. A page tags each graph
// with its source once (tagSource); the check seriesMissingFromCsv() is what the tests hold every CSV to.
#include <QString>
#include <QStringList>

class QCustomPlot;
class QCPAbstractPlottable;

// "measured here", "recorded on …", "datasheet", "model": stored on the plottable, read by plotSeriesCsv().
void tagSource(QCPAbstractPlottable* plottable, const QString& source);
QString sourceTag(const QCPAbstractPlottable* plottable);

// series,source,<x>,<y>,<y>_low,<y>_high for every point of every named graph with data (QCPGraph); a graph
// with no source tag says "untagged" so a test catches it.
QString plotSeriesCsv(QCustomPlot* plot, const QString& xName, const QString& yName);

// The legend names of `plot`'s plottables that have data but appear in no field of `csv`.
QStringList seriesMissingFromCsv(QCustomPlot* plot, const QString& csv);
