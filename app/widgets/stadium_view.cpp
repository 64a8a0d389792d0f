#include "widgets/stadium_view.h"

#include "format.h"

#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace {
constexpr int kFrameMs = 16;         // ~60 fps; the pace comes from the clock, not from this number
constexpr double kMaxCellPx = 30.0;  // fully zoomed in: a cell is big enough to point at on a projector
constexpr int kPanelGap = 16;        // px between the two lanes
}  // namespace

StadiumView::LaneState StadiumView::laneAt(std::int64_t cells, std::int64_t workers, double cellS, double clerkRate,
                                           double simT) {
  LaneState s;
  s.cells = std::max<std::int64_t>(0, cells);
  s.workers = std::max<std::int64_t>(1, workers);
  if (s.cells == 0) return s;
  s.roundsTotal = (s.cells + s.workers - 1) / s.workers;
  const std::int64_t perRound = std::min(s.workers, s.cells);
  // A round cannot be shorter than the work, nor than the time the clerk needs to hand out its worksheets.
  const double deliverS = clerkRate > 0 ? double(perRound) / clerkRate : 0.0;
  const double cell = std::max(cellS, 1e-30);
  s.roundS = std::max(cell, deliverS);
  s.finishS = double(s.roundsTotal) * s.roundS;
  if (simT >= s.finishS) {
    s.roundsDone = s.roundsTotal;
    s.done = s.cells;
    s.busyLo = s.busyHi = s.cells;
    return s;
  }
  const double t = std::max(0.0, simT);
  s.roundsDone = std::min<std::int64_t>(s.roundsTotal - 1, std::int64_t(std::floor(t / s.roundS)));
  s.done = std::min(s.cells, s.roundsDone * s.workers);
  s.busyLo = s.done;
  s.busyHi = std::min(s.cells, s.done + s.workers);
  // Within a round the students first wait for the sheets the clerk has not brought yet, then work.
  const double phase = t - double(s.roundsDone) * s.roundS;
  const double waitS = s.roundS - cell;
  if (phase < waitS) {
    s.waiting = true;
    s.roundFraction = 0;
  } else {
    s.roundFraction = std::clamp((phase - waitS) / cell, 0.0, 1.0);
  }
  return s;
}

StadiumView::StadiumView(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMouseTracking(false);
  setFocusPolicy(Qt::WheelFocus);
  setToolTip(tr("Each small square is one output cell of Y = X·W; a tile is one row of Y (one example's outputs).\n"
                "Left: the professor fills one cell at a time. Right: the stadium fills one cell per student per round;\n"
                "grey cells are students waiting for the clerk's worksheets.\n"
                "Mouse wheel zooms in to single cells; drag to move around."));
  m_timer.setTimerType(Qt::PreciseTimer);
  m_timer.setInterval(kFrameMs);
  connect(&m_timer, &QTimer::timeout, this, &StadiumView::tick);
  prepareText();
}

void StadiumView::setParams(const Params& p) {
  const bool shape = p.batch != m_params.batch || p.dOut != m_params.dOut;
  m_params = p;
  m_params.batch = std::max<std::int64_t>(1, p.batch);
  m_params.dOut = std::max<std::int64_t>(1, p.dOut);
  m_params.workers = std::max<std::int64_t>(1, p.workers);
  m_params.simPerScreenS = p.simPerScreenS > 0 ? p.simPerScreenS : 1;
  prepareText();
  if (shape) relayout();
  restart();
}

void StadiumView::setTheme(const Theme& theme) {
  m_theme = theme;
  prepareText();
  relayout();
}

void StadiumView::restart() {
  m_simAtStart = 0;
  m_clock.invalidate();
  updateTimer();
  update();
}

void StadiumView::setPaused(bool paused) {
  m_userPaused = paused;
  updateTimer();
}

double StadiumView::simTime() const {
  double t = m_simAtStart;
  if (m_clock.isValid()) t += double(m_clock.nsecsElapsed()) * 1e-9 * m_params.simPerScreenS;
  return t;
}

void StadiumView::updateTimer() {
  const double endS = std::max(professor().finishS, stadium().finishS);
  const bool run = m_visible && !m_userPaused && simTime() < endS;
  if (run && !m_timer.isActive()) {
    m_clock.start();
    m_timer.start();
  } else if (!run && m_timer.isActive()) {
    m_simAtStart = std::min(simTime(), endS);  // freeze where we are
    m_clock.invalidate();
    m_timer.stop();
  } else if (!run) {
    m_clock.invalidate();
  }
}

void StadiumView::tick() {
  update();
  Q_EMIT frameAdvanced();
  // Both lanes done: stop spending frames on a still picture.
  if (simTime() >= std::max(professor().finishS, stadium().finishS)) updateTimer();
}

void StadiumView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  m_visible = true;
  updateTimer();
}

void StadiumView::hideEvent(QHideEvent* e) {
  QWidget::hideEvent(e);
  m_visible = false;
  updateTimer();
}

void StadiumView::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::FontChange) {
    prepareText();
    relayout();
  }
}

void StadiumView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  relayout();
}

// Folds each row of Y into a square-ish tile and picks the arrangement of tiles that gives the biggest cells.
void StadiumView::relayout() {
  const std::int64_t d = m_params.dOut;
  m_tileW = 1;
  while (std::int64_t(m_tileW) * m_tileW < d) m_tileW *= 2;
  m_tileH = int((d + m_tileW - 1) / m_tileW);
  m_gapCells = std::max(1, m_tileW / 16);

  const double headerPx = m_lineH * 2.4 + 10;
  const double panelW = std::max(40.0, (width() - kPanelGap) / 2.0);
  const double panelH = std::max(40.0, height() - headerPx - 4);
  double best = 0;
  const int batch = int(m_params.batch);
  for (int tx = 1; tx <= batch; ++tx) {
    const int ty = (batch + tx - 1) / tx;
    const double gw = double(tx) * m_tileW + double(tx - 1) * m_gapCells;
    const double gh = double(ty) * m_tileH + double(ty - 1) * m_gapCells;
    const double px = std::min(panelW / gw, panelH / gh);
    if (px > best) {
      best = px;
      m_tilesX = tx;
      m_tilesY = ty;
    }
  }
  m_fitPx = best > 0 ? best : 1;
  for (int lane = 0; lane < 2; ++lane)
    m_gridRect[lane] = QRectF(lane * (panelW + kPanelGap), headerPx, panelW, panelH);
  clampPan();
  update();
}

double StadiumView::cellPx() const {
  if (m_fitPx >= kMaxCellPx) return m_fitPx;
  return m_fitPx * std::pow(kMaxCellPx / m_fitPx, m_zoom);
}

void StadiumView::setZoom(double zoom01) {
  zoom01 = std::clamp(zoom01, 0.0, 1.0);
  if (std::abs(zoom01 - m_zoom) < 1e-9) return;
  // The view's top-left cell stays put (the pan is in cell units): zooming from the whole grid lands on the
  // first cells, where the professor is working. The wheel zooms about the cursor instead.
  m_zoom = zoom01;
  if (m_zoom == 0) m_pan = {};
  clampPan();
  update();
  Q_EMIT zoomChanged(m_zoom);
}

void StadiumView::clampPan() {
  const double px = cellPx();
  const double gw = double(m_tilesX) * m_tileW + double(m_tilesX - 1) * m_gapCells;
  const double gh = double(m_tilesY) * m_tileH + double(m_tilesY - 1) * m_gapCells;
  const double vw = m_gridRect[0].width() / px, vh = m_gridRect[0].height() / px;
  m_pan.setX(std::clamp(m_pan.x(), 0.0, std::max(0.0, gw - vw)));
  m_pan.setY(std::clamp(m_pan.y(), 0.0, std::max(0.0, gh - vh)));
}

void StadiumView::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return;
  // Zoom about the cell under the cursor, in whichever lane it is.
  const QPointF pos = e->position();
  const QRectF& g = m_gridRect[m_gridRect[1].contains(pos) ? 1 : 0];
  const double oldPx = cellPx();
  const QPointF under = m_pan + (pos - g.topLeft()) / oldPx;
  m_zoom = std::clamp(m_zoom + steps * 0.08, 0.0, 1.0);
  const double px = cellPx();
  m_pan = under - (pos - g.topLeft()) / px;
  clampPan();
  update();
  Q_EMIT zoomChanged(m_zoom);
  e->accept();
}

void StadiumView::mousePressEvent(QMouseEvent* e) {
  m_dragStart = e->position();
  m_panAtDrag = m_pan;
}

void StadiumView::mouseMoveEvent(QMouseEvent* e) {
  if (!(e->buttons() & Qt::LeftButton)) return;
  m_pan = m_panAtDrag - (e->position() - m_dragStart) / cellPx();
  clampPan();
  update();
}

void StadiumView::fillRange(QPainter& p, const QRectF& grid, std::int64_t lo, std::int64_t hi,
                            const QColor& color) const {
  if (hi <= lo) return;
  const double px = cellPx();
  const std::int64_t d = m_params.dOut;
  const double stepX = double(m_tileW + m_gapCells), stepY = double(m_tileH + m_gapCells);
  auto rect = [&](double cx, double cy, double w, double h) {
    const QRectF r(grid.left() + (cx - m_pan.x()) * px, grid.top() + (cy - m_pan.y()) * px, w * px, h * px);
    if (r.intersects(grid)) p.fillRect(r, color);  // the QColor overload: no QBrush built
  };
  for (std::int64_t row = lo / d; row <= (hi - 1) / d; ++row) {
    const double ox = double(row % m_tilesX) * stepX, oy = double(row / m_tilesX) * stepY;
    const std::int64_t a = std::max(lo, row * d) - row * d, b = std::min(hi, (row + 1) * d) - row * d;
    const std::int64_t ya = a / m_tileW, xa = a % m_tileW, yb = b / m_tileW, xb = b % m_tileW;
    if (ya == yb) {
      rect(ox + xa, oy + ya, double(xb - xa), 1);
      continue;
    }
    if (xa > 0) rect(ox + xa, oy + ya, double(m_tileW - xa), 1);
    const std::int64_t firstFull = xa > 0 ? ya + 1 : ya;
    if (yb > firstFull) rect(ox, oy + firstFull, m_tileW, double(yb - firstFull));
    if (xb > 0) rect(ox, oy + yb, double(xb), 1);
  }
}

// Appends n with thousands separators into a string whose capacity was reserved once, so the counters
// cost no allocation per frame.
void StadiumView::appendCount(QString& out, std::int64_t n) {
  char digits[24];
  int len = 0;
  std::uint64_t v = n < 0 ? std::uint64_t(-n) : std::uint64_t(n);
  do {
    digits[len++] = char('0' + v % 10);
    v /= 10;
  } while (v);
  if (n < 0) out.append(QLatin1Char('-'));
  for (int i = len - 1; i >= 0; --i) {
    out.append(QLatin1Char(digits[i]));
    if (i > 0 && i % 3 == 0) out.append(QLatin1Char(','));
  }
}

void StadiumView::prepareText() {
  m_fontTitle = font();
  m_fontTitle.setBold(true);
  m_fontText = font();
  m_fontBig = m_fontTitle;
  m_fontBig.setPointSizeF(m_fontTitle.pointSizeF() * 1.3);
  m_lineH = QFontMetricsF(m_fontTitle).height();
  m_ascent = QFontMetricsF(m_fontTitle).ascent();
  m_titleProfessor = tr("The professor · 1 worker");
  m_titleStadium = tr("The stadium · %1 students").arg(fmtCount(m_params.workers));
  m_waitText = tr("waiting for the clerk's worksheets");
  m_doneText = tr("done");
  const QFontMetricsF wm(m_fontTitle), bm(m_fontBig);
  m_waitSize = QSizeF(wm.horizontalAdvance(m_waitText) + 12, wm.height() + 4);
  m_doneSize = QSizeF(bm.horizontalAdvance(m_doneText) + 16, bm.height() + 4);
  m_gridPenThin = QPen(m_theme.surface, 1.0);
  m_gridPenThick = QPen(m_theme.surface, 1.5);
  m_borderPen = QPen(m_theme.border, 1);
  m_textPen = QPen(m_theme.text);
  m_cpuPen = QPen(m_theme.cpu.darker(m_theme.dark ? 70 : 125));
  m_gpuPen = QPen(m_theme.gpu.darker(m_theme.dark ? 70 : 125));
  m_memPen = QPen(m_theme.memory.darker(m_theme.dark ? 80 : 135));
  m_markerPen = QPen(m_theme.cpu.darker(m_theme.dark ? 60 : 130), 2.5);
  m_counter.reserve(160);
}

void StadiumView::paintLane(QPainter& p, const QRectF& g, const LaneState& s, const QColor& color, const QPen& accent,
                            const QString& title, const QString& counter) {
  // Header: who works, and the counters.
  p.setFont(m_fontTitle);
  p.setPen(accent);
  p.drawText(QPointF(g.left(), m_ascent + 2), title);
  p.setFont(m_fontText);
  p.setPen(m_textPen);
  p.drawText(QPointF(g.left(), m_ascent + 4 + m_lineH * 1.2), counter);

  p.save();
  p.setClipRect(g);
  p.fillRect(g, m_theme.background);
  const double px = cellPx();
  const double stepX = double(m_tileW + m_gapCells), stepY = double(m_tileH + m_gapCells);
  const std::int64_t d = m_params.dOut;
  // Empty tiles (the last tile row may be partly unused when d_out is not a square).
  const QColor empty = m_theme.dark ? m_theme.surface.lighter(160) : m_theme.grid;
  for (std::int64_t row = 0; row < m_params.batch; ++row) {
    const double ox = double(row % m_tilesX) * stepX, oy = double(row / m_tilesX) * stepY;
    const QRectF r(g.left() + (ox - m_pan.x()) * px, g.top() + (oy - m_pan.y()) * px, m_tileW * px, m_tileH * px);
    if (!r.intersects(g)) continue;
    if (d == std::int64_t(m_tileW) * m_tileH) {
      p.fillRect(r, empty);
    } else {
      const std::int64_t lo = row * d;
      fillRange(p, g, lo, lo + d, empty);
    }
  }
  fillRange(p, g, 0, s.done, color);
  if (s.busyHi > s.busyLo) {
    // Students waiting for sheets are grey; working ones darken as the round progresses.
    QColor busy = s.waiting ? m_theme.model : color;
    busy.setAlphaF(s.waiting ? 0.8f : float(0.30 + 0.55 * s.roundFraction));
    fillRange(p, g, s.busyLo, s.busyHi, busy);
  }
  // Cell borders once cells are big enough to see one by one.
  if (px >= 5) {
    p.setPen(px >= 12 ? m_gridPenThick : m_gridPenThin);
    const double vx0 = m_pan.x(), vy0 = m_pan.y();
    const double vx1 = vx0 + g.width() / px, vy1 = vy0 + g.height() / px;
    for (int ty = 0; ty < m_tilesY; ++ty)
      for (int tx = 0; tx < m_tilesX; ++tx) {
        const double ox = tx * stepX, oy = ty * stepY;
        if (ox > vx1 || oy > vy1 || ox + m_tileW < vx0 || oy + m_tileH < vy0) continue;
        const int c0 = std::max(0, int(std::floor(vx0 - ox))), c1 = std::min(m_tileW, int(std::ceil(vx1 - ox)));
        const int r0 = std::max(0, int(std::floor(vy0 - oy))), r1 = std::min(m_tileH, int(std::ceil(vy1 - oy)));
        const double top = g.top() + (oy - vy0) * px, left = g.left() + (ox - vx0) * px;
        for (int c = c0; c <= c1; ++c) {
          const double x = left + c * px;
          p.drawLine(QPointF(x, top + r0 * px), QPointF(x, top + r1 * px));
        }
        for (int r = r0; r <= r1; ++r) {
          const double y = top + r * px;
          p.drawLine(QPointF(left + c0 * px, y), QPointF(left + c1 * px, y));
        }
      }
  }
  // A single working cell is invisible at the whole-grid zoom: ring it so the class can find the professor.
  if (s.busyHi - s.busyLo == 1 && px < 8) {
    const std::int64_t i = s.busyLo, row = i / d, c = i % d;
    const double cx = double(row % m_tilesX) * stepX + double(c % m_tileW) + 0.5;
    const double cy = double(row / m_tilesX) * stepY + double(c / m_tileW) + 0.5;
    const QPointF at(g.left() + (cx - m_pan.x()) * px, g.top() + (cy - m_pan.y()) * px);
    p.setPen(m_markerPen);
    p.setBrush(Qt::NoBrush);
    p.drawEllipse(at, 9.0, 9.0);
    p.fillRect(QRectF(at.x() - 2, at.y() - 2, 4, 4), color.darker(130));
  }
  p.restore();
  p.setPen(m_borderPen);
  p.setBrush(Qt::NoBrush);
  p.drawRect(g.adjusted(0, 0, -1, -1));
  QColor bg = m_theme.surface;
  bg.setAlphaF(0.88f);
  if (s.waiting && s.busyHi > s.busyLo) {
    // Said in words as well as in grey, for the back row.
    const QRectF box(QPointF(g.left() + 6, g.bottom() - m_waitSize.height() - 6), m_waitSize);
    p.fillRect(box, bg);
    p.setFont(m_fontTitle);
    p.setPen(m_memPen);
    p.drawText(box, Qt::AlignCenter, m_waitText);
  }
  if (s.finished()) {
    const QRectF box(QPointF(g.right() - m_doneSize.width() - 8, g.top() + 6), m_doneSize);
    p.fillRect(box, bg);
    p.setFont(m_fontBig);
    p.setPen(accent);
    p.drawText(box, Qt::AlignCenter, m_doneText);
  }
}

void StadiumView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), m_theme.surface);
  const double t = simTime();
  const LaneState prof = laneAt(cells(), 1, m_params.professorCellS, m_params.clerkCellsPerS, t);
  const LaneState stad = laneAt(cells(), m_params.workers, m_params.studentCellS, m_params.clerkCellsPerS, t);
  m_counter.clear();  // keeps its capacity
  m_counter.append(QLatin1String("cell "));
  appendCount(m_counter, prof.done);
  m_counter.append(QLatin1String(" of "));
  appendCount(m_counter, prof.cells);
  paintLane(p, m_gridRect[0], prof, m_theme.cpu, m_cpuPen, m_titleProfessor, m_counter);
  m_counter.clear();
  m_counter.append(QLatin1String("round "));
  appendCount(m_counter, std::min(stad.roundsTotal, stad.roundsDone + (stad.finished() ? 0 : 1)));
  m_counter.append(QLatin1String(" of "));
  appendCount(m_counter, stad.roundsTotal);
  m_counter.append(QStringLiteral(" \u00b7 "));  // UTF-16 literal: no allocation, and not Latin-1
  appendCount(m_counter, stad.done);
  m_counter.append(QLatin1String(" cells done"));
  paintLane(p, m_gridRect[1], stad, m_theme.gpu, m_gpuPen, m_titleStadium, m_counter);
}
