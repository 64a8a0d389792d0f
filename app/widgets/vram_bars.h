#pragma once
// Stacked "fill" bars of memory (VRAM page): each bar is a pile of named segments (weights, KV cache, Adam
// state, ...) drawn against a card's capacity line. When the numbers change the segments ease to their new
// sizes over ~300 ms, driven by elapsed time (not frame counts) from a 60 Hz timer that runs only while
// something moves and the widget is visible.
#include "theme.h"

#include <QColor>
#include <QElapsedTimer>
#include <QString>
#include <QTimer>
#include <QVector>
#include <QWidget>

struct VramSegment {
  QString name;      // "Weights", "KV cache", ...: also the legend entry and what animations match on
  double bytes = 0;
  QColor color;
  bool hollow = false;  // drawn as an outline only (e.g. "free" on a live bar)
};

struct VramBar {
  QString label;     // under the bar: "FP16", "before"
  QString caption;   // under the label: "fits, 7.4 GB left" / "short by 5.0 GB"
  bool good = true;  // caption colour: good (fits) or bad (short)
  // The label and caption are written under this bar and the next (a pair: prediction and reading; the next bar's
  // own label and caption are not drawn), so a narrow panel's ten bars need not wrap "203 MB" into "203" / "MB".
  // Ignored on the last bar.
  bool textSpansNext = false;
  bool highlight = false;  // the selected bar: bold outline
  QVector<VramSegment> segments;
  double total() const;
};

// One fixed colour per kind of memory ("Weights", "KV cache", "Adam m", ...), from the Okabe–Ito palette and the
// same on every theme and page, so a bar reads the same on the memory page and on training vs inference.
QColor vramPartColour(const QString& part);

class VramBars : public QWidget {
  Q_OBJECT
 public:
  explicit VramBars(QWidget* parent = nullptr);

  // The bars to show; segments matched by (bar label, segment name) ease from their current size.
  void setBars(const QVector<VramBar>& bars);
  // The card's memory as a dashed line across all bars (0 = none), with its label ("RTX 4090 · 24 GB").
  void setCapacity(double bytes, const QString& label);
  void setTheme(const Theme& theme);
  void setTitle(const QString& title);
  // Shown instead of bars when there are none (e.g. "No GPU here: ...").
  void setEmptyText(const QString& text);
  void setAnimationMs(int ms) { m_durationMs = ms; }

  const QVector<VramBar>& bars() const { return m_target; }
  double capacity() const { return m_capacity; }
  QString capacityLabel() const { return m_capacityLabel; }
  QString emptyText() const { return m_emptyText; }
  bool isAnimating() const { return m_timer.isActive(); }
  // What is drawn now (mid-animation values), for tests.
  double displayedTotal(int bar) const;
  bool spansNext(int bar) const { return bar + 1 < m_target.size() && m_target[bar].textSpansNext; }
  bool spannedByPrevious(int bar) const { return bar > 0 && spansNext(bar - 1); }

  QSize sizeHint() const override { return {640, 420}; }
  QSize minimumSizeHint() const override { return {260, 220}; }

 protected:
  void paintEvent(QPaintEvent*) override;
  void showEvent(QShowEvent*) override;
  void hideEvent(QHideEvent*) override;

 private:
  void tick();
  double progress() const;  // 0..1 eased
  double shown(int bar, int seg) const;

  QVector<VramBar> m_target;
  QVector<QVector<double>> m_from;  // per bar, per segment: the size the animation started from
  double m_capacity = 0;
  QString m_capacityLabel, m_title, m_emptyText;
  Theme m_theme = Theme::normal();
  QTimer m_timer;
  QElapsedTimer m_clock;
  qint64 m_elapsedBeforePause = 0;  // time already animated when the widget was hidden
  int m_durationMs = 300;
  double m_scaleFrom = 0, m_scaleTo = 0;  // the axis top also eases, so bars do not jump when it rescales
};
