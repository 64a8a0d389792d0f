#pragma once
// The plot objects of a redraw kept for the next one. A page that draws a chart from its state asks for each bar
// set and text item by a role ("bytes/bar/3", "speed/label/7"); a redraw gets the object the last one made for
// that role, made visible and emptied of data, and sets it up as before. Only a role the last redraw did not have
// makes an object, and a role this redraw did not ask for is removed at end(). So a result or a slider value costs
// data updates, not a clear-and-remake of every graph, bar, item and legend key (issue 24; FrameWorkMeter counts
// the objects made). Include qcustomplot.h before this header.
#include "widgets/onscreen_hint.h"

#include <QHash>
#include <QPointer>
#include <QSet>
#include <QString>

#include <type_traits>
#include <utility>

class PlotObjectPool {
 public:
  explicit PlotObjectPool(QCustomPlot* plot) : m_plot(plot) {}

  // Items a redraw did not ask for that end() keeps, hidden, for a later redraw.
  static constexpr int kKeptHiddenItems = 64;

  // A redraw starts: every kept object is free to be asked for again.
  void begin() { m_asked.clear(); }

  // The bar set of `role` on these axes (made anew when the last one sat on other axes), with no data.
  QCPBars* bars(const QString& role, QCPAxis* keyAxis, QCPAxis* valueAxis) {
    m_asked.insert(role);
    QPointer<QCPAbstractPlottable>& kept = m_plottables[role];
    auto* b = qobject_cast<QCPBars*>(kept.data());
    if (b && (b->keyAxis() != keyAxis || b->valueAxis() != valueAxis)) {
      m_plot->removePlottable(b);
      b = nullptr;
    }
    if (!b) {
      b = new QCPBars(keyAxis, valueAxis);
      kept = b;
      ++m_made;
    } else {
      b->data()->clear();
      b->setVisible(true);
    }
    return b;
  }

  // The graph of `role` on the plot's own axes, with no data.
  QCPGraph* graph(const QString& role) {
    m_asked.insert(role);
    QPointer<QCPAbstractPlottable>& kept = m_plottables[role];
    auto* g = qobject_cast<QCPGraph*>(kept.data());
    if (!g) {
      if (kept) m_plot->removePlottable(kept.data());
      g = m_plot->addGraph();
      kept = g;
      ++m_made;
    } else {
      g->data()->clear();
      g->setVisible(true);
    }
    return g;
  }

  // The item of `role`, visible, not marked as an on-screen hint; a text item's text alignment back to its
  // default (crowded_labels flips it). Everything else is the caller's to set, every redraw.
  template <typename Item>
  Item* item(const QString& role) {
    m_asked.insert(role);
    QPointer<QCPAbstractItem>& kept = m_items[role];
    auto* it = qobject_cast<Item*>(kept.data());
    if (!it) {
      if (kept) m_plot->removeItem(kept.data());
      it = new Item(m_plot);
      kept = it;
      ++m_made;
      return it;
    }
    it->setVisible(true);
    if (isMarkedOnScreenHint(it)) it->setProperty(kOnScreenHintProperty, false);
    if constexpr (std::is_same_v<Item, QCPItemText>) it->setTextAlignment(Qt::AlignTop | Qt::AlignHCenter);
    return it;
  }
  QCPItemText* text(const QString& role) { return item<QCPItemText>(role); }

  // The redraw is done: plottables of roles it did not ask for go. Items (labels, notes, whiskers) it did not ask
  // for are hidden and kept for the next redraw that asks for them: a size slider dragged between sizes with five
  // bars and sizes with none made and deleted them on every other value. Past kKeptHiddenItems hidden ones, the
  // rest go.
  void end() {
    int hidden = 0;
    for (auto it = m_items.begin(); it != m_items.end();) {
      const bool asked = m_asked.contains(it.key());
      if (!it.value() || (!asked && ++hidden > kKeptHiddenItems)) {
        if (it.value()) m_plot->removeItem(it.value().data());
        it = m_items.erase(it);
      } else {
        if (!asked) it.value()->setVisible(false);
        ++it;
      }
    }
    for (auto it = m_plottables.begin(); it != m_plottables.end();) {
      if (!m_asked.contains(it.key()) || !it.value()) {
        if (it.value()) m_plot->removePlottable(it.value().data());
        it = m_plottables.erase(it);
      } else {
        ++it;
      }
    }
  }

  // Every kept object goes (the axes they sit on are about to).
  void clear() {
    for (const QPointer<QCPAbstractItem>& i : std::as_const(m_items))
      if (i) m_plot->removeItem(i.data());
    for (const QPointer<QCPAbstractPlottable>& p : std::as_const(m_plottables))
      if (p) m_plot->removePlottable(p.data());
    m_items.clear();
    m_plottables.clear();
    m_asked.clear();
  }

  // Objects made since the pool began (for tests and bench-gui's curiosity).
  int made() const { return m_made; }

 private:
  QCustomPlot* m_plot;
  QHash<QString, QPointer<QCPAbstractItem>> m_items;
  QHash<QString, QPointer<QCPAbstractPlottable>> m_plottables;
  QSet<QString> m_asked;
  int m_made = 0;
};
