#include "widgets/kernel_views.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

using namespace gpulab::kernelview;

QString kernelTraceProvenance() {
  return QObject::tr("traced on the CPU emulator: counts exact, times not a GPU's");
}

namespace {

const QColor& blockHue(int index) {
  using namespace okabe_ito;
  static const QColor hues[6] = {orange, sky_blue, bluish_green, blue, vermillion, reddish_purple};
  return hues[((index % 6) + 6) % 6];
}

// Title, lines and the provenance at the top of a picture; returns the y below them.
int drawHeader(QPainter& p, const QRect& r, const Theme& theme, const QString& title, const QStringList& lines) {
  QFont bold = p.font();
  bold.setBold(true);
  const QFontMetrics fmBold(bold), fm(p.font());
  int y = r.top();
  p.setPen(theme.text);
  if (!title.isEmpty()) {
    p.setFont(bold);
    p.drawText(QRect(r.left(), y, r.width(), fmBold.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fmBold.elidedText(title, Qt::ElideRight, r.width()));
    y += fmBold.height();
  }
  QFont plain = bold;
  plain.setBold(false);
  p.setFont(plain);
  for (const QString& line : lines) {
    const QRect br = fm.boundingRect(QRect(r.left(), y, r.width(), 1000), Qt::TextWordWrap, line);
    p.drawText(QRect(r.left(), y, r.width(), br.height()), Qt::TextWordWrap | Qt::AlignLeft, line);
    y += br.height();
  }
  p.setPen(theme.mutedText);
  QFont small = plain;
  small.setItalic(true);
  p.setFont(small);
  p.drawText(QRect(r.left(), y, r.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
             QFontMetrics(small).elidedText(kernelTraceProvenance(), Qt::ElideRight, r.width()));
  y += fm.height() + 4;
  p.setFont(plain);
  return y;
}

// The height drawHeader() will take at this width.
int headerHeight(const QFont& font, int width, const QString& title, const QStringList& lines) {
  QFont bold = font;
  bold.setBold(true);
  const QFontMetrics fm(font);
  int h = title.isEmpty() ? 0 : QFontMetrics(bold).height();
  for (const QString& line : lines) h += fm.boundingRect(QRect(0, 0, width, 10000), Qt::TextWordWrap, line).height();
  return h + fm.height() + 4;
}

void drawMessage(QPainter& p, const QRect& r, const Theme& theme, const QString& message) {
  p.setPen(theme.mutedText);
  p.drawText(r.adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, message);
}

QRectF fitCells(const QRect& area, int cols, int rows, double maxCell) {
  if (cols <= 0 || rows <= 0 || area.width() <= 0 || area.height() <= 0) return {};
  const double cell = std::min({double(area.width()) / cols, double(area.height()) / rows, maxCell});
  return QRectF(area.left(), area.top(), cell * cols, cell * rows);
}

}  // namespace

// ---- OwnerView --------------------------------------------------------------------------------------------------

OwnerView::OwnerView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setObjectName(QStringLiteral("kernelOwnerView"));
  setToolTip(tr("The output matrix C: each cell coloured by the thread block that computed it, shaded by the warp "
                "inside the block. Rest the mouse on a cell to see its block, warp and lane."));
}

void OwnerView::setTrace(std::shared_ptr<const gpulab::emu::StepTrace> trace) {
  m_trace = std::move(trace);
  m_tiles = m_trace ? block_tiles(*m_trace) : std::vector<BlockTile>{};
  m_hover = {-1, -1};
  rebuildImage();
  update();
}

void OwnerView::setTheme(const Theme& theme) {
  m_theme = theme;
  rebuildImage();
  update();
}

void OwnerView::setMessage(const QString& text) {
  m_message = text;
  update();
}

QColor OwnerView::cellColour(const Owner& o) const {
  if (o.block < 0) return m_theme.grid;
  const QColor base = blockHue(block_colour_index(o.block_x, o.block_y));
  // Four shades repeat across the warps of a block, so neighbouring warps always differ.
  static const int lighten[4] = {100, 128, 156, 184};
  return base.lighter(lighten[((o.warp % 4) + 4) % 4]);
}

void OwnerView::rebuildImage() {
  if (!m_trace) {
    m_image = QImage();
    m_hoverImage = QImage();
    return;
  }
  const int m = m_trace->shape.m, n = m_trace->shape.n;
  m_image = QImage(n, m, QImage::Format_RGB32);
  for (int r = 0; r < m; ++r) {
    auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(r));
    for (int c = 0; c < n; ++c) line[c] = cellColour(owner_at(*m_trace, r, c)).rgb();
  }
  m_hoverImage = QImage(n, m, QImage::Format_ARGB32_Premultiplied);
  rebuildHover();
}

void OwnerView::rebuildHover() {
  if (m_hoverImage.isNull()) return;
  m_hoverImage.fill(Qt::transparent);
  if (!m_trace || m_hover.x() < 0) return;
  const Owner h = owner_at(*m_trace, m_hover.x(), m_hover.y());
  if (h.block < 0) return;
  // The hovered cell's warp: every cell its 32 lanes computed, so a class sees a warp's shape.
  const QRgb mark = qRgba(0, 0, 0, 110), self = qRgba(0, 0, 0, 220);
  for (const BlockTile& t : m_tiles) {
    if (t.block != h.block) continue;
    for (int r = t.row0; r < t.row0 + t.rows; ++r) {
      auto* line = reinterpret_cast<QRgb*>(m_hoverImage.scanLine(r));
      for (int c = t.col0; c < t.col0 + t.cols; ++c) {
        const Owner o = owner_at(*m_trace, r, c);
        if (o.block == h.block && o.warp == h.warp) line[c] = o.lane == h.lane ? self : mark;
      }
    }
  }
}

QRectF OwnerView::matrixRect() const {
  if (!m_trace) return {};
  const QFontMetrics fm(font());
  const QRect all = rect().adjusted(8, 6, -8, -6);
  const int top = all.top() + headerHeight(font(), all.width(), ownerTitle(), {ownerLegend()});
  const int bottom = 2 * fm.height() + 6;  // the hovered cell's sentence
  const int left = fm.horizontalAdvance(QStringLiteral("000")) + 10;
  const QRect area(left, top + fm.height() + 2, width() - left - 8, height() - top - bottom - fm.height() - 2);
  const QRectF r = fitCells(area, m_trace->shape.n, m_trace->shape.m, 40);
  return r.translated((area.width() - r.width()) / 2, 0);
}

QPoint OwnerView::cellAt(const QPoint& pos) const {
  const QRectF r = matrixRect();
  if (!m_trace || r.isEmpty() || !r.contains(pos)) return {-1, -1};
  const double cell = r.width() / m_trace->shape.n;
  const int col = std::clamp(int((pos.x() - r.left()) / cell), 0, m_trace->shape.n - 1);
  const int row = std::clamp(int((pos.y() - r.top()) / cell), 0, m_trace->shape.m - 1);
  return {row, col};  // x = row, y = col
}

QRectF OwnerView::cellRect(int row, int col) const {
  const QRectF r = matrixRect();
  if (!m_trace || r.isEmpty()) return {};
  const double cell = r.width() / m_trace->shape.n;
  return QRectF(r.left() + col * cell, r.top() + row * cell, cell, cell);
}

QString OwnerView::ownerTitle() const {
  if (!m_trace) return tr("Who computes what");
  return tr("Who computes what: C (%1×%2), step %3")
      .arg(m_trace->shape.m)
      .arg(m_trace->shape.n)
      .arg(QString::fromStdString(step_label(m_trace->step)));
}

QString OwnerView::ownerLegend() const {
  if (!m_trace) return {};
  const auto& t = *m_trace;
  return tr("%1 block(s) × %2 threads (%3 warps) · colour: block · shade: warp · dark: the hovered cell's warp")
      .arg(block_count(t))
      .arg(t.block[0] * t.block[1] * t.block[2])
      .arg(warps_per_block(t));
}

QString OwnerView::describeCell(int row, int col) const {
  if (!m_trace) return {};
  const Owner o = owner_at(*m_trace, row, col);
  if (o.block < 0) return tr("C[%1, %2]: no thread wrote it").arg(row).arg(col);
  return tr("C[%1, %2] was computed by block (%3, %4) — block %5 — warp %6, lane %7 (thread %8 of the block)")
      .arg(row)
      .arg(col)
      .arg(o.block_x)
      .arg(o.block_y)
      .arg(o.block)
      .arg(o.warp)
      .arg(o.lane)
      .arg(o.thread);
}

void OwnerView::mouseMoveEvent(QMouseEvent* e) {
  const QPoint cell = cellAt(e->position().toPoint());
  if (cell != m_hover) {
    m_hover = cell;
    rebuildHover();
    update();
  }
  QWidget::mouseMoveEvent(e);
}

void OwnerView::leaveEvent(QEvent* e) {
  m_hover = {-1, -1};
  rebuildHover();
  update();
  QWidget::leaveEvent(e);
}

bool OwnerView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QPoint cell = cellAt(help->pos());
    if (cell.x() >= 0) {
      QToolTip::showText(help->globalPos(), describeCell(cell.x(), cell.y()), this);
      return true;
    }
  }
  return QWidget::event(e);
}

void OwnerView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing, false);
  const QRect all = rect().adjusted(8, 6, -8, -6);
  if (!m_trace) {
    drawHeader(p, all, m_theme, tr("Who computes what"), {});
    drawMessage(p, all, m_theme, m_message);
    return;
  }
  const auto& t = *m_trace;
  drawHeader(p, all, m_theme, ownerTitle(), {ownerLegend()});
  const QRectF r = matrixRect();
  if (r.isEmpty()) return;
  const QFontMetrics fm(font());
  // Column and row indices at the block edges.
  p.setPen(m_theme.mutedText);
  const double cell = r.width() / t.shape.n;
  p.drawText(QRectF(r.left() - fm.horizontalAdvance(QStringLiteral("000")) - 8, r.top() - fm.height(),
                    fm.horizontalAdvance(QStringLiteral("000")) + 4, fm.height()),
             Qt::AlignRight | Qt::AlignVCenter, tr("row"));
  p.drawText(QRectF(r.left(), r.top() - fm.height() - 2, r.width(), fm.height()), Qt::AlignLeft | Qt::AlignBottom,
             tr("column →"));
  p.drawImage(r, m_image);
  p.drawImage(r, m_hoverImage);
  // Block outlines and names.
  QPen edge(m_theme.text, m_theme.isProjector() ? 2.5 : 1.5);
  p.setPen(edge);
  p.setBrush(Qt::NoBrush);
  for (const BlockTile& b : m_tiles) {
    const QRectF br(r.left() + b.col0 * cell, r.top() + b.row0 * cell, b.cols * cell, b.rows * cell);
    p.drawRect(br);
    const QString name = tr("block (%1, %2)").arg(b.block_x).arg(b.block_y);
    if (br.width() > fm.horizontalAdvance(name) + 6 && br.height() > fm.height() + 4) {
      const QRectF tr2(br.left() + 3, br.top() + 2, fm.horizontalAdvance(name) + 6, fm.height());
      p.fillRect(tr2, QColor(255, 255, 255, 190));
      p.setPen(Qt::black);
      p.drawText(tr2, Qt::AlignCenter, name);
      p.setPen(edge);
    }
  }
  for (int row = 0; row < t.shape.m; row += std::max(32, (t.shape.m / 4 + 31) / 32 * 32)) {
    p.setPen(m_theme.mutedText);
    p.drawText(QRectF(r.left() - 40, r.top() + row * cell - fm.height() / 2.0, 36, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, QString::number(row));
  }
  // The hovered cell, in words (also in the tooltip).
  p.setPen(m_theme.text);
  const QString hovered = m_hover.x() >= 0 ? describeCell(m_hover.x(), m_hover.y())
                                           : tr("Rest the mouse on a cell: its block, warp and lane appear here.");
  p.drawText(QRectF(all.left(), r.bottom() + 4, all.width(), 2 * fm.height() + 2), Qt::AlignLeft | Qt::TextWordWrap,
             hovered);
}

// ---- WarpLoadView ---------------------------------------------------------------------------------------------

WarpLoadView::WarpLoadView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("kernelWarpLoadView"));
  setToolTip(tr("One warp's request: the elements its 32 lanes touched (filled, with the lane number) and, for global "
                "memory, the 32-byte sectors the memory system had to fetch for them (outlined; shaded cells were "
                "fetched but not asked for). For shared memory each column is one of the 32 banks."));
}

void WarpLoadView::setRequest(const RequestView& view, const QString& title, const QStringList& lines) {
  m_view = view;
  m_title = title;
  m_lines = lines;
  m_has = true;
  update();
}

void WarpLoadView::setMessage(const QString& text) {
  m_has = false;
  m_message = text;
  update();
}

void WarpLoadView::setTheme(const Theme& theme) {
  m_theme = theme;
  update();
}

void WarpLoadView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QRect all = rect().adjusted(8, 6, -8, -6);
  if (!m_has) {
    drawHeader(p, all, m_theme, tr("One warp's load"), {});
    drawMessage(p, all, m_theme, m_message);
    return;
  }
  RequestView v = m_view;  // a copy: the window widens to the widget's shape (not an animation: no frame budget)
  const int top = drawHeader(p, all, m_theme, m_title, m_lines);
  const QFontMetrics fm(p.font());
  const int left = fm.horizontalAdvance(QStringLiteral("0000")) + 8;
  const QRect area(all.left() + left, top + fm.height() + 2, all.width() - left,
                   all.bottom() - top - 3 * fm.height() - 8);
  const int rows = v.row_hi - v.row_lo + 1;
  if (rows <= 0 || v.col_hi < v.col_lo || area.height() <= 0) return;
  if (!v.shape.shared) {
    // As many columns as the width holds at the height's cell size: more of the row around the sectors.
    // Never narrower than a readable cell, so a short, wide window stays countable.
    const double cellH = std::max(double(fm.height()) * 0.7, std::min(56.0, double(area.height()) / rows));
    const int want = std::min(v.shape.cols, std::max(v.col_hi - v.col_lo + 1, int(area.width() / cellH)));
    int extra = want - (v.col_hi - v.col_lo + 1);
    const int before = std::min(v.col_lo, extra / 2);
    v.col_lo -= before;
    extra -= before;
    v.col_hi = std::min(v.shape.cols - 1, v.col_hi + extra);
    v.col_lo = std::max(0, v.col_hi - want + 1);
  }
  const int cols = v.col_hi - v.col_lo + 1;
  const QRectF grid = fitCells(area, cols, rows, 56);
  if (grid.isEmpty()) return;
  const double cell = grid.width() / cols;
  auto cellRectAt = [&](int row, int col) {
    return QRectF(grid.left() + (col - v.col_lo) * cell, grid.top() + (row - v.row_lo) * cell, cell, cell);
  };
  auto inWindow = [&](int row, int col) { return row >= v.row_lo && row <= v.row_hi && col >= v.col_lo && col <= v.col_hi; };

  // Banks that serve more than one word: the conflicting columns, tinted.
  if (v.shape.shared) {
    QColor bad = m_theme.bad;
    bad.setAlpha(50);
    for (int b = 0; b < 32; ++b)
      if (v.words_per_bank[std::size_t(b)] > 1 && b >= v.col_lo && b <= v.col_hi)
        p.fillRect(QRectF(cellRectAt(v.row_lo, b).left(), grid.top(), cell, grid.height()), bad);
  }
  // Fetched sectors (global): every cell of a sector, before the lanes' own cells are drawn on top.
  QColor fetched = m_theme.memory;
  fetched.setAlpha(70);
  for (const SectorRun& s : v.sectors)
    for (int c = s.col0; c < s.col0 + s.cols; ++c)
      if (inWindow(s.row, c)) p.fillRect(cellRectAt(s.row, c), fetched);
  // The grid.
  QPen gridPen(m_theme.grid, 1);
  p.setPen(gridPen);
  for (int c = 0; c <= cols; ++c) p.drawLine(QPointF(grid.left() + c * cell, grid.top()), QPointF(grid.left() + c * cell, grid.bottom()));
  for (int r = 0; r <= rows; ++r) p.drawLine(QPointF(grid.left(), grid.top() + r * cell), QPointF(grid.right(), grid.top() + r * cell));
  // The lanes' cells: how many lanes touched each (a broadcast when more than one).
  QFont small = p.font();
  small.setPointSizeF(std::max(6.0, std::min(small.pointSizeF(), cell * 0.38)));
  const QFontMetrics fmSmall(small);
  p.setFont(small);
  for (const LaneCell& l : v.lanes) {
    int count = 0;
    for (const LaneCell& o : v.lanes) count += o.element == l.element ? 1 : 0;
    for (int w = 0; w < l.words; ++w) {
      const int e = l.element + w, row = e / std::max(1, v.shape.cols), col = e % std::max(1, v.shape.cols);
      if (!inWindow(row, col)) continue;
      const QRectF cr = cellRectAt(row, col).adjusted(1, 1, -1, -1);
      p.fillRect(cr, m_theme.gpu);
      if (w == 0 && cell >= fmSmall.height() + 2) {
        p.setPen(Qt::black);
        const QString text = count > 1 ? QStringLiteral("×%1").arg(count) : QString::number(l.lane);
        if (fmSmall.horizontalAdvance(text) < cell) p.drawText(cr, Qt::AlignCenter, text);
      }
    }
  }
  p.setFont(font());
  // Sector outlines.
  QPen sectorPen(m_theme.memory.darker(140), m_theme.isProjector() ? 3.5 : 2.5);
  p.setPen(sectorPen);
  p.setBrush(Qt::NoBrush);
  for (const SectorRun& s : v.sectors) {
    const int c0 = std::max(s.col0, v.col_lo), c1 = std::min(s.col0 + s.cols - 1, v.col_hi);
    if (s.row < v.row_lo || s.row > v.row_hi || c0 > c1) continue;
    p.drawRect(cellRectAt(s.row, c0).united(cellRectAt(s.row, c1)).adjusted(1, 1, -1, -1));
  }
  // Axis labels: rows on the left, columns (banks) on top.
  p.setPen(m_theme.mutedText);
  const int labelEvery = std::max(1, int(std::ceil(fm.height() * 1.1 / cell)));
  for (int r = v.row_lo; r <= v.row_hi; r += labelEvery)
    p.drawText(QRectF(all.left(), cellRectAt(r, v.col_lo).center().y() - fm.height() / 2.0, left - 6, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, QString::number(r));
  const double labelW = fm.horizontalAdvance(QStringLiteral("0000"));
  const int colEvery = std::max(1, int(std::ceil(labelW * 1.1 / cell)));
  for (int c = v.col_lo; c <= v.col_hi; c += colEvery)
    p.drawText(QRectF(cellRectAt(v.row_lo, c).center().x() - labelW / 2, grid.top() - fm.height() - 2, labelW, fm.height()),
               Qt::AlignCenter, QString::number(c));
  const QString where =
      v.shape.shared
          ? tr("shared array %1: rows of 32 words, one column per bank (bank = word mod 32 from the array's start); "
               "red columns serve several words: a bank conflict")
                .arg(QString::fromStdString(v.shape.name))
          : tr("%1 (%2×%3), rows %4–%5, columns %6–%7; blue outlines: the 32-byte sectors fetched")
                .arg(QString::fromStdString(v.shape.name))
                .arg(v.shape.rows)
                .arg(v.shape.cols)
                .arg(v.row_lo)
                .arg(v.row_hi)
                .arg(v.col_lo)
                .arg(v.col_hi);
  p.drawText(QRectF(all.left(), grid.bottom() + 4, all.width(), fm.height() * 2 + 2), Qt::AlignLeft | Qt::TextWordWrap,
             where);
}

// ---- TimelineView -------------------------------------------------------------------------------------------------

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("kernelTimelineView"));
  setToolTip(tr("Block 0 of the kernel stepping through its k-loop: the elements of A and B it reads (bright), the "
                "shared-memory tiles it fills (green) and reads, the barriers where all its threads wait, and its "
                "tile of C filling up as the dot products grow."));
  m_timer.setTimerType(Qt::PreciseTimer);
  m_timer.setInterval(16);  // ~60 Hz; the frame shown comes from the elapsed time, not from counting ticks
  connect(&m_timer, &QTimer::timeout, this, &TimelineView::tick);
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
