#pragma once
// The pages, one shown at a time, sized by the page shown only.
//
// Why not QStackedWidget: its QStackedLayout sizes the stack by every page it holds, and Qt's layouts ask a widget
// that has a layout for its height-for-width through that layout, past any override. Each relayout of the window (a
// label on the shown page changing its text is enough) asked all fifteen pages for their height at the window's
// width, and every word-wrapped label on every hidden page was shaped again: 20–55 ms on the GUI thread per result
// during a run, measured with `gpulab bench-gui --stalls` under `perf record -k CLOCK_MONOTONIC`. A hidden page's
// size cannot matter to the window, so this stack has no layout: it asks the page being shown, gives that page its
// whole rectangle, and tells its own parent to relayout when the page changes or asks for it.
#include <QEvent>
#include <algorithm>
#include <QVector>
#include <QWidget>
#include <QWidgetItem>

class PageStack : public QWidget {
 public:
  explicit PageStack(QWidget* parent = nullptr) : QWidget(parent) {}

  int addWidget(QWidget* page) {
    page->setParent(this);
    page->hide();
    m_pages.push_back(page);
    if (m_current < 0) setCurrentIndex(0);
    return int(m_pages.size()) - 1;
  }
  void removeWidget(QWidget* page) {
    const int i = int(m_pages.indexOf(page));
    if (i < 0) return;
    m_pages.remove(i);
    page->hide();
    if (i < m_current) --m_current;
    else if (i == m_current) {
      m_current = -1;
      if (!m_pages.isEmpty()) setCurrentIndex(std::min(i, int(m_pages.size()) - 1));
    }
    updateGeometry();
  }
  int count() const { return int(m_pages.size()); }
  int currentIndex() const { return m_current; }
  QWidget* currentWidget() const { return m_current >= 0 ? m_pages[m_current] : nullptr; }
  void setCurrentIndex(int index) {
    if (index < 0 || index >= m_pages.size() || index == m_current) return;
    QWidget* before = currentWidget();
    m_current = index;
    QWidget* page = m_pages[index];
    page->setGeometry(rect());
    page->show();
    if (before) before->hide();
    updateGeometry();
  }

  // Through a QWidgetItem, as a layout would ask the page: its own minimum and maximum size and its size policy
  // count, not only its hints.
  QSize sizeHint() const override { return shown() ? QWidgetItem(shown()).sizeHint() : QSize(); }
  QSize minimumSizeHint() const override { return shown() ? QWidgetItem(shown()).minimumSize() : QSize(); }
  bool hasHeightForWidth() const override { return shown() && QWidgetItem(shown()).hasHeightForWidth(); }
  int heightForWidth(int width) const override { return shown() ? QWidgetItem(shown()).heightForWidth(width) : -1; }

 protected:
  void resizeEvent(QResizeEvent* event) override {
    if (QWidget* page = currentWidget()) page->setGeometry(rect());
    QWidget::resizeEvent(event);
  }
  bool event(QEvent* event) override {
    // A page whose hints changed posts this to its parent (there is no layout here to take it): pass it on.
    if (event->type() == QEvent::LayoutRequest) updateGeometry();
    return QWidget::event(event);
  }

 private:
  QWidget* shown() const { return currentWidget(); }

  QVector<QWidget*> m_pages;
  int m_current = -1;
};
