#pragma once
// What an export leaves out, and when there is nothing to export at all. A slide shows what was measured,
// recorded, published or modelled, never the screen's instructions: on-screen hints (widgets/onscreen_hint.h,
// or any plot text that names a key to press) are hidden for the export, and so are legend entries of series
// without data ("measured here (press Run sweep)" before a sweep). A plot whose series are all empty is not
// exported: emptyPlotReason() says why. qcustomplot.h stays in the .cpp.
#include "pages/page.h"

#include <QList>
#include <QPointer>
#include <QString>

class QCPAbstractItem;
class QCPAbstractLegendItem;
class QCPLayoutElement;
class QCustomPlot;

// True for text that tells the viewer what to press: "(Space)", "press Run", "Press Run sweep"…
bool looksLikeKeyHint(const QString& text);

// Empty when the plot has something to show; otherwise a reason for the person exporting ("no series has any
// data yet: run the page's experiment or open a recording"). A widget has something unless it says otherwise
// (setNothingToShow, widgets/onscreen_hint.h) or is a table without rows.
QString emptyPlotReason(const PlotExport& plot);

// For its lifetime: hints hidden, legend entries of empty series removed from the legend (put back after).
class ExportCleanScope {
 public:
  explicit ExportCleanScope(const PlotExport& plot);
  ~ExportCleanScope();
  ExportCleanScope(const ExportCleanScope&) = delete;
  ExportCleanScope& operator=(const ExportCleanScope&) = delete;

 private:
  QPointer<QCustomPlot> m_plot;
  QList<QCPAbstractItem*> m_hidden;
  QList<QPair<QObject*, bool>> m_hiddenLegendItems;  // legend items made invisible, with their old visibility
  QList<QCPLayoutElement*> m_order;              // the legend's items in their order before the export
  QPointer<QWidget> m_widget;
};
