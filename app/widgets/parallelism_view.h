#pragma once
// Data, tensor and pipeline parallelism, animated: N GPUs (the page's calculator's; up to 8 drawn) joined by a
// link (NVLink or PCIe), showing what
// each GPU holds and what has to cross the link. Driven by elapsed time at 60 Hz, paused while hidden; all
// text is prepared when the mode changes, so a frame allocates nothing.
#include "theme.h"

#include <QElapsedTimer>
#include <QString>
#include <QTimer>
#include <QWidget>

#include <array>

class ParallelismView : public QWidget {
  Q_OBJECT
 public:
  enum class Mode { Data, Tensor, Pipeline };
  static constexpr int kMaxDrawn = 8;  // more than this are summarised in the caption
  static constexpr double kPeriodS = 8.0;  // one training step of the animation

  explicit ParallelismView(QWidget* parent = nullptr);

  void setMode(Mode mode);
  Mode mode() const { return m_mode; }
  void setLinkName(const QString& name);  // "NVLink 4 · 450 GB/s each way"
  // GPUs in the picture: the page's calculator's count, so the two always agree (2…kMaxDrawn drawn).
  void setGpuCount(int gpus);
  int gpuCount() const { return m_count; }
  int drawnGpus() const { return m_drawn; }
  void setPaused(bool paused);
  bool isPaused() const { return m_paused; }
  bool isAnimating() const { return m_timer.isActive(); }
  // Shows the animation at this time into the step (seconds); for screenshots and tests.
  void showTime(double seconds);
  double time() const { return m_t; }
  QString caption() const { return m_caption; }
  QString crossesText() const { return m_crosses; }
  void setTheme(const Theme& theme);
  QSize sizeHint() const override { return {760, 460}; }
  // Tall enough for the two lines of text, GPU boxes with four readable layer rows, the link and the status line
  // at this theme's fonts (a projector's are twice a screen's).
  QSize minimumSizeHint() const override;
  double boxHeight() const;        // the GPU boxes' height at the current size
  double neededBoxHeight() const;  // what a box needs: its name and four layer rows of text

 protected:
  void paintEvent(QPaintEvent*) override;
  void showEvent(QShowEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void hideEvent(QHideEvent*) override;

 private:
  void tick();
  void updateRunning();
  void prepareText();
  // The text at `scale` of the theme's sizes: a projector's fonts shrink (to kMinProjectorScale at most) when
  // the widget is short, so the whole picture still fits instead of its boxes being squashed.
  QFont bigFont(double scale) const;
  QFont smallFont(double scale) const;
  // The vertical layout every frame and the size hints share.
  struct Rows {
    double top, boxTop, busH, statusH, boxBottom;
  };
  Rows rows(double height, double scale) const;
  double neededBoxHeight(double scale) const;
  double neededHeight(double scale) const;
  double minScale() const;
  void fitScale();  // on resize and theme change, never per frame
  static constexpr double kMinProjectorScale = 0.7;
  double m_scale = 1;

  Mode m_mode = Mode::Data;
  QTimer m_timer;
  QElapsedTimer m_clock;
  double m_t = 0;       // seconds into the current step
  double m_offset = 0;  // where the clock resumes from after a pause
  bool m_paused = false;
  Theme m_theme = Theme::normal();
  QString m_linkName;
  QString m_caption, m_crosses, m_split, m_phaseCompute, m_phaseLink, m_phaseIdle, m_phaseUpdate;
  int m_count = 4, m_drawn = 4;
  std::array<QString, kMaxDrawn> m_gpuNames, m_shortGpuNames, m_stageNames;
  std::array<QString, 4> m_layerNames;
};
