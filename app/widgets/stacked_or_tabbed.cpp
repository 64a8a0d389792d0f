#include "widgets/stacked_or_tabbed.h"

#include <QTabBar>

#include <algorithm>

StackedOrTabbed::StackedOrTabbed(QWidget* top, QWidget* bottom, const QString& topName, const QString& bottomName,
                                 int topShare, int bottomShare, QWidget* parent)
    : QWidget(parent), m_top(top), m_bottom(bottom), m_topShare(topShare), m_bottomShare(bottomShare) {
  m_tabs = new QTabBar(this);
  m_tabs->addTab(topName);
  m_tabs->addTab(bottomName);
  m_tabs->setExpanding(false);
  m_tabs->setToolTip(tr("On a small screen the two views take turns: each gets the whole height"));
  m_tabs->hide();
  top->setParent(this);
  bottom->setParent(this);
  connect(m_tabs, &QTabBar::currentChanged, this, [this] { relayout(); });
}

// The size each view needs along the stacking direction.
int StackedOrTabbed::topMin() const {
  if (m_topMinimum > 0) return m_topMinimum;
  return m_orientation == Qt::Vertical ? std::max(m_top->minimumSizeHint().height(), m_top->minimumHeight())
                                       : m_top->minimumWidth();
}
int StackedOrTabbed::bottomMin() const {
  if (m_bottomMinimum > 0) return m_bottomMinimum;
  return m_orientation == Qt::Vertical ? m_bottom->minimumHeight() : m_bottom->minimumWidth();
}

void StackedOrTabbed::setViewMinimums(int top, int bottom) {
  m_topMinimum = top;
  m_bottomMinimum = bottom;
  updateGeometry();
  relayout();
}

void StackedOrTabbed::setShares(int topShare, int bottomShare) {
  if (topShare == m_topShare && bottomShare == m_bottomShare) return;
  m_topShare = topShare;
  m_bottomShare = bottomShare;
  relayout();
}

void StackedOrTabbed::setOrientation(Qt::Orientation o) {
  m_orientation = o;
  updateGeometry();
  relayout();
}

QSize StackedOrTabbed::minimumSizeHint() const {
  if (m_orientation == Qt::Horizontal) {
    const int h = std::max(m_top->minimumSizeHint().height(), m_bottom->minimumSizeHint().height());
    return {std::max(topMin(), bottomMin()), m_tabs->sizeHint().height() + h};
  }
  // The top view's width as a layout would take it: its own minimum width when it has one, which overrides its
  // hint (a plot's hint includes its key's one-row width: 747 px on a 1024x768 projector, which pushed the window
  // past the screen's edge), else its hint.
  const int topW = m_top->minimumWidth() > 0 ? m_top->minimumWidth() : m_top->minimumSizeHint().width();
  const int w = std::max(topW, m_bottom->minimumWidth());
  // Behind tabs a view may be shorter than its side-by-side minimum: never ask the page for more than a readable
  // chart's 200 px, or a page with a tall strip (two recordings' sentences) cut the chart's foot off instead.
  return {w, m_tabs->sizeHint().height() + std::min(200, std::max(topMin(), bottomMin()))};
}

QSize StackedOrTabbed::sizeHint() const {
  if (m_orientation == Qt::Horizontal) return {topMin() + bottomMin() + kGap + 120, 520};
  return {760, topMin() + bottomMin() + kGap + 120};
}

void StackedOrTabbed::showBottom(bool bottom) { m_tabs->setCurrentIndex(bottom ? 1 : 0); }

void StackedOrTabbed::relayout() {
  const int W = width(), H = height(), t = topMin(), b = bottomMin();
  const bool vertical = m_orientation == Qt::Vertical;
  const int room = vertical ? H : W;
  m_tabbed = room < t + b + kGap;
  m_tabs->setVisible(m_tabbed);
  if (!m_tabbed) {
    int ht = std::max(t, (room - kGap) * m_topShare / (m_topShare + m_bottomShare));
    int hb = room - kGap - ht;
    if (hb < b) {
      hb = b;
      ht = room - kGap - hb;
    }
    if (vertical) {
      m_top->setGeometry(0, 0, W, ht);
      m_bottom->setGeometry(0, ht + kGap, W, hb);
    } else {
      m_top->setGeometry(0, 0, ht, H);
      m_bottom->setGeometry(ht + kGap, 0, hb, H);
    }
    m_top->show();
    m_bottom->show();
    return;
  }
  const int th = m_tabs->sizeHint().height();
  m_tabs->setGeometry(0, 0, W, th);
  const bool bottom = m_tabs->currentIndex() == 1;
  QWidget* on = bottom ? m_bottom : m_top;
  (bottom ? m_top : m_bottom)->hide();
  on->setGeometry(0, th, W, std::max(0, H - th));
  on->show();
}
