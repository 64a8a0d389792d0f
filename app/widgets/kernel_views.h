#pragma once
// The pictures of "Inside the kernel" (pages/kernel_page.h), drawn with QPainter from a traced ladder step
// (models/kernel_view_model.h does the arithmetic, without Qt); the lab page draws a student's traced kernel with
// the same OwnerView and WarpLoadView (pages/lab/lab_page_drawings.cpp):
//  - OwnerView: C coloured by the block that computed each cell, shaded by warp; hovering names block, warp, lane.
//  - WarpLoadView: one warp request laid over its matrix (or a shared array, one column per bank): the lanes'
//    elements, the 32-byte sectors they cost, the banks they hit.
//  - TimelineView: block 0's k-loop, frame by frame: A and B elements read, the shared tiles filled and read, the
//    barriers, the C cells it accumulates. 60 Hz timer on elapsed time, paused when hidden, nothing allocated per
//    frame (the frames are computed when the trace arrives; the pictures are images updated in place).
// Every picture says where its numbers come from: traced on the CPU emulator, counts exact, times not a GPU's.
#include "pages/kernel/model/kernel_view_model.h"
#include "theme.h"
#include "widgets/kernel_view_paint.h"  // kernelTraceProvenance(), which the kernel page's notes use too

#include <QElapsedTimer>
#include <QImage>
#include <QString>
#include <QTimer>
#include <QWidget>

#include <memory>

class OwnerView : public QWidget {
  Q_OBJECT
 public:
  explicit OwnerView(QWidget* parent = nullptr);
  void setTrace(std::shared_ptr<const gpulab::emu::StepTrace> trace);
  void setTheme(const Theme& theme);
  void setMessage(const QString& text);  // shown instead of a picture (no trace yet, no tracer in this build)

  // The cell under a widget position ({-1,-1} outside), the rectangle of a cell, and the sentence a hover shows.
  QPoint cellAt(const QPoint& pos) const;
  QRectF cellRect(int row, int col) const;
  QString describeCell(int row, int col) const;
  // What hovering a cell did: the last cell described (row, col), for tests.
  QPoint hoveredCell() const { return m_hover; }
  QSize sizeHint() const override { return {720, 520}; }
  QSize minimumSizeHint() const override { return {320, 240}; }

 protected:
  void paintEvent(QPaintEvent*) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void leaveEvent(QEvent* e) override;
  bool event(QEvent* e) override;

 private:
  QRectF matrixRect() const;
  QString ownerTitle() const;
  QString ownerLegend() const;
  void rebuildImage();
  void rebuildHover();
  QColor cellColour(const gpulab::kernelview::Owner& o) const;

  std::shared_ptr<const gpulab::emu::StepTrace> m_trace;
  std::vector<gpulab::kernelview::BlockTile> m_tiles;
  QImage m_image, m_hoverImage;
  QPoint m_hover{-1, -1};
  QString m_message;
  Theme m_theme = Theme::normal();
};

class WarpLoadView : public QWidget {
  Q_OBJECT
 public:
  explicit WarpLoadView(QWidget* parent = nullptr);
  // The request to draw; `title` names it ("warp 3 · load A"), `lines` are the numbers written under it.
  void setRequest(const gpulab::kernelview::RequestView& view, const QString& title, const QStringList& lines);
  void setMessage(const QString& text);
  void setTheme(const Theme& theme);
  const gpulab::kernelview::RequestView& request() const { return m_view; }
  const QString& title() const { return m_title; }
  // The numbers written under a request: this request's lanes and the sectors (global) or bank wavefronts (shared)
  // it cost, and the instruction's totals over the whole traced run. The kernel page and the lab draw the same.
  static QStringList requestLines(const gpulab::emu::InstructionTrace& ins, const gpulab::kernelview::RequestView& v);
  QSize sizeHint() const override { return {720, 520}; }
  QSize minimumSizeHint() const override { return {320, 240}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  gpulab::kernelview::RequestView m_view;
  QString m_title, m_message;
  QStringList m_lines;
  bool m_has = false;
  Theme m_theme = Theme::normal();
};

class TimelineView : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineView(QWidget* parent = nullptr);
  void setTrace(std::shared_ptr<const gpulab::emu::StepTrace> trace);
  void setMessage(const QString& text);
  void setTheme(const Theme& theme);
  void setFramesPerSecond(double fps);
  void setPaused(bool paused);
  bool isPaused() const { return m_userPaused; }
  bool isAnimating() const { return m_timer.isActive(); }
  // Jump to a frame (pauses nothing); the frame shown now and how many there are.
  void seek(int frame);
  int frame() const { return m_frame; }
  int frameCount() const { return int(m_timeline.frames.size()); }
  const gpulab::kernelview::BlockTimeline& timeline() const { return m_timeline; }
  QSize sizeHint() const override { return {720, 520}; }
  QSize minimumSizeHint() const override { return {320, 240}; }

 Q_SIGNALS:
  void frameChanged(int frame);

 protected:
  void paintEvent(QPaintEvent*) override;
  void showEvent(QShowEvent* e) override;
  void hideEvent(QHideEvent* e) override;

 private:
  void tick();
  void updateTimer();
  void applyFrame(int frame, bool hot);  // paints a frame's touches into the images
  void resetImages();
  void advanceTo(int frame);

  std::shared_ptr<const gpulab::emu::StepTrace> m_trace;
  gpulab::kernelview::BlockTimeline m_timeline;
  QImage m_a, m_b, m_c, m_sa, m_sb;  // one pixel per element; updated in place as frames pass
  QTimer m_timer;
  QElapsedTimer m_clock;
  double m_fps = 4;
  double m_frameAtStart = 0;  // frame position when the clock (re)started
  int m_frame = -1;           // the last frame painted into the images
  bool m_visible = false, m_userPaused = false;
  QString m_message;
  Theme m_theme = Theme::normal();
  // Colours used in the images (set by setTheme, read per touch).
  QRgb m_idle = 0, m_seen = 0, m_hotRead = 0, m_hotWrite = 0, m_cOwned = 0;
};
