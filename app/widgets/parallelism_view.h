#pragma once
// Data, tensor and pipeline parallelism, animated: four GPUs joined by a link (NVLink or PCIe), showing what
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
  static constexpr int kGpus = 4;
  static constexpr double kPeriodS = 8.0;  // one training step of the animation

  explicit ParallelismView(QWidget* parent = nullptr);

  void setMode(Mode mode);
  Mode mode() const { return m_mode; }
  void setLinkName(const QString& name);  // "NVLink 4 · 900 GB/s"
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

 protected:
  void paintEvent(QPaintEvent*) override;
  void showEvent(QShowEvent*) override;
  void hideEvent(QHideEvent*) override;

 private:
  void tick();
  void updateRunning();
  void prepareText();

  Mode m_mode = Mode::Data;
  QTimer m_timer;
  QElapsedTimer m_clock;
  double m_t = 0;       // seconds into the current step
  double m_offset = 0;  // where the clock resumes from after a pause
  bool m_paused = false;
  Theme m_theme = Theme::normal();
  QString m_linkName;
  QString m_caption, m_crosses, m_split, m_phaseCompute, m_phaseLink, m_phaseIdle, m_phaseUpdate;
  std::array<QString, kGpus> m_gpuNames;
  std::array<QString, 4> m_layerNames;
  std::array<QString, 4> m_sliceNames;
};
