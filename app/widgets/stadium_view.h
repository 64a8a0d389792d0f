#pragma once
// The professor and the stadium, animated: two panels side by side fill the same grid of output cells
// (batch rows × d_out columns of Y = X·W). The professor fills one cell at a time; the stadium fills
// `workers` cells per round; a clerk (memory bandwidth) who delivers too few worksheets per second makes
// the students wait (drawn grey). Time on screen is simulated time divided by a fixed scale, driven by a
// QElapsedTimer, so the race runs at the same pace whatever the frame rate; the timer stops while hidden.
//
// Layout: each row of Y (one example's d_out outputs) is folded into a square-ish tile; tiles are arranged
// to fit the panel. Cells fill in row-major order, so what is done is always a prefix of the cells and
// every frame is a handful of rectangles per tile, whatever the zoom. Nothing is allocated per frame.
#include "theme.h"

#include <QElapsedTimer>
#include <QFont>
#include <QPen>
#include <QPointF>
#include <QRectF>
#include <QTimer>
#include <QWidget>

#include <cstdint>

class StadiumView : public QWidget {
  Q_OBJECT
 public:
  struct Params {
    std::int64_t batch = 32;      // rows of Y
    std::int64_t dOut = 4096;     // columns of Y
    std::int64_t workers = 4096;  // students in the stadium
    double professorCellS = 1;    // seconds the professor needs for one cell
    double studentCellS = 1;      // seconds one student needs for one cell
    double clerkCellsPerS = 0;    // worksheets the clerk delivers per second; <= 0: no limit
    double simPerScreenS = 1;     // simulated seconds per second on screen (the scale the page shows)
  };

  // One lane of the race at a simulated time: what is done and what is in progress.
  struct LaneState {
    std::int64_t cells = 0;        // total cells
    std::int64_t workers = 1;      // cells per round
    std::int64_t roundsTotal = 0;  // ceil(cells / workers)
    std::int64_t roundsDone = 0;
    std::int64_t done = 0;         // cells finished
    std::int64_t busyLo = 0, busyHi = 0;  // the current round's cells [lo, hi)
    bool waiting = false;          // the current round waits for worksheets from the clerk
    double roundFraction = 0;      // how far the current round's work is, 0..1
    double roundS = 0;             // simulated seconds per round (work, or the clerk's delivery if slower)
    double finishS = 0;            // simulated seconds to finish all cells
    bool finished() const { return done >= cells; }
  };
  // Pure: the state of a lane of `workers` each taking cellS per cell, fed by a clerk at clerkRate.
  static LaneState laneAt(std::int64_t cells, std::int64_t workers, double cellS, double clerkRate, double simT);

  explicit StadiumView(QWidget* parent = nullptr);

  void setParams(const Params& p);  // restarts the race
  const Params& params() const { return m_params; }
  void setTheme(const Theme& theme);

  void restart();
  void setPaused(bool paused);  // the user's pause; hidden pages also stop the timer
  bool isPaused() const { return m_userPaused; }
  bool isAnimating() const { return m_timer.isActive(); }
  double simTime() const;  // simulated seconds since the start
  LaneState professor() const { return laneAt(cells(), 1, m_params.professorCellS, m_params.clerkCellsPerS, simTime()); }
  LaneState stadium() const {
    return laneAt(cells(), m_params.workers, m_params.studentCellS, m_params.clerkCellsPerS, simTime());
  }
  std::int64_t cells() const { return m_params.batch * m_params.dOut; }

  // Zoom: 0 = the whole grid as tiles, 1 = individual cells large enough to count.
  void setZoom(double zoom01);
  double zoom() const { return m_zoom; }

  QSize sizeHint() const override { return {900, 520}; }
  QSize minimumSizeHint() const override { return {420, 260}; }

 Q_SIGNALS:
  void zoomChanged(double zoom01);
  void frameAdvanced();  // once per animation frame (the page updates its counters from it)

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void changeEvent(QEvent*) override;
  void showEvent(QShowEvent*) override;
  void hideEvent(QHideEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;

 private:
  void relayout();
  void updateTimer();
  void tick();
  void clampPan();
  double cellPx() const;  // on-screen size of one cell at the current zoom
  void paintLane(QPainter& p, const QRectF& panel, const LaneState& s, const QColor& color, const QPen& accent,
                 const QString& title, const QString& counter);
  void prepareText();  // fonts, pens and fixed strings: built on theme/parameter changes, never per frame
  static void appendCount(QString& out, std::int64_t n);
  // Fills the cells [lo, hi) of the grid with `brush`: at most three rectangles per tile touched.
  void fillRange(QPainter& p, const QRectF& grid, std::int64_t lo, std::int64_t hi, const QColor& color) const;

  Params m_params;
  Theme m_theme = Theme::normal();
  QTimer m_timer;
  QElapsedTimer m_clock;
  double m_simAtStart = 0;  // simulated seconds accumulated before the clock's last (re)start
  bool m_userPaused = false;
  bool m_visible = false;

  // Grid geometry in cell units (recomputed on resize and on parameter changes, never per frame).
  int m_tileW = 64, m_tileH = 64;  // cells per tile edge (a tile = one row of Y)
  int m_tilesX = 8, m_tilesY = 4;  // tiles across and down
  int m_gapCells = 4;              // gap between tiles, in cells
  double m_fitPx = 1;              // cell size in px when the whole grid fits the panel
  double m_zoom = 0;
  QPointF m_pan;                   // top-left of the view, in cell units
  QPointF m_dragStart, m_panAtDrag;
  QRectF m_gridRect[2];            // where each lane's grid sits in the widget

  // Prepared for painting (see prepareText).
  QFont m_fontTitle, m_fontText, m_fontBig;
  double m_lineH = 14, m_ascent = 11;
  QString m_titleProfessor, m_titleStadium, m_waitText, m_doneText, m_counter;
  QSizeF m_waitSize, m_doneSize;
  QPen m_gridPenThin, m_gridPenThick, m_borderPen, m_textPen, m_cpuPen, m_gpuPen, m_memPen, m_markerPen;
};
