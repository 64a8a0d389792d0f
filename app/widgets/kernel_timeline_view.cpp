// The kernel page's "Replay" view: block 0's k-loop played back over time from the trace's events.
#include "widgets/kernel_views.h"
#include "widgets/kernel_view_paint.h"
#include "widgets/onscreen_hint.h"

#include <QEvent>
#include <QPainter>
#include <QShowEvent>
#include <QHideEvent>

#include <algorithm>
#include <cmath>

using namespace gpulab::kernelview;
using namespace kernelview_paint;

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("kernelTimelineView"));
  setToolTip(tr("Block 0 of the kernel stepping through its k-loop: the elements of A and B it reads (bright), the "
                "shared-memory tiles it fills (green) and reads, the barriers where all its threads wait, and its "
                "tile of C filling up as the dot products grow."));
  m_timer.setTimerType(Qt::PreciseTimer);
  m_timer.setInterval(16);  // ~60 Hz; the frame shown comes from the elapsed time, not from counting ticks
  connect(&m_timer, &QTimer::timeout, this, &TimelineView::tick);
  setNothingToShow(this, true);  // only a message until a trace arrives: an export skips it (onscreen_hint.h)
}

void TimelineView::setTheme(const Theme& theme) {
  m_theme = theme;
  const bool dark = theme.dark;
  m_idle = (dark ? QColor(60, 60, 66) : QColor(236, 236, 236)).rgb();
  m_seen = (dark ? QColor(95, 110, 130) : QColor(190, 205, 225)).rgb();
  m_hotRead = theme.memory.rgb();
  m_hotWrite = theme.good.rgb();
  m_cOwned = (dark ? QColor(70, 90, 70) : QColor(215, 235, 215)).rgb();
  const int frame = m_frame;
  resetImages();
  if (frame >= 0) advanceTo(frame);
  update();
}

void TimelineView::setMessage(const QString& text) {
  m_message = text;
  update();
}

void TimelineView::setTrace(std::shared_ptr<const gpulab::emu::StepTrace> trace) {
  m_trace = std::move(trace);
  m_timeline = m_trace ? block0_timeline(*m_trace) : BlockTimeline{};
  setNothingToShow(this, !m_trace || m_timeline.frames.empty());
  if (m_trace) {
    const int m = m_trace->shape.m, n = m_trace->shape.n, k = m_trace->shape.k;
    m_a = QImage(k, m, QImage::Format_RGB32);
    m_b = QImage(n, k, QImage::Format_RGB32);
    m_c = QImage(n, m, QImage::Format_RGB32);
    m_sa = QImage(32, std::max(1, (m_timeline.shared_a_words + 31) / 32), QImage::Format_RGB32);
    m_sb = QImage(32, std::max(1, (m_timeline.shared_b_words + 31) / 32), QImage::Format_RGB32);
  } else {
    m_a = m_b = m_c = m_sa = m_sb = QImage();
  }
  m_frameAtStart = 0;
  m_clock.invalidate();
  resetImages();
  advanceTo(frameCount() > 0 ? 0 : -1);
  updateTimer();
  update();
}

void TimelineView::resetImages() {
  for (QImage* img : {&m_a, &m_b, &m_c, &m_sa, &m_sb})
    if (!img->isNull()) img->fill(m_idle);
  if (!m_c.isNull() && m_trace)
    for (std::int32_t cell : m_timeline.c_tile) {
      const int n = m_trace->shape.n;
      reinterpret_cast<QRgb*>(m_c.scanLine(cell / n))[cell % n] = m_cOwned;
    }
  m_frame = -1;
}

void TimelineView::applyFrame(int frame, bool hot) {
  if (!m_trace || frame < 0 || frame >= frameCount()) return;
  const TimelineFrame& f = m_timeline.frames[std::size_t(frame)];
  const int m = m_trace->shape.m, n = m_trace->shape.n, k = m_trace->shape.k;
  for (int i = f.begin; i < f.end; ++i) {
    const Touch& t = m_timeline.touches[std::size_t(i)];
    QImage* img = nullptr;
    int cols = 32, rowsMax = 0;
    switch (t.array) {
      case TouchArray::A: img = &m_a, cols = k, rowsMax = m; break;
      case TouchArray::B: img = &m_b, cols = n, rowsMax = k; break;
      case TouchArray::C: img = &m_c, cols = n, rowsMax = m; break;
      case TouchArray::SharedA: img = &m_sa, cols = 32, rowsMax = m_sa.height(); break;
      case TouchArray::SharedB: img = &m_sb, cols = 32, rowsMax = m_sb.height(); break;
      case TouchArray::SharedOther: break;
    }
    if (!img || img->isNull() || t.element < 0) continue;
    const int row = t.element / cols, col = t.element % cols;
    if (row >= rowsMax || row >= img->height()) continue;
    QRgb colour = hot ? (t.store ? m_hotWrite : m_hotRead) : m_seen;
    if (t.array == TouchArray::C) colour = hot ? m_hotWrite : m_theme.gpu.rgb();
    reinterpret_cast<QRgb*>(img->scanLine(row))[col] = colour;
  }
}

void TimelineView::advanceTo(int target) {
  target = std::min(target, frameCount() - 1);
  if (target < 0) return;
  if (target < m_frame) resetImages();
  if (target == m_frame) return;
  if (m_frame >= 0) applyFrame(m_frame, false);
  for (int f = m_frame + 1; f < target; ++f) applyFrame(f, false);
  applyFrame(target, true);
  m_frame = target;
  Q_EMIT frameChanged(m_frame);
}

void TimelineView::seek(int frame) {
  frame = std::clamp(frame, 0, std::max(0, frameCount() - 1));
  m_frameAtStart = frame;
  if (m_clock.isValid()) m_clock.restart();
  advanceTo(frame);
  update();
}

void TimelineView::setFramesPerSecond(double fps) {
  if (m_clock.isValid()) {
    m_frameAtStart += double(m_clock.nsecsElapsed()) * 1e-9 * m_fps;
    m_clock.restart();
  }
  m_fps = std::max(0.25, fps);
}

void TimelineView::setPaused(bool paused) {
  m_userPaused = paused;
  updateTimer();
}

void TimelineView::updateTimer() {
  const bool run = m_visible && !m_userPaused && frameCount() > 1;
  if (run && !m_timer.isActive()) {
    m_frameAtStart = std::max(0, m_frame);
    m_clock.start();
    m_timer.start();
  } else if (!run && m_timer.isActive()) {
    m_timer.stop();
    m_clock.invalidate();
  }
}

void TimelineView::tick() {
  if (!m_clock.isValid() || frameCount() <= 0) return;
  // A short hold on the last frame, then the loop starts again.
  const double hold = std::max(2.0, m_fps * 1.5);
  const double cycle = frameCount() + hold;
  double pos = m_frameAtStart + double(m_clock.nsecsElapsed()) * 1e-9 * m_fps;
  pos = std::fmod(pos, cycle);
  const int target = std::min(frameCount() - 1, int(pos));
  if (target != m_frame) {
    advanceTo(target);
    update();
  }
}

void TimelineView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  m_visible = true;
  updateTimer();
}

void TimelineView::hideEvent(QHideEvent* e) {
  QWidget::hideEvent(e);
  m_visible = false;
  updateTimer();
}

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QRect all = rect().adjusted(8, 6, -8, -6);
  if (!m_trace || frameCount() == 0) {
    drawHeader(p, all, m_theme, tr("Step through time: block 0's k-loop"), {});
    drawMessage(p, all, m_theme, m_trace ? tr("Block 0 left no events to replay.") : m_message);
    return;
  }
  const auto& t = *m_trace;
  const TimelineFrame& f = m_timeline.frames[std::size_t(std::max(0, m_frame))];
  const double kDone = m_timeline.k_done[std::size_t(std::max(0, m_frame))];
  const QString title = tr("Step through time: block 0 of step %1").arg(QString::fromStdString(step_label(t.step)));
  QString status = tr("phase %1 of %2 (%3 barriers in all) · frame %4 of %5 · k covered: %6 of %7")
                       .arg(f.phase + 1)
                       .arg(m_timeline.phases)
                       .arg(m_timeline.barriers)
                       .arg(m_frame + 1)
                       .arg(frameCount())
                       .arg(int(std::lround(kDone * t.shape.k)))
                       .arg(t.shape.k);
  if (m_timeline.truncated) status += tr(" (block 0's events were capped: the replay stops early)");
  const int top = drawHeader(p, all, m_theme, title, {status});
  const QFontMetrics fm(p.font());

  // Layout: B above C, A left of C (the textbook picture of C = A·B); the shared tiles below.
  const int m = t.shape.m, n = t.shape.n, k = t.shape.k;
  const bool hasShared = m_timeline.shared_a_words > 0 || m_timeline.shared_b_words > 0;
  const int legendH = fm.height() + 6;
  const int sharedH = hasShared ? std::max(60, (all.bottom() - top) / 4) : 0;
  const int labelH = fm.height() + 2;
  const QRect area(all.left(), top, all.width(), all.bottom() - top - sharedH - legendH);
  const double gap = 12;
  const double unitsW = k + n, unitsH = k + m;
  const double s = std::max(0.1, std::min((area.width() - gap) / unitsW, (area.height() - gap - 2 * labelH) / unitsH));
  const double x0 = area.left() + (area.width() - (unitsW * s + gap)) / 2;
  const QRectF rb(x0 + k * s + gap, area.top() + labelH, n * s, k * s);
  const QRectF ra(x0, rb.bottom() + gap + labelH, k * s, m * s);
  const QRectF rc(rb.left(), ra.top(), n * s, m * s);
  p.drawImage(ra, m_a);
  p.drawImage(rb, m_b);
  p.drawImage(rc, m_c);
  // Block 0's accumulators: its tile of C, filling as k is covered.
  if (!m_timeline.c_tile.empty()) {
    int r0 = m, r1 = -1, c0 = n, c1 = -1;
    for (std::int32_t cell : m_timeline.c_tile) {
      r0 = std::min(r0, int(cell / n)), r1 = std::max(r1, int(cell / n));
      c0 = std::min(c0, int(cell % n)), c1 = std::max(c1, int(cell % n));
    }
    const QRectF tile(rc.left() + c0 * s, rc.top() + r0 * s, (c1 - c0 + 1) * s, (r1 - r0 + 1) * s);
    QColor acc = m_theme.gpu;
    acc.setAlphaF(0.15 + 0.6 * kDone);
    p.fillRect(QRectF(tile.left(), tile.top(), tile.width(), tile.height()), acc);
    p.setPen(QPen(m_theme.gpu.darker(130), 2));
    p.drawRect(tile);
  }
  p.setPen(QPen(m_theme.border.isValid() ? m_theme.border : m_theme.grid, 1));
  p.setBrush(Qt::NoBrush);
  for (const QRectF& r : {ra, rb, rc}) p.drawRect(r);
  p.setPen(m_theme.text);
  p.drawText(QRectF(ra.left(), ra.top() - labelH, ra.width() + 200, labelH), Qt::AlignLeft | Qt::AlignBottom,
             tr("A (%1×%2)").arg(m).arg(k));
  p.drawText(QRectF(rb.left(), rb.top() - labelH, rb.width() + 200, labelH), Qt::AlignLeft | Qt::AlignBottom,
             tr("B (%1×%2)").arg(k).arg(n));
  p.drawText(QRectF(rc.left() + 4, rc.bottom() - labelH - 2, rc.width() + 400, labelH), Qt::AlignLeft | Qt::AlignBottom,
             tr("C (block 0's tile)"));

  // Shared memory: the two tiles as rows of 32 words (one column per bank).
  if (hasShared) {
    const QRect band(all.left(), int(area.bottom()) + 4, all.width(), sharedH - 4);
    p.setPen(m_theme.text);
    p.drawText(QRect(band.left(), band.top(), band.width(), labelH), Qt::AlignLeft | Qt::AlignVCenter,
               tr("shared memory (rows of 32 words = 32 banks):"));
    const int boxTop = band.top() + labelH, boxH = band.height() - labelH;
    int x = band.left();
    const std::pair<const QImage*, QString> tiles[] = {{&m_sa, tr("A tile")}, {&m_sb, tr("B tile")}};
    for (const auto& [img, name] : tiles) {
      if (img->isNull()) continue;
      const double h = boxH, w = std::min(double(band.width()) / 2 - 20, h * 32.0 / std::max(1, img->height()) * 4);
      const QRectF box(x + fm.horizontalAdvance(name) + 8, boxTop, std::max(32.0, w), h);
      p.setPen(m_theme.text);
      p.drawText(QRectF(x, boxTop, fm.horizontalAdvance(name) + 4, fm.height()), Qt::AlignLeft, name);
      p.drawImage(box, *img);
      p.setPen(QPen(m_theme.grid, 1));
      p.drawRect(box);
      x = int(box.right()) + 24;
    }
  }
  // A barrier after this frame: every thread of the block waits here.
  if (f.ends_with_barrier) {
    QColor bar = m_theme.warn;
    bar.setAlpha(200);
    const QRectF strip(all.left(), rb.bottom() + 2, all.width(), gap - 4);
    p.fillRect(strip, bar);
    p.setPen(m_theme.text);
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRectF(all.left(), all.bottom() - legendH - sharedH - fm.height() - 4, all.width(), fm.height()),
               Qt::AlignRight, tr("__syncthreads(): every thread of the block waits here"));
    p.setFont(font());
  }
  // Legend.
  const int ly = all.bottom() - legendH + 4;
  int lx = all.left();
  auto swatch = [&](QRgb c, const QString& text) {
    p.fillRect(QRect(lx, ly + 2, fm.height() - 4, fm.height() - 4), QColor::fromRgb(c));
    lx += fm.height();
    p.setPen(m_theme.text);
    p.drawText(QRect(lx, ly, fm.horizontalAdvance(text) + 4, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
    lx += fm.horizontalAdvance(text) + 16;
  };
  swatch(m_hotRead, tr("read in this frame"));
  swatch(m_hotWrite, tr("written in this frame"));
  swatch(m_seen, tr("read earlier"));
}
