#pragma once
// Two views of a page, one above the other (or side by side) when the page is tall (or wide) enough for both at
// their minimum sizes; otherwise (a projector at 1366×768) one at a time behind two tabs, each with the whole
// space, rather than both squashed with their labels written over each other. Used by the PCIe, memory and
// many-GPUs pages.
#include <QWidget>

class QTabBar;

class StackedOrTabbed : public QWidget {
  Q_OBJECT
 public:
  // `topShare`:`bottomShare` splits the height when both are shown (each at least its minimum height).
  StackedOrTabbed(QWidget* top, QWidget* bottom, const QString& topName, const QString& bottomName,
                  int topShare = 3, int bottomShare = 2, QWidget* parent = nullptr);
  // Qt::Horizontal: `top` on the left, `bottom` on the right, by their minimum widths.
  void setOrientation(Qt::Orientation o);
  bool tabbed() const { return m_tabbed; }
  QTabBar* tabs() const { return m_tabs; }
  // The size each view needs beside the other (along the stacking direction), set here rather than as the
  // views' own minimum sizes: behind tabs a view alone gets all the room there is, even below that size (a
  // widget's own minimum would hold it taller than its pane and cut its foot off). 0: the view's own minimum.
  void setViewMinimums(int top, int bottom);
  // How the room left above the minimums is split when both are shown (as in the constructor).
  void setShares(int topShare, int bottomShare);
  // When tabbed: shows the bottom view (true) or the top one.
  void showBottom(bool bottom);
  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;
  void relayout();

 protected:
  void resizeEvent(QResizeEvent*) override { relayout(); }

 private:
  static constexpr int kGap = 6;
  int topMin() const;
  int bottomMin() const;
  QWidget* m_top;
  QWidget* m_bottom;
  QTabBar* m_tabs = nullptr;
  int m_topShare, m_bottomShare;
  int m_topMinimum = 0, m_bottomMinimum = 0;  // setViewMinimums
  Qt::Orientation m_orientation = Qt::Vertical;
  bool m_tabbed = false;
};
