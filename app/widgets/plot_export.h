#pragma once
// What a page offers for slides and CSV: its own header, so the export code and the widgets that build exports
// need not include the page base class.
#include <QSize>
#include <QString>

#include <functional>

class QCustomPlot;
class QWidget;

// Something on a page that can be exported for slides: a QCustomPlot, or any widget (an animation) rendered.
struct PlotExport {
  QString id;          // short, file-name safe: "gflops", "roofline"
  QString title;       // shown in menus and written into the export
  QCustomPlot* plot = nullptr;  // preferred: exported as vector SVG/PDF
  QWidget* widget = nullptr;    // otherwise: rendered (PNG; SVG/PDF through QSvgGenerator / QPdfWriter)
  std::function<QString()> csv;  // the data behind it, as CSV with a header row and units; may be empty
  // Optional: lay the plot out for an export of this size before it is drawn (ranges that depend on the
  // width, such as room for bar labels), and for the screen again when called with an empty size.
  std::function<void(const QSize&)> layoutFor = {};
};
