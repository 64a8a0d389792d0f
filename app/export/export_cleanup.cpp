#include "export/export_cleanup.h"

#include "widgets/onscreen_hint.h"

#include "qcustomplot.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QRegularExpression>

bool looksLikeKeyHint(const QString& text) {
  // The app's hints name the key or the button to press; a slide never should.
  static const QRegularExpression re(QStringLiteral("\\((Space|F5|Ctrl\\+[A-Z])\\)|\\bpress (Run|Measure)"),
                                     QRegularExpression::CaseInsensitiveOption);
  return re.match(text).hasMatch();
}

namespace {

bool plottableHasData(QCPAbstractPlottable* p) {
  if (!p->visible()) return false;
  if (QCPPlottableInterface1D* one = p->interface1D()) return one->dataCount() > 0;
  if (auto* map = qobject_cast<QCPColorMap*>(p)) return map->data()->keySize() > 0 && map->data()->valueSize() > 0;
  return true;  // a kind of plottable we cannot ask: assume it draws something
}

bool isHintItem(QCPAbstractItem* item) {
  if (isMarkedOnScreenHint(item)) return true;
  auto* text = qobject_cast<QCPItemText*>(item);
  return text && looksLikeKeyHint(text->text());
}

}  // namespace

QString emptyPlotReason(const PlotExport& plot) {
  if (!plot.plot) {
    if (!plot.widget) return QObject::tr("there is neither a plot nor a widget to draw");
    // A table (or list) without rows would be a slide of column headers.
    if (const auto* view = qobject_cast<const QAbstractItemView*>(plot.widget);
        view && (!view->model() || view->model()->rowCount() == 0))
      return QObject::tr("the table has no rows yet: run the page's experiment, or open a recording");
    // A custom-painted widget that would draw only its on-screen hint ("press Run …") says so.
    return hasNothingToShow(plot.widget) ? QObject::tr("nothing to show yet: run the page's experiment, or open a recording")
                                         : QString();
  }
  QCustomPlot* p = plot.plot;
  for (int i = 0; i < p->plottableCount(); ++i)
    if (plottableHasData(p->plottable(i))) return {};
  // Lines, rectangles and curves (a datasheet ceiling drawn as an item) are content; text alone (notes, hints,
  // "waiting…") is not.
  for (int i = 0; i < p->itemCount(); ++i) {
    QCPAbstractItem* item = p->item(i);
    if (!item->visible() || isHintItem(item) || qobject_cast<QCPItemText*>(item)) continue;
    return {};
  }
  return QObject::tr("no series has any data yet: run the page's experiment, or open a recording");
}

ExportCleanScope::ExportCleanScope(const PlotExport& plot) : m_plot(plot.plot), m_widget(plot.widget) {
  if (m_widget) m_widget->setProperty(kExportingProperty, true);  // custom-painted widgets leave hints out
  if (!m_plot) return;
  for (int i = 0; i < m_plot->itemCount(); ++i) {
    QCPAbstractItem* item = m_plot->item(i);
    if (item->visible() && isHintItem(item)) {
      item->setVisible(false);
      m_hidden << item;
    }
  }
  // A legend entry for a series with no data is a promise the slide does not keep.
  QCPLegend* legend = m_plot->legend;
  if (legend) {
    for (int i = 0; i < m_plot->plottableCount(); ++i) {
      QCPAbstractPlottable* p = m_plot->plottable(i);
      if (plottableHasData(p)) continue;
      if (QCPPlottableLegendItem* li = legend->itemWithPlottable(p); li && li->visible()) {
        m_hiddenLegendItems << qMakePair(static_cast<QObject*>(li), true);
        li->setVisible(false);
      }
    }
    // Invisible legend items would still take their cell: take them out of the grid for the export.
    if (!m_hiddenLegendItems.isEmpty()) {
      QList<QCPLayoutElement*> order;
      for (int i = 0; i < legend->elementCount(); ++i)
        if (QCPLayoutElement* el = legend->elementAt(i)) order << el;
      m_order = order;
      for (QCPLayoutElement* el : order) legend->take(el);
      legend->simplify();
      for (QCPLayoutElement* el : order)
        if (el->visible()) legend->addElement(el);
    }
  }
}

ExportCleanScope::~ExportCleanScope() {
  if (m_widget) m_widget->setProperty(kExportingProperty, QVariant());
  if (!m_plot) return;
  for (QCPAbstractItem* item : m_hidden)
    if (m_plot->hasItem(item)) item->setVisible(true);
  if (QCPLegend* legend = m_plot->legend; legend && !m_order.isEmpty()) {
    // Only the entries shown during the export are in the legend now; the hidden ones were never put back.
    for (QCPLayoutElement* el : m_order)
      if (el->layout() == legend) legend->take(el);
    legend->simplify();
    for (const auto& [obj, visible] : m_hiddenLegendItems)
      if (auto* li = qobject_cast<QCPAbstractLegendItem*>(obj)) li->setVisible(visible);
    for (QCPLayoutElement* el : m_order) legend->addElement(el);
  }
}
