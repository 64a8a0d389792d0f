#pragma once
// A word-wrapped readout that keeps the tallest height it has needed at a width. A readout under a chart whose
// text changes with a slider (Amdahl's "19.9× with 4,096 workers …") wrapped to one line or two as the value
// moved, and each change resized the chart above it: a relayout and new paint buffers for the plot on every
// other value. Growing is still immediate; it gives the room back when the font or the width changes.
#include <QEvent>
#include <QHash>
#include <QLabel>

#include <algorithm>

class SteadyLabel : public QLabel {
 public:
  using QLabel::QLabel;

  int heightForWidth(int width) const override {
    int h = QLabel::heightForWidth(width);
    if (m_tallest.size() > 32) m_tallest.clear();  // a window dragged through many widths
    int& tallest = m_tallest[width];
    tallest = std::max(tallest, h);
    return tallest;
  }

 protected:
  void changeEvent(QEvent* event) override {
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) m_tallest.clear();
    QLabel::changeEvent(event);
  }

 private:
  mutable QHash<int, int> m_tallest;  // width -> the tallest height needed at it
};
